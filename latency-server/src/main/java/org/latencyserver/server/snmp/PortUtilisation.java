package org.latencyserver.server.snmp;

import org.latencyserver.core.state.PortState;

/**
 * A switch port's utilisation from successive IF-MIB octet counter readings: the busier direction's
 * bits per second over the port speed, in percent, clamped to 0..100.
 *
 * <p>Agents cache interface counters for a while (net-snmp for a few seconds), so a reading with
 * both counters unchanged keeps the last utilisation and the baseline, and the next changed reading
 * is measured over the whole period — unless the counters have stood still for longer than twice
 * the agent's refresh period as the polls have seen it ({@link CounterRefresh}; before it is known,
 * {@code idleAfterNanos}), when the port is taken to be idle (0 %): a refresh that changed nothing is
 * not a reading of 0 %, two are.
 *
 * <p>Given a counter of the port's dropped packets, a window in which the port carried at least
 * {@value #SATURATED_AT_PERCENT} % and that counter moved reads
 * {@link PortState#SATURATED_CODE}: more was offered than the port carries (its utilisation alone
 * would read 100 % whatever the queue did). A saturated port stays so through one more window
 * without drops while it still carries that much (bursty drops do not flap it), and leaves at once
 * when it carries less.
 *
 * <p>Not thread-safe: one poller thread (or a lock) at a time.
 */
public final class PortUtilisation extends CounterUtilisation {

    /** A discards value that says none was read. */
    static final long NO_DISCARDS = Long.MIN_VALUE;
    /** The utilisation from which dropped packets mean the port is saturated, not merely erring. */
    static final int SATURATED_AT_PERCENT = 95;

    /** Shortest period a rate is computed over, ns. */
    static final long MIN_WINDOW_NANOS = 1_000_000_000L;

    private final long idleAfterNanos;
    private boolean haveBaseline;
    private long baseInOctets;
    private long baseOutOctets;
    private long baseNanos;
    private long baseDiscards = NO_DISCARDS;
    /** Windows without drops a saturated port still reads saturated while it carries its rate. */
    private int saturatedHold;
    private boolean haveSeen;
    private long lastSeenInOctets;
    private long lastSeenOutOctets;

    /**
     * @param idleAfterNanos how long unchanged counters are read as "cached" before the port counts as idle, > 0
     */
    public PortUtilisation(final long idleAfterNanos) {
        if (idleAfterNanos <= 0) {
            throw new IllegalArgumentException("idle time must be > 0 ns, was " + idleAfterNanos);
        }
        this.idleAfterNanos = idleAfterNanos;
    }

    /**
     * Takes a reading.
     *
     * @param inOctets    ifHCInOctets (or ifInOctets), unsigned value in a long
     * @param outOctets   ifHCOutOctets (or ifOutOctets), same form and width
     * @param counterBits 64 for ifHC*, 32 for the old Counter32 objects
     * @param speedMbps   the port speed, Mbit/s, > 0
     * @param nowNanos    monotonic time of the reading
     * @return the utilisation now, 0..100, or −1 while no two readings were seen
     * @throws IllegalArgumentException when the speed is not positive
     */
    public int update(final long inOctets, final long outOctets, final int counterBits, final long speedMbps,
                      final long nowNanos) {
        return update(inOctets, outOctets, counterBits, speedMbps, nowNanos, NO_DISCARDS, 64);
    }

    /**
     * Takes a reading with the port's drop counter.
     *
     * @param discards     the drop counter, unsigned in a long, or {@link #NO_DISCARDS} when none was read
     * @param discardsBits its width, 32 or 64
     * @return the utilisation now, 0..100, {@link PortState#SATURATED_CODE} when the port carried its rate and
     *         dropped in the window, or −1 while no two readings were seen
     * @see #update(long, long, int, long, long)
     */
    public int update(final long inOctets, final long outOctets, final int counterBits, final long speedMbps,
                      final long nowNanos, final long discards, final int discardsBits) {
        if (speedMbps <= 0) {
            throw new IllegalArgumentException("port speed must be > 0 Mbit/s, was " + speedMbps);
        }
        if (haveSeen && (inOctets != lastSeenInOctets || outOctets != lastSeenOutOctets)) {
            refresh.changed(nowNanos);
        }
        haveSeen = true;
        lastSeenInOctets = inOctets;
        lastSeenOutOctets = outOctets;
        if (!haveBaseline) {
            setBaseline(inOctets, outOctets, nowNanos, discards);
            return lastPercent;
        }
        final long elapsedNanos = nowNanos - baseNanos;
        if (inOctets == baseInOctets && outOctets == baseOutOctets) {
            if (elapsedNanos > idleAfterNanos()) {
                lastPercent = 0;
                baseNanos = nowNanos;
            }
            return lastPercent;
        }
        if (elapsedNanos < MIN_WINDOW_NANOS) {
            // Over one 100 ms poll a few ms of jitter between the agent's counting and our clock
            // is several percent (92 % read as 90 %), and above 90 % every change is a new state.
            // Keep the baseline: a rate over at least a second is stable to well under a point.
            return lastPercent;
        }
        final long inDelta = CounterDelta.of(baseInOctets, inOctets, counterBits);
        final long outDelta = CounterDelta.of(baseOutOctets, outOctets, counterBits);
        final double octets = Math.max(unsigned(inDelta), unsigned(outDelta));
        final double bitsPerSecond = octets * 8.0 * 1e9 / elapsedNanos;
        final double percent = 100.0 * bitsPerSecond / (speedMbps * 1e6);
        lastPercent = (int) Math.max(0, Math.min(100, Math.round(percent)));
        final boolean dropped = discards != NO_DISCARDS && baseDiscards != NO_DISCARDS
            && CounterDelta.of(baseDiscards, discards, discardsBits) != 0;
        if (lastPercent < SATURATED_AT_PERCENT) {
            saturatedHold = 0;
        } else if (dropped) {
            lastPercent = PortState.SATURATED_CODE;
            saturatedHold = 1;
        } else if (saturatedHold > 0) {
            saturatedHold--;
            lastPercent = PortState.SATURATED_CODE;
        }
        setBaseline(inOctets, outOctets, nowNanos, discards);
        return lastPercent;
    }

    /**
     * @return how long counters must stand still before the port counts as idle: twice the agent's refresh period
     *         once it is known (a refresh that showed no change is an idle port), at least the shortest window and at
     *         most the configured time; the configured time before
     */
    long idleAfterNanos() {
        final long period = refresh.periodNanos();
        return period > 0 ? Math.max(MIN_WINDOW_NANOS, Math.min(idleAfterNanos, 2 * period)) : idleAfterNanos;
    }

    private static double unsigned(final long value) {
        return value >= 0 ? value : value + 0x1p64;
    }

    private void setBaseline(final long inOctets, final long outOctets, final long nowNanos, final long discards) {
        haveBaseline = true;
        baseInOctets = inOctets;
        baseOutOctets = outOctets;
        baseNanos = nowNanos;
        baseDiscards = discards;
    }

    @Override
    void dropBaseline() {
        haveBaseline = false;
        haveSeen = false;
        saturatedHold = 0;
    }
}
