package org.latencyserver.server.snmp;

import java.util.function.Function;
import org.latencyserver.server.config.SnmpAccess;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.GenericAddress;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;

/**
 * Turns a configured {@link SnmpAccess} into an SNMP4J target, reading the secrets from the
 * environment variables it names (never from the configuration file), and registers v3 users.
 *
 * <p>Stateless; thread-safe.
 */
public final class SnmpTargets {

    private SnmpTargets() {
    }

    /**
     * @param access      the configured access
     * @param environment looks up an environment variable, e.g. {@code System::getenv}
     * @param usm         where v3 users are registered
     * @return the target, with the configured timeout and retries
     * @throws IllegalArgumentException when the address is not {@code udp:HOST/PORT} or a named
     *                                  environment variable is unset or empty (the message names it)
     */
    public static Target<?> target(final SnmpAccess access, final Function<String, String> environment, final USM usm) {
        final Address address = GenericAddress.parse(access.address());
        if (!(address instanceof UdpAddress)) {
            throw new IllegalArgumentException("SNMP address '" + access.address()
                + "' is not supported: the poller speaks UDP only, e.g. udp:127.0.0.1/161");
        }
        final Target<?> target;
        if (access.version() == SnmpAccess.Version.V2C) {
            final CommunityTarget<Address> community = new CommunityTarget<>(address,
                new OctetString(secret(environment, access.communityEnv(), "community")));
            community.setVersion(SnmpConstants.version2c);
            target = community;
        } else {
            final OctetString user = new OctetString(access.user());
            final OID auth = access.authProtocol() == SnmpAccess.AuthProtocol.SHA ? AuthSHA.ID : AuthHMAC192SHA256.ID;
            final OID priv = access.privProtocol() == SnmpAccess.PrivProtocol.AES ? PrivAES128.ID : PrivAES256.ID;
            usm.addUser(user, new UsmUser(user, auth, new OctetString(secret(environment, access.authPasswordEnv(), "auth")),
                priv, new OctetString(secret(environment, access.privPasswordEnv(), "priv"))));
            final UserTarget<Address> userTarget = new UserTarget<>();
            userTarget.setAddress(address);
            userTarget.setVersion(SnmpConstants.version3);
            userTarget.setSecurityLevel(SecurityLevel.AUTH_PRIV);
            userTarget.setSecurityName(user);
            target = userTarget;
        }
        target.setTimeout(access.timeoutMillis());
        target.setRetries(access.retries());
        return target;
    }

    /**
     * @param target the target the PDU is for
     * @return an empty PDU of the right kind (scoped for v3)
     */
    public static PDU newPdu(final Target<?> target) {
        return target.getVersion() == SnmpConstants.version3 ? new ScopedPDU() : new PDU();
    }

    private static String secret(final Function<String, String> environment, final String variable, final String what) {
        final String value = environment.apply(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("the SNMP " + what + " secret is read from the environment variable "
                + variable + ", which is not set");
        }
        return value;
    }
}
