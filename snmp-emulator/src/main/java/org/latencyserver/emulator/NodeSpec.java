package org.latencyserver.emulator;

import java.net.InetAddress;

/**
 * One emulated workstation: its name, the local address and UDP port its SNMP agent listens on
 * (0 = any free port) and its number of CPU cores (the raw CPU counters tick at 100 Hz per core,
 * as Linux).
 *
 * <p>Immutable and thread-safe.
 *
 * @param name unique name used in the scenario's steps
 * @param udpPort 0..65535, 0 for an ephemeral port
 * @param cores 1..1024
 * @param counterRefreshMicros 0 for counters that advance continuously; else the raw CPU
 *        counters only change every this many microseconds, as net-snmp's refresh every ~5 s
 *        (to test that a poller's state does not flap because of it)
 * @param address the local address of its agent, or null for the emulator's own ({@code --bind});
 *        a generated workstation has one of its own (127.x.y.z)
 */
public record NodeSpec(String name, int udpPort, int cores, long counterRefreshMicros, InetAddress address) {
    /** A node whose counters advance continuously, on the emulator's address. */
    public NodeSpec(String name, int udpPort, int cores) {
        this(name, udpPort, cores, 0, null);
    }

    /** A node on the emulator's address. */
    public NodeSpec(String name, int udpPort, int cores, long counterRefreshMicros) {
        this(name, udpPort, cores, counterRefreshMicros, null);
    }

    /**
     * @param elapsedMicros time since the emulator started
     * @return the time the CPU counters are read at: the last refresh at or before it
     */
    public long counterTimeMicros(long elapsedMicros) {
        return counterRefreshMicros == 0 ? elapsedMicros : elapsedMicros - elapsedMicros % counterRefreshMicros;
    }
}
