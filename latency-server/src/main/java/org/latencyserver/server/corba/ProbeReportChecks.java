package org.latencyserver.server.corba;

import java.util.Locale;
import java.util.Optional;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.server.engine.Refusal;

/**
 * A probe report checked against itself and against limits, before the update thread sees it: its
 * {@code sample_count} is its histogram's, at most {@link #MAX_PROBE_ROUND_TRIPS}, and no more than its
 * window could hold; its {@code mean_ms} finite, {@code > 0} and inside what its histogram's bins allow;
 * its {@code window_millis} within {@code 0..}{@link #MAX_PROBE_WINDOW_MILLIS}.
 *
 * <p>The window's bound: a round trip in bin {@code i} took more than the bin's lower edge, so the
 * window's round trips took at least {@code Σ count_i × lowerEdge_i}; that must not exceed
 * {@code window_millis × }{@link #WINDOW_SLACK_FACTOR}{@code  + }{@link #WINDOW_SLACK_MILLIS}.
 *
 * <p>The mean's bound: it lies in {@code [Σ count_i × lowerEdge_i / n, Σ count_i × upperEdge_i / n]}
 * (no upper end when the overflow holds round trips), widened by {@link #MEAN_TOLERANCE} relative for
 * rounding (the agent sums exact round trips; the bins hold them rounded up).
 *
 * <p>Stateless and thread-safe.
 */
final class ProbeReportChecks {

    /** The longest probe window an agent may report, ms (an hour). */
    static final long MAX_PROBE_WINDOW_MILLIS = 3_600_000;
    /**
     * The most round trips one report may hold: an hour's window of round trips of 3.6 µs each, beyond any
     * CORBA round trip; it keeps every sum of reports' counts (calibration tallies, metrics) far from overflow.
     */
    static final long MAX_PROBE_ROUND_TRIPS = 1_000_000_000L;
    /** How much longer the round trips' least time may be than the reported window, as a factor: clock rate differences. */
    static final double WINDOW_SLACK_FACTOR = 1.1;
    /**
     * How much longer the round trips' least time may be than the reported window, ms: the window is rounded to
     * whole ms, a round trip in flight when it opened is counted in it, and test drivers report 0 or 1 ms windows
     * of a few hundred round trips. What the check bounds is a count far beyond anything a window could hold.
     */
    static final long WINDOW_SLACK_MILLIS = 10_000;
    /** The relative tolerance of the mean's bounds (rounding of the agent's exact sum against the bins' edges). */
    static final double MEAN_TOLERANCE = 1e-6;

    private ProbeReportChecks() {
    }

    /**
     * @param report     the submitted report
     * @param roundTrips its histogram, already built (within the bin limit, valid edges and counts)
     * @return the first refusal ({@link Refusal.Kind#BAD_VALUE}, or {@link Refusal.Kind#TOO_LARGE} for a count
     *         over {@link #MAX_PROBE_ROUND_TRIPS}), naming the field, its value and the limit; empty when it passes
     */
    static Optional<Refusal> check(final ProbeReport report, final LatencyHistogram roundTrips) {
        if (report.sample_count != roundTrips.totalCount() || report.sample_count < 0) {
            return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "sample_count", report.sample_count,
                "the histogram's " + roundTrips.totalCount(), "probe report says " + report.sample_count
                    + " round trips, its histogram holds " + roundTrips.totalCount()));
        }
        if (report.sample_count > MAX_PROBE_ROUND_TRIPS) {
            return Optional.of(Refusal.of(Refusal.Kind.TOO_LARGE, "sample_count", report.sample_count,
                String.valueOf(MAX_PROBE_ROUND_TRIPS), "probe report holds " + report.sample_count
                    + " round trips, more than the limit of " + MAX_PROBE_ROUND_TRIPS + " per report"));
        }
        if (report.window_millis < 0 || report.window_millis > MAX_PROBE_WINDOW_MILLIS) {
            return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "window_millis", report.window_millis,
                "0.." + MAX_PROBE_WINDOW_MILLIS + " ms", "probe window must be 0.." + MAX_PROBE_WINDOW_MILLIS + " ms, was "
                    + report.window_millis));
        }
        if (report.sample_count == 0) {
            return Optional.empty();
        }
        if (!(report.mean_ms > 0) || Double.isInfinite(report.mean_ms)) {
            return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "mean_ms", report.mean_ms, "finite and > 0 ms",
                "probe mean must be finite and > 0 ms, was " + report.mean_ms));
        }
        final double leastMillis = sumOfEdgesMillis(roundTrips, false);
        return fitsWindow(report, leastMillis).or(() -> meanInsideBins(report, roundTrips, leastMillis));
    }

    /** The round trips' least time must fit in the window (with the slack). */
    private static Optional<Refusal> fitsWindow(final ProbeReport report, final double leastMillis) {
        final double allowedMillis = report.window_millis * WINDOW_SLACK_FACTOR + WINDOW_SLACK_MILLIS;
        if (leastMillis <= allowedMillis) {
            return Optional.empty();
        }
        final String limit = "window_millis × " + WINDOW_SLACK_FACTOR + " + " + WINDOW_SLACK_MILLIS + " ms = "
            + millis(allowedMillis) + " ms";
        return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "sample_count", report.sample_count, limit,
            "probe report's " + report.sample_count + " round trips take at least " + millis(leastMillis)
                + " ms by their bins, more than its window of " + report.window_millis + " ms allows (" + limit + ")"));
    }

    /** The mean must lie between the bins' lower and upper edges, weighted by their counts. */
    private static Optional<Refusal> meanInsideBins(final ProbeReport report, final LatencyHistogram roundTrips,
                                                    final double leastMillis) {
        final double count = roundTrips.totalCount();
        final double lowestMeanMillis = leastMillis / count;
        final double highestMeanMillis = roundTrips.overflowCount() > 0 ? Double.POSITIVE_INFINITY
            : sumOfEdgesMillis(roundTrips, true) / count;
        if (report.mean_ms >= lowestMeanMillis * (1 - MEAN_TOLERANCE) && report.mean_ms <= highestMeanMillis * (1 + MEAN_TOLERANCE)) {
            return Optional.empty();
        }
        final String range = millis(lowestMeanMillis) + ".." + (Double.isInfinite(highestMeanMillis) ? "" : millis(highestMeanMillis))
            + " ms";
        return Optional.of(Refusal.of(Refusal.Kind.BAD_VALUE, "mean_ms", report.mean_ms, range + " (the histogram's bins)",
            "probe mean " + report.mean_ms + " ms lies outside what its histogram's bins allow, " + range));
    }

    /**
     * @param upper whether the bins' upper edges (else their lower ones)
     * @return {@code Σ count_i × edge_i} over the bins, ms (the overflow counted at the last edge); a double, so no
     *         product or sum overflows
     */
    private static double sumOfEdgesMillis(final LatencyHistogram roundTrips, final boolean upper) {
        double sumNanos = (double) roundTrips.overflowCount() * roundTrips.lastEdgeNanos();
        for (int bin = 0; bin < roundTrips.binCount(); bin++) {
            final long edgeNanos = upper ? roundTrips.upperEdgeNanos(bin) : roundTrips.lowerEdgeNanos(bin);
            sumNanos += (double) roundTrips.count(bin) * edgeNanos;
        }
        return sumNanos / 1e6;
    }

    private static String millis(final double value) {
        return String.format(Locale.ROOT, "%.6g", value);
    }
}
