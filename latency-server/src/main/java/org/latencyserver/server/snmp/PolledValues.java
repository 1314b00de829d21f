package org.latencyserver.server.snmp;

import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;

/**
 * What the poller knows of one connection's ends: for each of client CPU, peer CPU and port,
 * whether it is polled at all, and if so its value (0..100, or −1 for unknown / not yet read).
 *
 * <p>In a mixed setup (one end pushed through {@code PutMibUpdates}, another polled),
 * {@link #update} keeps the pushed end's last value and replaces only the polled ones.
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

    /** @return an update that sets the polled sources only: a pushed end keeps its last pushed value */
    public MibUpdate update() {
        return new MibUpdate(new MibReading(clientCpuPercent, peerCpuPercent, portPercent), clientPolled, peerPolled, portPolled);
    }
}
