package org.latencyserver.emulator;

import java.net.InetAddress;

/**
 * One emulated switch port (the intermediate link of a connection): the local address and UDP
 * port of its SNMP agent (0 = any free port), its IF-MIB ifIndex and its speed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name unique name used in the scenario's steps
 * @param udpPort 0..65535, 0 for an ephemeral port
 * @param ifIndex IF-MIB interface index, 1..2147483647
 * @param speedMbps link speed in megabits per second (ifHighSpeed), at least 1
 * @param address the local address of its agent, or null for the emulator's own ({@code --bind});
 *        a generated switch port has one of its own (127.x.y.z)
 */
public record LinkSpec(String name, int udpPort, int ifIndex, long speedMbps, InetAddress address) {
    /** A switch port on the emulator's address. */
    public LinkSpec(String name, int udpPort, int ifIndex, long speedMbps) {
        this(name, udpPort, ifIndex, speedMbps, null);
    }
}
