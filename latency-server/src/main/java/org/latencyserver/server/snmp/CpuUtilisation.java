package org.latencyserver.server.snmp;

/**
 * A workstation's CPU utilisation from successive {@link CpuTicks} readings: the non-idle share
 * of the ticks counted since the baseline, in percent.
 *
 * <p>net-snmp refreshes the raw counters only every few seconds, so most polls at 10 Hz see the
 * same values. Such a reading keeps the last utilisation and leaves the baseline where it was; the
 * next changed reading is then measured over the whole refresh period. An all-zero reading (the
 * agent has not read the kernel yet) is ignored. {@link #restart} drops the baseline after the
 * agent restarted, so the first reading afterwards is a new baseline and never a spike.
 *
 * <p>ssCpuRawKernel is a subset of ssCpuRawSystem on Linux, so it is not added again; wait and
 * interrupt ticks count as busy.
 *
 * <p>Not thread-safe: one poller thread (or a lock) at a time.
 */
public final class CpuUtilisation extends CounterUtilisation {

    /** Fewest ticks (1/100 s of one CPU each) a utilisation is computed over: 1-point resolution. */
    static final long MIN_TICKS = 100;

    private CpuTicks baseline;
    private CpuTicks lastSeen;

    /**
     * Takes a reading now (the refresh period is timed on {@link System#nanoTime()}).
     *
     * @param ticks the counters just read
     * @return the utilisation now, 0..100, or −1 while no two different readings were seen
     */
    public int update(final CpuTicks ticks) {
        return update(ticks, System.nanoTime());
    }

    /**
     * Takes a reading.
     *
     * @param ticks    the counters just read
     * @param nowNanos monotonic time of the reading
     * @return the utilisation now, 0..100, or −1 while no two different readings were seen
     */
    public int update(final CpuTicks ticks, final long nowNanos) {
        if (ticks.allZero()) {
            return lastPercent;
        }
        if (lastSeen != null && !ticks.sameAs(lastSeen)) {
            refresh.changed(nowNanos);
        }
        lastSeen = ticks;
        if (baseline == null) {
            baseline = ticks;
            return lastPercent;
        }
        if (ticks.sameAs(baseline)) {
            return lastPercent;
        }
        final long idle = CounterDelta.of(baseline.idleTicks(), ticks.idleTicks(), 32);
        final long busy = CounterDelta.of(baseline.userTicks(), ticks.userTicks(), 32)
            + CounterDelta.of(baseline.niceTicks(), ticks.niceTicks(), 32)
            + CounterDelta.of(baseline.systemTicks(), ticks.systemTicks(), 32)
            + CounterDelta.of(baseline.waitTicks(), ticks.waitTicks(), 32)
            + CounterDelta.of(baseline.interruptTicks(), ticks.interruptTicks(), 32);
        final long total = idle + busy;
        if (total < MIN_TICKS) {
            // Too few ticks for a percent to mean anything (at 10 Hz, 2 cores x 100 Hz give 20 ticks:
            // 5-point steps that would flap a state at its boundary). Keep the baseline; measure
            // over the longer period once enough ticks have passed.
            return lastPercent;
        }
        baseline = ticks;
        lastPercent = (int) Math.round(100.0 * busy / total);
        return lastPercent;
    }

    @Override
    void dropBaseline() {
        baseline = null;
        lastSeen = null;
    }
}
