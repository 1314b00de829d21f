package org.latencyserver.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps a repeated warning from flooding the log: the first WARN or ERROR of each kind (logger
 * and message pattern) passes; the same kind again within the interval is counted, not written;
 * the first one after the interval passes with a line saying how many were held back. JacORB's
 * "Thread pool exhausted" (one line per refused request under load, ~25,000 a minute at 64
 * callers) is counted on its own for the metrics.
 *
 * <p>Thread-safe and lock-free: one {@link AtomicLong} window start and one {@link LongAdder} per kind.
 */
public final class RepeatedWarningFilter extends TurboFilter {

    /** How JacORB's POA says it refused a request for want of a thread. */
    static final String POOL_EXHAUSTED_PREFIX = "Thread pool exhausted";
    /** At most this many kinds are tracked; when full, the windows start afresh (bounded memory). */
    private static final int MAX_KINDS = 1_000;
    /**
     * What varies within one kind of message: numbers and object hashes (JacORB writes its
     * connections' hashes and ports into the text), so that a caller opening connection after
     * connection does not make every line a kind of its own.
     */
    private static final java.util.regex.Pattern VARYING = java.util.regex.Pattern.compile("@[0-9a-fA-F]+|[0-9]+");

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final LongAdder poolExhausted = new LongAdder();
    private final LongAdder suppressed = new LongAdder();

    /**
     * @param intervalMillis at most one line per kind per this interval
     * @param nanoTime       monotonic clock
     */
    public RepeatedWarningFilter(final long intervalMillis, final LongSupplier nanoTime) {
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.nanoTime = nanoTime;
    }

    /**
     * Installs the filter in logback's context (when logback is the SLF4J binding).
     *
     * @param intervalMillis at most one line per kind per this interval
     * @return the installed filter, or null when the binding is not logback
     */
    public static RepeatedWarningFilter install(final long intervalMillis) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext)) {
            return null;
        }
        final RepeatedWarningFilter filter = new RepeatedWarningFilter(intervalMillis, System::nanoTime);
        filter.setName("repeated-warnings");
        filter.start();
        ((LoggerContext) LoggerFactory.getILoggerFactory()).addTurboFilter(filter);
        return filter;
    }

    /**
     * Takes the filter out of logback's context again (a server launched in a JVM that goes on, such
     * as a test's, leaves no filter behind when it stops). Doing it twice does nothing.
     */
    public void uninstall() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getTurboFilterList().remove(this);
        }
        stop();
    }

    /** @return how often JacORB's POA reported its thread pool exhausted */
    public long poolExhausted() {
        return poolExhausted.sum();
    }

    /** @return warnings and errors held back so far */
    public long suppressed() {
        return suppressed.sum();
    }

    /** @return both counts, read now (any thread) */
    public LogWarningCounts counts() {
        return new LogWarningCounts(poolExhausted(), suppressed());
    }

    @Override
    public FilterReply decide(final Marker marker, final Logger logger, final Level level, final String format,
                              final Object[] params, final Throwable t) {
        if (level == null || !level.isGreaterOrEqual(Level.WARN) || format == null || !logger.isEnabledFor(level)) {
            return FilterReply.NEUTRAL;
        }
        final boolean exhausted = format.startsWith(POOL_EXHAUSTED_PREFIX);
        if (exhausted) {
            poolExhausted.increment();
        }
        final String key = logger.getName() + '|' + (exhausted ? POOL_EXHAUSTED_PREFIX : VARYING.matcher(format).replaceAll("#"));
        Window window = windows.get(key);
        if (window == null) {
            if (windows.size() >= MAX_KINDS) {
                windows.clear(); // rather a few repeated lines than an unbounded map or an unfiltered log
            }
            window = windows.computeIfAbsent(key, k -> new Window());
        }
        final long now = nanoTime.getAsLong();
        final long start = window.startNanos.get();
        if (start != Window.NEVER && now - start < intervalNanos) {
            window.held.increment();
            suppressed.increment();
            return FilterReply.DENY;
        }
        if (!window.startNanos.compareAndSet(start, now)) {
            window.held.increment();
            suppressed.increment();
            return FilterReply.DENY;
        }
        final long held = window.held.sumThenReset();
        if (held > 0) {
            // A different pattern, so this line is not itself held back.
            logger.log(marker, Logger.FQCN, Level.toLocationAwareLoggerInteger(level),
                "(the warning below occurred {} more times since it was last logged; counted, not logged)",
                new Object[] {held}, null);
        }
        return FilterReply.NEUTRAL;
    }

    private static final class Window {
        static final long NEVER = Long.MIN_VALUE;
        final AtomicLong startNanos = new AtomicLong(NEVER);
        final LongAdder held = new LongAdder();
    }
}
