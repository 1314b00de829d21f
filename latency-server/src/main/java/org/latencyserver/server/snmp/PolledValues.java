package org.latencyserver.server.snmp;

import org.latencyserver.server.table.MibReading;

/**
 * What the poller knows of one connection's ends: for each of client CPU, peer CPU and port,
 * whether it is polled at all, and if so its value (0..100, or −1 for unknown / not yet read).
 *
 * <p>In a mixed setup (one end pushed through {@code PutMibUpdates}, another polled),
 * {@link #mergeInto} keeps the pushed end's last value and replaces only the polled ones.
 *
 * <p>Immutable and thread-safe.
 *
 * @param indexRef     the connection's {@code index_ref}
 * @param clientPolled whether the client workstation is polled
 * @param clientCpuPercent its CPU utilisation, −1..100; −1 when not polled
 * @param peerPolled   whether the peer workstation is polled
 * @param peerCpuPercent its CPU utilisation, −1..100; −1 when not polled
 * @param portPolled   whether the switch port is polled
 * @param portPercent  its utilisation, −1..100; −1 when not polled
 */
public record PolledValues(short indexRef, boolean clientPolled, short clientCpuPercent, boolean peerPolled,
                           short peerCpuPercent, boolean portPolled, short portPercent) {

    /**
     * @param current the connection's latest values (pushed or polled before)
     * @return {@code current} with the polled values replaced
     */
    public MibReading mergeInto(final MibReading current) {
        return new MibReading(clientPolled ? clientCpuPercent : current.clientCpuPercent(),
            peerPolled ? peerCpuPercent : current.peerCpuPercent(), portPolled ? portPercent : current.portPercent());
    }
}
