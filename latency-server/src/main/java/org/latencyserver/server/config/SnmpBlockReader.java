package org.latencyserver.server.config;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;

/**
 * Reads and checks the {@code snmp:} block of a node or link against its {@code mib_source}.
 *
 * <p>Stateless apart from the fault collector it reports to; not thread-safe.
 */
final class SnmpBlockReader {

    /** What the block belongs to: the keys differ. */
    enum Owner {
        NODE, LINK;

        /** @return the owner in a fault, e.g. "a second node named ..." */
        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final Set<String> V3_ONLY = Set.of("user", "auth_protocol", "auth_password_env", "priv_protocol",
        "priv_password_env");
    private static final Pattern ADDRESS = Pattern.compile("(udp|tcp):(\\S+)/([0-9]{1,5})");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static final Map<String, MibSource> MIB_SOURCES = ConfigWord.byWord(MibSource.class);
    private static final Map<String, SnmpAccess.Version> VERSIONS = ConfigWord.byWord(SnmpAccess.Version.class);
    private static final Map<String, SnmpAccess.AuthProtocol> AUTH = ConfigWord.byWord(SnmpAccess.AuthProtocol.class);
    /** A numeric OID, e.g. 1.3.6.1.2.1.2.2.1.19.3 (a leading dot allowed): no MIB names are resolved. */
    private static final java.util.regex.Pattern NUMERIC_OID = java.util.regex.Pattern.compile("\\.?\\d+(\\.\\d+)+");
    private static final Map<String, SnmpAccess.PrivProtocol> PRIV = ConfigWord.byWord(SnmpAccess.PrivProtocol.class);
    private static final Map<String, SnmpAccess.CpuSource> CPU = ConfigWord.byWord(SnmpAccess.CpuSource.class);

    /** The keys of a node's or link's snmp block, as the options table lists them (a link's: the node's but cpu_source, and its own). */
    static Set<String> keys(final Owner owner) {
        final Set<String> keys = new LinkedHashSet<>(ServerOption.keysIn("nodes[].snmp"));
        if (owner == Owner.LINK) {
            keys.remove(ServerOption.NODES_SNMP_CPU_SOURCE.key());
            keys.addAll(ServerOption.keysIn("links[].snmp"));
        }
        return keys;
    }

    private final InputFaults faults;

    SnmpBlockReader(final InputFaults faults) {
        this.faults = faults;
    }

    /**
     * The result of reading a block: the access, and for links the port's ifIndex and speed.
     *
     * @param access    null when there is none or it has faults
     * @param ifIndex   links: the port, 0 when absent or bad
     * @param speedMbps links: the configured speed, 0 for ifHighSpeed
     */
    record Result(SnmpAccess access, int ifIndex, long speedMbps, String discardsOid) {
        static final Result NONE = new Result(null, 0, 0, null);
    }

    /**
     * @param owner  the node or link section holding {@code mib_source} and perhaps {@code snmp}
     * @param source its MIB source, null when that was bad (already reported)
     * @param kind   node or link
     * @return the access; {@link Result#NONE} for a pushed owner or on faults
     */
    Result read(final InputMapping owner, final MibSource source, final Owner kind) {
        final InputMapping block = usedBlock(owner, source);
        if (block == null) {
            return Result.NONE;
        }
        final int before = faults.count();
        OptionReads.allowOnly(block, keys(kind), keysOfTheOtherOwner(kind));

        final String address = block.requiredText("address", "the agent's address, e.g. udp:127.0.0.1/161");
        final String agentHost = address == null ? null : checkAddress(block, address);
        final String localAddress = block.text("local_address", null);
        if (localAddress != null) {
            LocalAddressCheck.check(block, localAddress, agentHost);
        }
        final SnmpAccess.Version version = block.require("version", "version, v2c or v3")
            ? block.choice("version", null, VERSIONS) : null;
        final Credentials credentials = credentials(block, version);
        final SnmpAccess.CpuSource cpu = kind == Owner.NODE ? block.choice("cpu_source", SnmpAccess.CpuSource.UCD_RAW, CPU) : null;
        final Long timeout = OptionReads.whole(block, ServerOption.NODES_SNMP_TIMEOUT_MILLIS);
        final Long retries = OptionReads.whole(block, ServerOption.NODES_SNMP_RETRIES);
        final Result port = kind == Owner.LINK ? port(block) : Result.NONE;
        if (faults.count() != before || version == null) {
            return Result.NONE;
        }
        return new Result(new SnmpAccess(address, version, credentials.communityEnv, credentials.user, credentials.auth,
            credentials.authEnv, credentials.priv, credentials.privEnv, cpu, timeout, retries.intValue(), localAddress),
            port.ifIndex(), port.speedMbps(), port.discardsOid());
    }

    /**
     * @return the owner's snmp block when its MIB source uses one; null when it has none to read (a
     *         push owner, or a fault reported: a block where none is used, or none where one is needed)
     */
    private static InputMapping usedBlock(final InputMapping owner, final MibSource source) {
        final InputMapping block = owner.section("snmp");
        if (source == MibSource.PUSH && owner.has("snmp")) {
            owner.fault("snmp", "mib_source is push" + (owner.has("mib_source") ? "" : " (the default)")
                + ", so this snmp block would be unused: remove it, or set mib_source: snmp");
            return null;
        }
        if (source == MibSource.SNMP && block == null && !owner.has("snmp")) {
            owner.fault("mib_source", "mib_source is 'snmp', but there is no snmp block saying how to reach the agent");
        }
        return block;
    }

    /** @return the keys that belong to the other kind of owner's block, each with where it applies */
    private static Map<String, String> keysOfTheOtherOwner(final Owner kind) {
        final Map<String, String> elsewhere = new HashMap<>();
        if (kind == Owner.NODE) {
            ServerOption.keysIn("links[].snmp").forEach(key -> elsewhere.put(key, "it applies to a link's snmp block (the switch port)"));
        } else {
            elsewhere.put(ServerOption.NODES_SNMP_CPU_SOURCE.key(), "it applies to a node's snmp block (a workstation's CPU)");
        }
        return elsewhere;
    }

    /** What a version authenticates with: v2c a community, v3 a USM user; the unused ones null. */
    private record Credentials(String communityEnv, String user, SnmpAccess.AuthProtocol auth, String authEnv,
                               SnmpAccess.PrivProtocol priv, String privEnv) {
        static final Credentials NONE = new Credentials(null, null, null, null, null, null);
    }

    private Credentials credentials(final InputMapping block, final SnmpAccess.Version version) {
        if (version == SnmpAccess.Version.V2C) {
            for (final String key : V3_ONLY) {
                if (block.value(key) != null) {
                    block.fault(key, "SNMP v2c has no '" + key + "': remove it, or set version: v3");
                }
            }
            return new Credentials(envName(block, "community_env",
                "SNMP v2c needs community_env, the environment variable that holds the community"), null, null, null, null, null);
        }
        if (version != SnmpAccess.Version.V3) {
            return Credentials.NONE;
        }
        if (block.value("community_env") != null) {
            block.fault("community_env", "SNMP v3 uses no community: remove community_env, or set version: v2c");
        }
        final String user = block.requiredText("user", "SNMP v3 needs user, the USM user name");
        final SnmpAccess.AuthProtocol auth = block.choice("auth_protocol", SnmpAccess.AuthProtocol.SHA, AUTH);
        final String authEnv = envName(block, "auth_password_env", "SNMP v3 needs auth_password_env, the environment variable"
            + " that holds the authentication passphrase (authPriv)");
        final SnmpAccess.PrivProtocol priv = block.choice("priv_protocol", SnmpAccess.PrivProtocol.AES, PRIV);
        final String privEnv = envName(block, "priv_password_env", "SNMP v3 needs priv_password_env, the environment variable"
            + " that holds the privacy passphrase (authPriv)");
        return new Credentials(null, user, auth, authEnv, priv, privEnv);
    }

    /** @return a link block's port: its ifIndex, configured speed and discards counter (no access) */
    private static Result port(final InputMapping block) {
        final OptionValues.Whole ifIndexRange = ServerOption.LINKS_SNMP_IF_INDEX.whole();
        final Long ifIndex = block.requiredInteger(ServerOption.LINKS_SNMP_IF_INDEX.key(), ifIndexRange.minimum(), ifIndexRange.maximum(),
            "if_index, the switch port's IF-MIB ifIndex");
        final Long speed = OptionReads.whole(block, ServerOption.LINKS_SNMP_SPEED_MBPS, 0L); // 0: the agent's ifHighSpeed
        String discardsOid = block.text("discards_oid", null);
        if (discardsOid != null && !NUMERIC_OID.matcher(discardsOid).matches()) {
            block.fault("discards_oid", "expected a numeric OID of a counter of the packets the port dropped (e.g."
                + " IF-MIB ifOutDiscards 1.3.6.1.2.1.2.2.1.19.<if_index>), was '" + discardsOid + "'");
            discardsOid = null;
        }
        return new Result(null, ifIndex == null ? 0 : ifIndex.intValue(), speed == null ? 0 : speed, discardsOid);
    }

    /** @return the address's host, or null when the address is bad (reported) */
    private static String checkAddress(final InputMapping block, final String address) {
        final Matcher matcher = ADDRESS.matcher(address);
        final int port = matcher.matches() ? Integer.parseInt(matcher.group(3)) : -1;
        if (port < 1 || port > 65_535) {
            block.fault("address", "expected udp:HOST/PORT or tcp:HOST/PORT with a port 1..65535 (e.g. udp:127.0.0.1/161), was '"
                + address + "'");
            return null;
        }
        return matcher.group(2);
    }

    private String envName(final InputMapping block, final String key, final String what) {
        final String name = block.requiredText(key, what);
        if (name != null && !ENV_NAME.matcher(name).matches()) {
            // Not echoed: a value that is no variable name may be the secret itself.
            block.fault(key, "must be the name of an environment variable (letters, digits and _, not starting with a digit); "
                + "the value is not repeated here in case it is the secret itself");
            return null;
        }
        return name;
    }
}
