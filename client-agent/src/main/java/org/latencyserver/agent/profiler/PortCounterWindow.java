package org.latencyserver.agent.profiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A switch port's achieved utilisation over a window, from its IF-MIB octet counters as an SNMP
 * agent serves them: the busier direction's bits per second (ifHCInOctets or ifHCOutOctets delta ×
 * 8 over the elapsed time) against the port's speed — the server's poller's arithmetic.
 *
 * <p>An agent refreshes its counters only every few seconds (net-snmp about every 3 s), so polling
 * faster reads the same value. Only the readings at which a counter <em>changed</em> carry a
 * trustworthy clock; the rate is taken from the first change to the last change in the window, and
 * a window needs {@value #MIN_CHANGES} changes (several refreshes) before it reads anything.
 *
 * <p>Not thread-safe: the meter's poller thread adds readings; others read a {@link #copy()}.
 */
final class PortCounterWindow {

    /** Counter changes a window needs: the first and at least two more refreshes after it. */
    static final int MIN_CHANGES = 3;

    /** One reading at which a counter had changed since the previous one. */
    record Change(long nanos, long inOctets, long outOctets) {
    }

    private final List<Change> changes = new ArrayList<>();
    private boolean haveReading;
    private long lastInOctets;
    private long lastOutOctets;

    /**
     * @param nowNanos  monotonic time of the reading
     * @param inOctets  ifHCInOctets (Counter64, unsigned in a long)
     * @param outOctets ifHCOutOctets
     * @return true when it was a change (a refresh of the agent's counters)
     */
    boolean add(final long nowNanos, final long inOctets, final long outOctets) {
        if (haveReading && inOctets == lastInOctets && outOctets == lastOutOctets) {
            return false;
        }
        final boolean first = !haveReading;
        haveReading = true;
        lastInOctets = inOctets;
        lastOutOctets = outOctets;
        if (first) {
            // The very first reading is no change: its value may be seconds old.
            return false;
        }
        changes.add(new Change(nowNanos, inOctets, outOctets));
        return true;
    }

    /** @return the changes seen so far, oldest first */
    List<Change> copy() {
        return List.copyOf(changes);
    }

    /**
     * @param changes   counter changes, oldest first
     * @param fromNanos the window's start: changes before it are ignored
     * @param toNanos   its end: changes after it are ignored
     * @param speedMbps the port's speed, Mbit/s, {@code > 0}
     * @return the utilisation in percent (not clamped: above 100 says the speed is configured too low),
     *         or NaN when the window holds fewer than {@value #MIN_CHANGES} changes
     */
    static double percent(final List<Change> changes, final long fromNanos, final long toNanos, final double speedMbps) {
        if (!(speedMbps > 0)) {
            throw new IllegalArgumentException("port speed must be > 0 Mbit/s, was " + speedMbps);
        }
        final List<Change> inside = changes.stream().filter(c -> c.nanos() >= fromNanos && c.nanos() <= toNanos).toList();
        if (inside.size() < MIN_CHANGES) {
            return Double.NaN;
        }
        final Change first = inside.get(0);
        final Change last = inside.get(inside.size() - 1);
        final double inDelta = unsignedDelta(first.inOctets(), last.inOctets());
        final double outDelta = unsignedDelta(first.outOctets(), last.outOctets());
        final double seconds = (last.nanos() - first.nanos()) / 1e9;
        return 100.0 * Math.max(inDelta, outDelta) * 8 / seconds / (speedMbps * 1e6);
    }

    /** A Counter64 that wrapped once between the readings counts the wrap. */
    static double unsignedDelta(final long earlier, final long later) {
        final long delta = later - earlier;
        return delta >= 0 ? delta : delta + 0x1p64;
    }

    /**
     * @param achievedPercent what the window read (NaN: too few refreshes)
     * @param targetPercent   the load asked for
     * @param tolerancePoints how far it may be off
     * @return empty when within the tolerance, else why not
     */
    static Optional<LoadMiss> miss(final double achievedPercent, final int targetPercent, final double tolerancePoints) {
        if (Double.isNaN(achievedPercent)) {
            return Optional.of(new LoadMiss(LoadMiss.Kind.PORT_COUNTERS_STILL, "the port's counters changed fewer than " + MIN_CHANGES
                + " times in the window (is the agent refreshing them?)"));
        }
        if (Math.abs(achievedPercent - targetPercent) <= tolerancePoints) {
            return Optional.empty();
        }
        return Optional.of(new LoadMiss(LoadMiss.Kind.PORT_OFF_TARGET, String.format(Locale.ROOT,
            "the port read %.1f %% for a target of %d %% (more than %.0f points off)", achievedPercent, targetPercent, tolerancePoints)));
    }
}
