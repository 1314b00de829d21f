package org.latencyserver.emulator;

/**
 * One emulated switch port (the intermediate link of a connection): the UDP port of its SNMP
 * agent (0 = any free port), its IF-MIB ifIndex and its speed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name unique name used in the scenario's steps
 * @param udpPort 0..65535, 0 for an ephemeral port
 * @param ifIndex IF-MIB interface index, 1..2147483647
 * @param speedMbps link speed in megabits per second (ifHighSpeed), at least 1
 */
public record LinkSpec(String name, int udpPort, int ifIndex, long speedMbps) {
}
