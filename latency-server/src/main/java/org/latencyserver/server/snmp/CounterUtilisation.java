package org.latencyserver.server.snmp;

/**
 * A utilisation computed from successive counter readings against a baseline reading, in percent.
 * What the two kinds share: the last utilisation is kept between readings, an agent restart drops
 * only the baseline, and a source that became UNKNOWN drops both.
 *
 * <p>Not thread-safe: one poller thread (or a lock) at a time.
 */
public abstract sealed class CounterUtilisation permits CpuUtilisation, PortUtilisation {

    /** The last utilisation, 0..100, or −1 when none yet; set by the subclass's reading. */
    int lastPercent = -1;
    /** The agent's refresh of these counters, told of every reading whose counters changed. */
    final CounterRefresh refresh = new CounterRefresh();

    CounterUtilisation() {
    }

    /** Drops the baseline, so that the next reading is a new baseline. */
    abstract void dropBaseline();

    /** Forgets the baseline (the agent restarted); the last utilisation is kept. */
    public final void restart() {
        dropBaseline();
        refresh.reset();
    }

    /** Forgets baseline and last value (the source was UNKNOWN: its old value says nothing any more). */
    public final void forget() {
        dropBaseline();
        lastPercent = -1;
        refresh.reset();
    }

    /** @return the agent's refresh period of these counters, ns, or −1 while not yet seen (any thread) */
    public final long refreshPeriodNanos() {
        return refresh.periodNanos();
    }

    /** @return the last utilisation, 0..100, or −1 when none yet */
    public final int lastPercent() {
        return lastPercent;
    }
}
