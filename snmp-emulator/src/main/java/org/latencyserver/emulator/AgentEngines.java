package org.latencyserver.emulator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.SecurityModels;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.OctetString;
import org.snmp4j.util.DefaultPDUFactory;

/**
 * Makes each emulated agent's SNMP engine: an SNMP4J message dispatcher with SNMPv2c and SNMPv3,
 * the agent's own engine ID (from its name) and its own USM holding the one v3 user of the
 * {@link AccessConfig}, with keys localized to that engine ID.
 *
 * <p>A USM key is derived from its passphrase by hashing a megabyte (RFC 3414 A.2), a few
 * milliseconds per key, which thousands of agents cannot afford each; the two SHA-1 master keys
 * are therefore computed once here and only localized per agent (one short hash each).
 *
 * <p>Immutable and thread-safe.
 */
final class AgentEngines {
    /** Engine ID text limit: "ls-" plus this many characters keeps SNMP4J's engine ID within 32 bytes. */
    private static final int MAX_ENGINE_ID_TEXT_CHARS = 20;
    /** RFC 3414 A.2: the passphrase is repeated to fill this many bytes before it is hashed. */
    private static final int PASSWORD_TO_KEY_BYTES = 1_048_576;
    private static final int AES_128_KEY_BYTES = 16;
    private static final SecurityProtocols PROTOCOLS = SecurityProtocols.getInstance();
    private static final DefaultPDUFactory PDU_FACTORY = new DefaultPDUFactory();

    static {
        PROTOCOLS.addAuthenticationProtocol(new AuthSHA());
        PROTOCOLS.addPrivacyProtocol(new PrivAES128());
    }

    private final AccessConfig access;
    /** SHA-1 master keys (Ku) of the v3 passphrases; null without a v3 user. */
    private final byte[] authMasterKey;
    private final byte[] privMasterKey;

    /** @param access who may read every agent these engines serve */
    AgentEngines(AccessConfig access) {
        this.access = access;
        this.authMasterKey = access.v3().map(u -> masterKey(u.authPassphrase())).orElse(null);
        this.privMasterKey = access.v3().map(u -> masterKey(u.privPassphrase())).orElse(null);
    }

    /** @return who may read the agents */
    AccessConfig access() {
        return access;
    }

    /**
     * @param agentName the emulated node's or link's name
     * @return a new dispatcher answering v2c and v3 for that agent (add its responder and transport)
     */
    MessageDispatcherImpl dispatcher(String agentName) {
        byte[] engineId = engineId(agentName);
        USM usm = new USM(PROTOCOLS, new OctetString(engineId), 1);
        access.v3().ifPresent(user -> {
            OctetString name = new OctetString(user.userName());
            usm.addUser(name, new OctetString(engineId), new UsmUser(name, AuthSHA.ID,
                    new OctetString(localize(authMasterKey, engineId)), PrivAES128.ID,
                    new OctetString(Arrays.copyOf(localize(privMasterKey, engineId), AES_128_KEY_BYTES)),
                    new OctetString(engineId)));
        });
        SecurityModels models = new SecurityModels();
        models.addSecurityModel(usm);
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(new MPv3(engineId, PDU_FACTORY, PROTOCOLS, models, CounterSupport.getInstance()));
        return dispatcher;
    }

    /**
     * @param agentName an agent's name, unique in its scenario
     * @return its engine ID: "ls-" and the name, or for a name over 20 characters its first 11 and a
     *         checksum of the whole, so that distinct names keep distinct engine IDs
     */
    static byte[] engineId(String agentName) {
        String text = agentName;
        if (text.length() > MAX_ENGINE_ID_TEXT_CHARS) {
            CRC32 crc = new CRC32();
            crc.update(agentName.getBytes(StandardCharsets.UTF_8));
            text = agentName.substring(0, MAX_ENGINE_ID_TEXT_CHARS - 9) + "-" + String.format("%08x", crc.getValue());
        }
        return MPv3.createLocalEngineID(new OctetString("ls-" + text));
    }

    /** @return RFC 3414 A.2.2's Ku: SHA-1 over the passphrase repeated to one megabyte */
    static byte[] masterKey(String passphrase) {
        byte[] password = passphrase.getBytes(StandardCharsets.UTF_8);
        MessageDigest sha = sha1();
        byte[] block = new byte[64];
        int index = 0;
        for (int count = 0; count < PASSWORD_TO_KEY_BYTES; count += block.length) {
            for (int i = 0; i < block.length; i++) {
                block[i] = password[index++ % password.length];
            }
            sha.update(block);
        }
        return sha.digest();
    }

    /** @return RFC 3414 A.2.2's Kul: SHA-1(Ku ‖ engineID ‖ Ku) */
    static byte[] localize(byte[] masterKey, byte[] engineId) {
        MessageDigest sha = sha1();
        sha.update(masterKey);
        sha.update(engineId);
        sha.update(masterKey);
        return sha.digest();
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-1, which SNMPv3 USM needs", e);
        }
    }
}
