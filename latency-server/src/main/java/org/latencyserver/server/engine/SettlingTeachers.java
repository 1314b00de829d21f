package org.latencyserver.server.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.Learning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trains (probe windows and measured results) that taught a connection, as a whole, within the settle window: what
 * its load states share — the pooled level (its ratios included), the port patterns' levels, the class excesses, the
 * shape model, its level and the shape mean model. Polled interface counters lag the load by up to an agent's refresh:
 * a port that began to queue is seen seconds later, and a train sent meanwhile carries a queueing port's round trips
 * under the idle port's state — and its misses raise the drift alarm, whose measurement then runs in the same seconds.
 * Learned connection-wide, such trains raise every young state's borrowed level and ratios, and give the shape models'
 * idle band a tail its round trips do not have, for as long as they remember. So when a polled reading moves a
 * connection's ports as those models tell them apart ({@link #portsMoved}: idle to loaded or back, or another set of
 * loaded hops), what the load states share returns to what it was before the first train accepted within the settle
 * window before the reading: those trains teach the connection as a whole nothing.
 *
 * <p>Moves within the loaded band (another utilisation, saturated or not) take nothing back: a port near its rate
 * reads another percent at almost every refresh. Nor do moves of the CPUs alone: a CPU state's bound differs from its
 * neighbour's by far less than a queue's, and CPU states move often enough that taking their settle windows back would
 * cost a large share of the trains. A move the engine cannot date — a pushed reading (no counter lag), or one to or
 * from an unanswered source — takes nothing back and forgets the trains noted so far, which belong to the state left;
 * so does a restored row. Each load state's own knowledge is left as it is: a result's is taken back by
 * {@link ResultIntake}, and a probe window's calibration counts what an application then met.
 *
 * <p>Not thread-safe: owned by the update thread; the counter is volatile for the metrics endpoint.
 */
final class SettlingTeachers {

    private static final Logger LOG = LoggerFactory.getLogger(SettlingTeachers.class);

    /**
     * The connection's learning before one train taught it.
     *
     * @param acceptedNanos when the train was accepted, monotonic ns
     * @param learning      the connection's learning before it
     */
    private record Before(long acceptedNanos, Learning learning) {
    }

    private final long settleNanos;
    /** Per connection, the trains accepted within the settle window, oldest first (update thread only). */
    private final Map<Short, ArrayDeque<Before>> taught = new HashMap<>();
    /** Trains whose teaching of what the load states share was taken back, since start; update thread writes. */
    private volatile long trainsTakenBack;

    /** @param settleNanos how long after a train a polled move of the ports takes its teaching back, ns (0: never) */
    SettlingTeachers(final long settleNanos) {
        if (settleNanos < 0) {
            throw new IllegalArgumentException("settle window must be at least 0 ns, was " + settleNanos);
        }
        this.settleNanos = settleNanos;
    }

    /**
     * Notes a train that may have taught what the connection's load states share.
     *
     * @param indexRef the connection
     * @param before   its learning before the train
     * @param after    its learning after the train
     * @param nowNanos when the train was accepted, monotonic ns
     */
    void taught(final short indexRef, final Learning before, final Learning after, final long nowNanos) {
        if (settleNanos == 0 || before.sharesSameAs(after)) {
            return;
        }
        final ArrayDeque<Before> trains = taught.computeIfAbsent(indexRef, k -> new ArrayDeque<>());
        expire(trains, nowNanos);
        trains.addLast(new Before(nowNanos, before));
    }

    /**
     * A polled reading moved the connection's ports ({@link #portsMoved}): what its load states share returns to what it
     * was before the first train accepted within the settle window.
     *
     * @param indexRef the connection
     * @param current  its learning now
     * @param left     the load state the reading moved it from, for the log
     * @param entered  the load state it moved it to, for the log
     * @param nowNanos when the reading was applied, monotonic ns
     * @return {@code current} with what the load states share taken back, or {@code current} itself when no train
     *         taught it within the settle window
     */
    Learning takeBack(final short indexRef, final Learning current, final ConnectionLoadState left,
                      final ConnectionLoadState entered, final long nowNanos) {
        final ArrayDeque<Before> trains = taught.remove(indexRef);
        if (trains == null) {
            return current;
        }
        expire(trains, nowNanos);
        final Before first = trains.peekFirst();
        if (first == null) {
            return current;
        }
        trainsTakenBack += trains.size();
        LOG.info("connection {}: ports moved from {} to {}: what its last {} trains (within the settle window of {} ms) taught"
            + " the connection as a whole is taken back (counters lag the load)", indexRef, left.label(), entered.label(),
            trains.size(), settleNanos / 1_000_000);
        return current.withSharedFrom(first.learning());
    }

    /**
     * @param before the connection's load state before a reading
     * @param now    its load state after it
     * @return whether its ports moved from the idle band to the loaded one or back, or, on a path, to another set of
     *         loaded hops
     */
    static boolean portsMoved(final ConnectionLoadState before, final ConnectionLoadState now) {
        return PortBand.of(before) != PortBand.of(now) || !loadedHops(before).equals(loadedHops(now));
    }

    /** @return whether both states were read from answering sources: both CPU states and every hop known */
    static boolean bothAnswered(final ConnectionLoadState before, final ConnectionLoadState now) {
        return answered(before) && answered(now);
    }

    /** @param indexRef a connection whose trains so far are no longer to be taken back (its state moved undated, or was restored) */
    void forget(final short indexRef) {
        taught.remove(indexRef);
    }

    /** Forgets the trains whose settle window has passed. */
    void expireSettled(final long nowNanos) {
        taught.values().removeIf(trains -> {
            expire(trains, nowNanos);
            return trains.isEmpty();
        });
    }

    /** @return trains whose teaching of what the load states share was taken back since start (any thread) */
    long trainsTakenBack() {
        return trainsTakenBack;
    }

    private void expire(final ArrayDeque<Before> trains, final long nowNanos) {
        while (!trains.isEmpty() && nowNanos - trains.peekFirst().acceptedNanos() > settleNanos) {
            trains.removeFirst();
        }
    }

    private static List<Boolean> loadedHops(final ConnectionLoadState load) {
        final List<Boolean> loaded = new ArrayList<>(load.hops().size());
        for (final PortState hop : load.hops()) {
            loaded.add(hop.isLoaded());
        }
        return loaded;
    }

    private static boolean answered(final ConnectionLoadState load) {
        if (!load.isKnown()) {
            return false;
        }
        for (final PortState hop : load.hops()) {
            if (hop.kind() == PortState.Kind.UNKNOWN) {
                return false;
            }
        }
        return true;
    }
}
