package org.latencyserver.launch.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the errors of one or more agents by distinct error, so that an error that repeats every
 * round does not flood the log. Two errors are the same when they have the same class, the same
 * message and the same top stack frame ({@link ErrorKey}).
 *
 * <p>The first occurrence of a distinct error is logged at ERROR with its stack trace. Later
 * occurrences are only counted; at most once per {@code summaryInterval} per distinct error, the
 * next occurrence logs one WARN line that summarises the count, the first and the last time.
 * {@link #snapshot()} gives every distinct error so far (for tests and metrics), {@link #totalCount()}
 * the sum.
 *
 * <p>Thread-safety: all methods may be called from any thread (they synchronise on the log; only
 * error paths and readers of the counts take that lock).
 */
public final class DistinctErrorLog {

    /** How often a repeating error logs its summary line at most, by default. */
    public static final Duration DEFAULT_SUMMARY_INTERVAL = Duration.ofSeconds(60);

    /**
     * Distinct errors kept with their own message. A message often carries a value (a connection, a
     * number), so beyond this many a new error is kept by its class and top frame only: the log stays
     * bounded however many values a long-running agent meets.
     */
    static final int MAX_DISTINCT_MESSAGES = 256;

    private static final Logger LOG = LoggerFactory.getLogger(DistinctErrorLog.class);

    private final String ownerName;
    private final LongSupplier epochMillisClock;
    private final long summaryIntervalMillis;
    private final Map<ErrorKey, Tally> tallies = new LinkedHashMap<>();
    private long totalCount;

    /** @param ownerName who records here (an agent's role, a module), as log lines name it */
    public DistinctErrorLog(final String ownerName) {
        this(ownerName, System::currentTimeMillis, DEFAULT_SUMMARY_INTERVAL);
    }

    /**
     * @param ownerName        who records here, as log lines name it
     * @param epochMillisClock wall-clock time in epoch milliseconds, for the first and last time of each error
     * @param summaryInterval  the shortest time between two summary lines of one distinct error
     */
    public DistinctErrorLog(final String ownerName, final LongSupplier epochMillisClock, final Duration summaryInterval) {
        this.ownerName = ownerName;
        this.epochMillisClock = epochMillisClock;
        this.summaryIntervalMillis = summaryInterval.toMillis();
    }

    /**
     * Records one occurrence.
     *
     * @param error what was thrown
     * @return what the log did with it: logged in full (first occurrence), only counted, or counted and summarised
     */
    public Recorded record(final Throwable error) {
        final ErrorKey exact = ErrorKey.of(error);
        final long nowMillis = epochMillisClock.getAsLong();
        final ErrorKey key;
        final Tally tally;
        final boolean first;
        final boolean summarise;
        synchronized (this) {
            totalCount++;
            key = tallies.containsKey(exact) || tallies.size() < MAX_DISTINCT_MESSAGES ? exact : exact.withoutMessage();
            final Tally known = tallies.get(key);
            first = known == null;
            tally = first ? new Tally(nowMillis) : known;
            if (first) {
                tallies.put(key, tally);
            }
            tally.count++;
            tally.lastMillis = nowMillis;
            summarise = !first && nowMillis - tally.lastSummaryMillis >= summaryIntervalMillis;
            if (summarise) {
                tally.lastSummaryMillis = nowMillis;
            }
        }
        if (first) {
            LOG.error("{}: {} (first occurrence; repeats are counted)", ownerName, key, error);
            return Recorded.FIRST_LOGGED;
        }
        if (summarise) {
            final ErrorCount count = tally.snapshot(key);
            LOG.warn("{}: {} occurred {} times, first at {}, last at {}", ownerName, key, count.count(),
                    count.firstEpochMillis(), count.lastEpochMillis());
            return Recorded.SUMMARISED;
        }
        return Recorded.COUNTED;
    }

    /** What {@link #record} did with one occurrence. */
    public enum Recorded {
        /** The first occurrence of its distinct error: logged at ERROR with its stack trace. */
        FIRST_LOGGED,
        /** A repeat: only counted. */
        COUNTED,
        /** A repeat a summary interval after the last line of its error: counted and summarised at WARN. */
        SUMMARISED
    }

    /** @return every occurrence recorded so far */
    public synchronized long totalCount() {
        return totalCount;
    }

    /** @return how many distinct errors were recorded so far */
    public synchronized int distinctCount() {
        return tallies.size();
    }

    /** @return one immutable count per distinct error, in the order of their first occurrence */
    public synchronized List<ErrorCount> snapshot() {
        final List<ErrorCount> counts = new ArrayList<>(tallies.size());
        tallies.forEach((key, tally) -> counts.add(tally.snapshot(key)));
        return List.copyOf(counts);
    }

    /**
     * @param key a distinct error
     * @return how often it occurred so far; 0 when never
     */
    public synchronized long count(final ErrorKey key) {
        final Tally tally = tallies.get(key);
        return tally == null ? 0 : tally.count;
    }

    /** Mutable count of one distinct error; guarded by the log's lock. */
    private static final class Tally {
        private final long firstMillis;
        private long lastMillis;
        private long lastSummaryMillis;
        private long count;

        Tally(final long firstMillis) {
            this.firstMillis = firstMillis;
            this.lastSummaryMillis = firstMillis;
        }

        ErrorCount snapshot(final ErrorKey key) {
            return new ErrorCount(key, count, firstMillis, lastMillis);
        }
    }
}
