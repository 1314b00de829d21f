package org.latencyserver.server.snmp;

import java.util.Arrays;

/**
 * How often an agent refreshes a source's counters, learned from the polls: agents cache what they
 * read from the kernel (net-snmp: IF-MIB about every 3 s, CPU about every 5 s), so most polls see the
 * values of the last refresh. The period is the median of the last {@value #KEPT} intervals between
 * readings whose values changed, each measured on the poller's clock (so within one poll interval of
 * the agent's own).
 *
 * <p>Written by one poller thread; {@link #periodNanos()} may be read from any thread.
 */
final class CounterRefresh {

    /** Intervals the median is taken over. */
    static final int KEPT = 5;

    private final long[] intervalsNanos = new long[KEPT];
    /** Intervals kept, at most {@link #KEPT}. */
    private int seen;
    /** Where the next interval goes in the ring. */
    private int next;
    private long lastChangeNanos;
    private boolean haveChange;
    private volatile long periodNanos = -1;

    /**
     * @param nowNanos monotonic time of a reading whose counters differ from the reading before
     */
    void changed(final long nowNanos) {
        if (haveChange) {
            intervalsNanos[next] = nowNanos - lastChangeNanos;
            next = (next + 1) % KEPT;
            seen = Math.min(KEPT, seen + 1);
            final int n = seen;
            final long[] sorted = Arrays.copyOf(intervalsNanos, n);
            Arrays.sort(sorted);
            periodNanos = sorted[n / 2];
        }
        lastChangeNanos = nowNanos;
        haveChange = true;
    }

    /** Forgets what was seen (the source was UNKNOWN or the agent restarted: its refresh may differ now). */
    void reset() {
        seen = 0;
        next = 0;
        haveChange = false;
        periodNanos = -1;
    }

    /** @return the agent's refresh period, ns, or −1 while fewer than two changes were seen */
    long periodNanos() {
        return periodNanos;
    }
}
