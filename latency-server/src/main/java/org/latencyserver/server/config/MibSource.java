package org.latencyserver.server.config;

/**
 * Where a workstation's CPU or a switch port's utilisation comes from ({@code mib_source}).
 *
 * <p>Immutable and thread-safe.
 */
public enum MibSource implements ConfigWord {
    /** pushed as percentages through {@code PutMibUpdates}, as the thesis's emulator did ({@code push}) */
    PUSH,
    /** polled from an SNMP agent ({@code snmp}); the node or link then has an {@code snmp} block */
    SNMP
}
