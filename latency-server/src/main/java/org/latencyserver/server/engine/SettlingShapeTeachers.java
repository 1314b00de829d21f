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
 * The trains (probe windows and measured results) that taught a connection's shape models — its shape model
 * ({@code ShapeExcessModel}) and its shape mean model ({@code ShapeMeanModel}) — within the settle window. Polled
 * interface counters lag the load by up to an agent's refresh: a port that began to queue is seen seconds later, and a
 * train sent meanwhile carries a queueing port's round trips under the idle port's state — and its misses raise the
 * drift alarm, whose measurement then runs in the same seconds, a thousand round trips of them. Learned as the idle
 * band's, such trains give the band a tail its round trips do not have, and every shape's bound there is widened for as
 * long as the models remember them. So when a polled reading moves a connection's ports ({@link #portsMoved}: idle to
 * loaded or back, or another set of loaded hops) between two answered readings, the shape models return to what they
 * were before the first train accepted within the settle window before the reading.
 *
 * <p>The levels — pooled, port pattern, each state's, and the shape model's own ({@code ShapeModelLevel}) — keep those
 * trains: an application's bursts in the same seconds meet the same queue under the same state, and a level that no
 * longer learns their misses covers too few of them. A model describes where a band's round trips lie; a level counts
 * how often what was served missed. Moves within the loaded band (another utilisation, saturated or not) take nothing
 * back: the models keep one loaded band, and a port near its rate reads another percent at almost every refresh. Nor
 * do moves of the CPUs alone: a CPU state's bound differs from its neighbour's by far less than a queue's, and CPU
 * states move often enough that taking their settle windows back would cost a large share of the trains. A move the
 * engine cannot date — a pushed move of the ports (no counter lag), or any change to or from an unanswered source —
 * takes nothing back and forgets the trains noted so far; so does a restored row. A port that crosses its loaded
 * threshold at every refresh has all its trains taken back from the shape models: the counter says so.
 *
 * <p>Not thread-safe: owned by the update thread; the counter is volatile for the metrics endpoint.
 */
final class SettlingShapeTeachers {

    private static final Logger LOG = LoggerFactory.getLogger(SettlingShapeTeachers.class);

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
    /** Trains whose teaching of the shape models was taken back, since start; update thread writes. */
    private volatile long shapeTrainsTakenBack;

    /** @param settleNanos how long after a train a polled move of the ports takes its teaching back, ns (0: never) */
    SettlingShapeTeachers(final long settleNanos) {
        if (settleNanos < 0) {
            throw new IllegalArgumentException("settle window must be at least 0 ns, was " + settleNanos);
        }
        this.settleNanos = settleNanos;
    }

    /**
     * Notes a train that may have taught the connection's shape models.
     *
     * @param indexRef the connection
     * @param before   its learning before the train
     * @param after    its learning after the train
     * @param nowNanos when the train was accepted, monotonic ns
     */
    void taught(final short indexRef, final Learning before, final Learning after, final long nowNanos) {
        if (settleNanos == 0 || before.sameShapeModelsAs(after)) {
            return;
        }
        final ArrayDeque<Before> trains = taught.computeIfAbsent(indexRef, k -> new ArrayDeque<>());
        expire(trains, nowNanos);
        trains.addLast(new Before(nowNanos, before));
    }

    /**
     * A reading changed the connection's load state: a polled move of its ports between two answered readings takes
     * back what the trains of the settle window taught the shape models ({@link #takeBack}); a move the engine cannot
     * date — a pushed move of the ports, or any change to or from an unanswered source — forgets the trains noted so
     * far; a move of the CPUs alone keeps them noted.
     *
     * @param indexRef the connection
     * @param current  its learning now
     * @param before   the load state the reading moved it from
     * @param now      the load state it moved it to
     * @param polled   whether the reading was polled (its counters lag the load), not pushed
     * @param nowNanos when the reading was applied, monotonic ns
     * @return {@code current}, with its shape models taken back when the ports moved as above
     */
    Learning afterStateChange(final short indexRef, final Learning current, final ConnectionLoadState before,
                              final ConnectionLoadState now, final boolean polled, final long nowNanos) {
        final boolean answered = bothAnswered(before, now);
        final boolean moved = portsMoved(before, now);
        if (polled && answered && moved) {
            return takeBack(indexRef, current, before, now, nowNanos);
        }
        if (moved || !answered) {
            forget(indexRef);
        }
        return current;
    }

    /**
     * A polled reading moved the connection's ports ({@link #portsMoved}): its shape models return to what they were
     * before the first train accepted within the settle window.
     *
     * @param indexRef the connection
     * @param current  its learning now
     * @param left     the load state the reading moved it from, for the log
     * @param entered  the load state it moved it to, for the log
     * @param nowNanos when the reading was applied, monotonic ns
     * @return {@code current} with its shape models taken back, or {@code current} itself when no train taught them
     *         within the settle window
     */
    private Learning takeBack(final short indexRef, final Learning current, final ConnectionLoadState left,
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
        shapeTrainsTakenBack += trains.size();
        if (LOG.isDebugEnabled()) {
            LOG.debug("connection {}: ports moved from {} to {}: what its last {} trains (within the settle window of {} ms)"
                + " taught its shape models is taken back (counters lag the load)", indexRef, left.label(),
                entered.label(), trains.size(), settleNanos / 1_000_000);
        }
        return current.withShapeModelsFrom(first.learning());
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

    /**
     * @param indexRef a connection whose trains so far are no longer to be taken back (its state moved undated, or was
     *                 restored)
     */
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

    /** @return trains whose teaching of the shape models was taken back since start (any thread) */
    long shapeTrainsTakenBack() {
        return shapeTrainsTakenBack;
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
