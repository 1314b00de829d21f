package org.latencyserver.server.snmp;

import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;
import org.latencyserver.server.table.PortPercents;

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
 * @param portPolled   whether the switch ports are polled (every port of a path of several is)
 * @param ports        each port's utilisation in path order, −1..101; −1 when not polled
 */
public record PolledValues(short indexRef, boolean clientPolled, short clientCpuPercent, boolean peerPolled,
                           short peerCpuPercent, boolean portPolled, PortPercents ports) {

    /** A connection with at most one switch port. */
    public PolledValues(final short indexRef, final boolean clientPolled, final short clientCpuPercent, final boolean peerPolled,
                        final short peerCpuPercent, final boolean portPolled, final short portPercent) {
        this(indexRef, clientPolled, clientCpuPercent, peerPolled, peerCpuPercent, portPolled, PortPercents.single(portPercent));
    }

    /** @return the worst port's utilisation, −1 when any is unknown */
    public short portPercent() {
        return ports.worst();
    }

    /** @return an update that sets the polled sources only: a pushed end keeps its last pushed value */
    public MibUpdate update() {
        return new MibUpdate(new MibReading(clientCpuPercent, peerCpuPercent, ports), clientPolled, peerPolled, portPolled);
    }
}
