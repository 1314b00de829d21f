package org.latencyserver.server.config;

/**
 * Where a workstation's CPU or a switch port's utilisation comes from ({@code mib_source}).
 *
 * <p>Immutable and thread-safe.
 */
public enum MibSource {
    /** pushed as percentages through {@code PutMibUpdates}, as the thesis's emulator did ({@code push}) */
    PUSH("push"),
    /** polled from an SNMP agent ({@code snmp}); the node or link then has an {@code snmp} block */
    SNMP("snmp");

    private final String configName;

    MibSource(final String configName) {
        this.configName = configName;
    }

    /** @return the word used in the configuration file */
    public String configName() {
        return configName;
    }
}
