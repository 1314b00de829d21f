package org.latencyserver.server.engine;

import java.util.Optional;
import org.latencyserver.core.profile.ProfileLimits;

/**
 * How large and how far from what is known a client's input may be: the configuration's
 * {@code limits:} section. Results ({@code submit_measurement}, {@code UpdateResponse}) and probe
 * reports are checked by {@link ResultPlausibility}; histograms wherever they come in (results,
 * probes, profiles, the state file); profiles by their size before they are parsed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxResultMillis    the largest mean or bound a result or probe may report, ms, {@code >= 1}
 * @param plausibilityFactor how many times larger or smaller than the connection's last accepted result
 *                           in its load state (else its profile's estimate there) a result may be, {@code > 1}
 * @param maxHistogramBins   the most bins a histogram may have (and values a result's batch means), {@code >= 1}
 * @param maxProfileBytes    the largest profile text, UTF-8 bytes, {@code >= 1}
 * @param maxSubscriptionsPerCaller the most subscriptions (of both kinds together) one caller may hold, {@code >= 1}
 */
public record InputLimits(long maxResultMillis, double plausibilityFactor, int maxHistogramBins, long maxProfileBytes,
                          int maxSubscriptionsPerCaller) {

    /** The largest result by default: 60 s, twice the default measurement time-out. */
    public static final long DEFAULT_MAX_RESULT_MILLIS = 60_000;

    /**
     * The default factor. A genuine result must never be refused (a refused measurement leaves its
     * connection unmeasured, re-issued forever), so the factor allows for everything real: within one
     * load state a busy host is 10–50 times slower than an idle one (the CPU bands are wide: 67 % and
     * 100 % are both HIGH), and a profile measured on other hardware or another stack differs by as much
     * again (the thesis's TAC-4 CORBA cells are 4–19 times this machine's JacORB loopback cells, and a
     * plain-socket path is faster still). 1000 stays above both together with room to spare; what it
     * bounds is forgery, which {@link #DEFAULT_MAX_RESULT_MILLIS} also caps absolutely.
     */
    public static final double DEFAULT_PLAUSIBILITY_FACTOR = 1000;

    /**
     * The most subscriptions one caller holds by default. A mirror, a console or an agent holds one
     * (for a moment two, while it subscribes again after losing the server); a process that hosts
     * several of them over one connection, or a fleet that shares one certificate, a few more. 64
     * leaves room for those and keeps one caller from taking more than a sixteenth of the server's
     * 1000 places of a kind.
     */
    public static final int DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER = 64;

    /**
     * The defaults: 60 s, 1000 ×, the profile defaults of {@link ProfileLimits#DEFAULT} (20,000 bins, 64 MiB) and
     * {@value #DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER} subscriptions per caller.
     */
    public static final InputLimits DEFAULT = new InputLimits(DEFAULT_MAX_RESULT_MILLIS, DEFAULT_PLAUSIBILITY_FACTOR,
        ProfileLimits.DEFAULT.maxHistogramBins(), ProfileLimits.DEFAULT.maxBytes());

    /**
     * @throws IllegalArgumentException naming the value out of range
     */
    public InputLimits {
        if (maxResultMillis < 1 || !(plausibilityFactor > 1) || Double.isInfinite(plausibilityFactor) || maxHistogramBins < 1
            || maxProfileBytes < 1 || maxSubscriptionsPerCaller < 1) {
            throw new IllegalArgumentException("bad input limits: max result " + maxResultMillis + " ms, factor "
                + plausibilityFactor + ", " + maxHistogramBins + " bins, " + maxProfileBytes + " profile bytes, "
                + maxSubscriptionsPerCaller + " subscriptions per caller");
        }
    }

    /**
     * Limits with the default {@value #DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER} subscriptions per caller.
     *
     * @throws IllegalArgumentException naming the value out of range
     */
    public InputLimits(final long maxResultMillis, final double plausibilityFactor, final int maxHistogramBins,
                       final long maxProfileBytes) {
        this(maxResultMillis, plausibilityFactor, maxHistogramBins, maxProfileBytes, DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER);
    }

    /** @return the limits a profile is read within */
    public ProfileLimits profileLimits() {
        return new ProfileLimits(maxProfileBytes, maxHistogramBins);
    }

    /**
     * @param what   what holds the values, e.g. {@code "histogram"}, {@code "batch_means_ms"}
     * @param count  how many bins (or values) it has
     * @param values what it counts: {@code "bins"}, {@code "values"}
     * @return a {@link Refusal.Kind#TOO_LARGE} refusal naming the count and the limit; empty when within
     *         {@link #maxHistogramBins}
     */
    public Optional<Refusal> tooMany(final String what, final long count, final String values) {
        if (count <= maxHistogramBins) {
            return Optional.empty();
        }
        final String limit = maxHistogramBins + " (limits.max_histogram_bins)";
        return Optional.of(Refusal.of(Refusal.Kind.TOO_LARGE, what, count, limit,
            what + " has " + count + " " + values + ", more than the limit of " + limit));
    }
}
