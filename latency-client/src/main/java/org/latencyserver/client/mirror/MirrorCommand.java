package org.latencyserver.client.mirror;

import org.latencyserver.idl.latency.Estimate;

/**
 * What the mirror's CORBA side (the feed thread, and ORB threads delivering pushes) asks of the
 * writer thread, the only thread that touches the mapped file. Immutable; safe to hand between
 * threads through the writer's queue.
 */
sealed interface MirrorCommand {

    /**
     * An estimate the server served or pushed.
     *
     * @param estimate   as the server sent it
     * @param receivedAtNanos {@link System#nanoTime()} when it arrived (for the mirror's own lag figures)
     */
    record Served(Estimate estimate, long receivedAtNanos) implements MirrorCommand {
    }

    /**
     * The server serves no estimate for a connection now (no load state yet, or its profile
     * cannot give one); the record keeps the state so a reader sees why.
     *
     * @param indexRef  the connection
     * @param qos       its QoS level
     * @param cpuState  its CPU state code
     * @param portState its port state code
     * @param epochMillis when the server said so (this host's clock)
     */
    record NotServed(short indexRef, short qos, short cpuState, short portState, long epochMillis) implements MirrorCommand {
    }

    /**
     * How the mirror is connected to the server now.
     *
     * @param linkCode           one of {@code MirrorLayout.SERVER_LINK_*}
     * @param contactEpochMillis when the server last answered or pushed
     */
    record Link(int linkCode, long contactEpochMillis) implements MirrorCommand {
    }
}
