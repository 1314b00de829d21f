package org.latencyserver.testbed;

import java.nio.file.Path;

/**
 * The configuration file of one testbed {@code snmpd}: it listens on one address of its namespace,
 * answers the v2c community and the v3 authPriv user to the benchmarking range only, names itself
 * after its namespace ({@code sysName}), and keeps its persistent state (engine ID, v3 keys) in a
 * directory of its own, so that no two agents share an engine ID. Only numeric OIDs are used
 * anywhere: Debian ships net-snmp without MIB files.
 *
 * <p>Stateless; thread-safe.
 */
public final class SnmpdConfig {

    /** The port every testbed agent listens on (each in its own namespace). */
    public static final int PORT = 161;

    private SnmpdConfig() {
    }

    /**
     * @param testbed       the testbed's name, for the file's first line
     * @param namespace     the agent's namespace (its sysName)
     * @param address       where it listens
     * @param credentials   who may read
     * @param persistentDir its own persistent directory
     * @return the file's text
     */
    public static String text(final String testbed, final String namespace, final String address, final SnmpCredentials credentials,
                              final Path persistentDir) {
        return String.join("\n",
            "# snmpd of " + namespace + ", written by ./latency testbed up (testbed " + testbed + "); removed by down.",
            "agentAddress udp:" + address + ":" + PORT,
            "sysName " + namespace,
            "sysLocation latency testbed " + testbed,
            "rocommunity " + credentials.community() + " " + Ipv4Prefix.BENCHMARKING_RANGE,
            "createUser " + credentials.v3User() + " SHA " + credentials.authPassword() + " AES " + credentials.privPassword(),
            "rouser " + credentials.v3User() + " priv",
            "[snmp] persistentDir " + persistentDir,
            "");
    }
}
