package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * The recent probe windows of one connection in one loaded port state (a band, or SATURATED): what the
 * path's queue does now, as the connection's own round trips saw it. On a loaded port the queue, not the
 * workstations, decides the latency, and how much it queues depends on the cross-traffic's burstiness as
 * much as on the utilisation — so a cell measured beforehand under other traffic can be far off, while the
 * probes describe the port the application shares. CPU states are pooled within the band.
 *
 * <p>Kept: the newest windows up to {@value #MAX_ROUND_TRIPS} round trips (the oldest window goes once the
 * rest hold that many), none older than {@value #MAX_AGE_MILLIS} ms before the newest. Read as a
 * {@link Measurement} once they hold {@value #MIN_ROUND_TRIPS} round trips: the windows' histograms merged
 * exactly (on the union of their bin edges), the exact mean from the windows' exact means, and the
 * windows' means as batch means — consecutive windows of one train schedule, nearly equal in size — so
 * that a mean's interval allows for round trips correlated in time.
 *
 * <p>Times are passed in: {@code atNanos} monotonic (to take back windows a late-seen state change
 * spoiled), {@code epochMillis} wall clock (ages, display). Immutable and thread-safe.
 *
 * @param windows the windows kept, oldest first
 */
public record BandProbes(List<Window> windows) {

    /** Round trips before the windows are served as an estimate of the band (ten seconds at the default probe rate). */
    public static final long MIN_ROUND_TRIPS = 100;
    /** Round trips kept: the newest windows that hold this many. */
    public static final long MAX_ROUND_TRIPS = 1_000;
    /** The oldest window kept, ms before the newest: a queue's cross-traffic changes within minutes. */
    public static final long MAX_AGE_MILLIS = 300_000;

    /** Nothing probed yet. */
    public static final BandProbes EMPTY = new BandProbes(List.of());

    /**
     * One probe window.
     *
     * @param histogram   its round trips, ns (not empty)
     * @param meanMillis  their exact mean, ms, {@code > 0}
     * @param atNanos     when it was accepted, monotonic ns
     * @param epochMillis when it was accepted, wall clock ms
     */
    public record Window(LatencyHistogram histogram, double meanMillis, long atNanos, long epochMillis) {

        /** @throws IllegalArgumentException on an empty histogram or a mean that is not a positive number */
        public Window {
            if (histogram == null || histogram.totalCount() < 1) {
                throw new IllegalArgumentException("a probe window needs at least one round trip");
            }
            if (!(meanMillis > 0) || Double.isInfinite(meanMillis)) {
                throw new IllegalArgumentException("a probe window's mean must be finite and > 0 ms, was " + meanMillis);
            }
        }
    }

    /** @throws IllegalArgumentException when windows is null */
    public BandProbes {
        if (windows == null) {
            throw new IllegalArgumentException("windows must not be null");
        }
        windows = List.copyOf(windows);
    }

    /**
     * @param window a window probed wholly in this band
     * @return the probes with it, the oldest windows dropped as the class describes
     */
    public BandProbes add(final Window window) {
        final List<Window> kept = new ArrayList<>(windows.size() + 1);
        kept.addAll(windows);
        kept.add(window);
        long total = 0;
        for (final Window each : kept) {
            total += each.histogram().totalCount();
        }
        int first = 0;
        while (first < kept.size() - 1 && (total - kept.get(first).histogram().totalCount() >= MAX_ROUND_TRIPS
            || window.epochMillis() - kept.get(first).epochMillis() > MAX_AGE_MILLIS)) {
            total -= kept.get(first).histogram().totalCount();
            first++;
        }
        return new BandProbes(kept.subList(first, kept.size()));
    }

    /**
     * @param sinceNanos monotonic ns
     * @return the probes without the windows accepted after {@code sinceNanos}: a change of state seen late
     *         (counters lag the load) may have begun before them
     */
    public BandProbes withoutWindowsAfter(final long sinceNanos) {
        final List<Window> kept = new ArrayList<>(windows.size());
        for (final Window window : windows) {
            if (window.atNanos() - sinceNanos <= 0) {
                kept.add(window);
            }
        }
        return kept.size() == windows.size() ? this : new BandProbes(kept);
    }

    /**
     * @param nowEpochMillis wall clock ms
     * @return the windows still young enough to describe the band now
     */
    private List<Window> current(final long nowEpochMillis) {
        final List<Window> young = new ArrayList<>(windows.size());
        for (final Window window : windows) {
            if (nowEpochMillis - window.epochMillis() <= MAX_AGE_MILLIS) {
                young.add(window);
            }
        }
        return young;
    }

    /**
     * @param nowEpochMillis wall clock ms
     * @return round trips in the windows young enough to serve
     */
    public long roundTrips(final long nowEpochMillis) {
        long total = 0;
        for (final Window window : current(nowEpochMillis)) {
            total += window.histogram().totalCount();
        }
        return total;
    }

    /**
     * @param nowEpochMillis wall clock ms
     * @return when the oldest window young enough to serve was accepted, epoch ms; 0 when none is
     */
    public long firstEpochMillis(final long nowEpochMillis) {
        final List<Window> young = current(nowEpochMillis);
        return young.isEmpty() ? 0 : young.get(0).epochMillis();
    }

    /**
     * @param nowEpochMillis wall clock ms
     * @return when the newest window was accepted, epoch ms; 0 when none is young enough to serve
     */
    public long lastEpochMillis(final long nowEpochMillis) {
        final List<Window> young = current(nowEpochMillis);
        return young.isEmpty() ? 0 : young.get(young.size() - 1).epochMillis();
    }

    /**
     * @param nowEpochMillis wall clock ms
     * @return the young windows as one measurement, or null below {@value #MIN_ROUND_TRIPS} round trips
     */
    public Measurement measurement(final long nowEpochMillis) {
        final List<Window> young = current(nowEpochMillis);
        final TreeMap<Long, Long> countsByEdge = new TreeMap<>();
        long overflow = 0;
        long total = 0;
        double sumMillis = 0;
        double sumSquaresMillis = 0;
        double maxMillis = 0;
        final List<Double> batchMeans = new ArrayList<>(young.size());
        for (final Window window : young) {
            final LatencyHistogram histogram = window.histogram();
            for (int bin = 0; bin < histogram.binCount(); bin++) {
                final long inBin = histogram.count(bin);
                if (inBin == 0) {
                    continue;
                }
                final long upper = histogram.upperEdgeNanos(bin);
                countsByEdge.merge(upper, inBin, Long::sum);
                // A probe window is an export of HdrHistogram's non-empty buckets: a bin's upper edge is the
                // bucket's value, its lower edge only the previous non-empty bucket's.
                sumSquaresMillis += inBin * (upper / 1e6) * (upper / 1e6);
                maxMillis = Math.max(maxMillis, upper / 1e6);
            }
            overflow += histogram.overflowCount();
            if (histogram.overflowCount() > 0) {
                maxMillis = Math.max(maxMillis, histogram.lastEdgeNanos() / 1e6);
            }
            total += histogram.totalCount();
            sumMillis += window.meanMillis() * histogram.totalCount();
            batchMeans.add(window.meanMillis());
        }
        if (total < MIN_ROUND_TRIPS || countsByEdge.isEmpty()) {
            return null;
        }
        final long[] edges = new long[countsByEdge.size()];
        final long[] counts = new long[countsByEdge.size()];
        int index = 0;
        for (final Map.Entry<Long, Long> entry : countsByEdge.entrySet()) {
            edges[index] = entry.getKey();
            counts[index] = entry.getValue();
            index++;
        }
        final double meanMillis = sumMillis / total;
        for (final double batchMean : batchMeans) {
            maxMillis = Math.max(maxMillis, batchMean);
        }
        maxMillis = Math.max(maxMillis, meanMillis);
        final double variance = total > 1 ? Math.max(0, (sumSquaresMillis - total * meanMillis * meanMillis) / (total - 1)) : 0;
        return new Measurement(LatencyHistogram.of(edges, counts, overflow), total, meanMillis, Math.sqrt(variance), maxMillis,
            batchMeans.size() >= 2 ? batchMeans : List.of());
    }
}
