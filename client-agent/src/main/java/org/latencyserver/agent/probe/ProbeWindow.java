package org.latencyserver.agent.probe;

import org.HdrHistogram.Histogram;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.ProbeReport;

/**
 * The round trips of one connection in the current report window: an HdrHistogram of round-trip
 * times in ns (1 ns to 60 s, three significant digits, as the measurements' histograms) and the
 * exact sum for the mean. A window is reported once and then reset, so reports are deltas.
 *
 * <p>{@link #record} allocates nothing: the histogram is sized up front and never resizes. Not
 * thread-safe: the prober thread owns it.
 */
final class ProbeWindow {

    /** Longest round trip kept exactly, ns; a slower one is recorded as this (its exact time still enters the mean). */
    static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    private final Histogram histogramNanos = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
    private long roundTrips;
    private long sumNanos;
    private long startNanos;

    /** @param startNanos when the window opens, {@link System#nanoTime()} */
    ProbeWindow(final long startNanos) {
        this.startNanos = startNanos;
    }

    /** @param rttNanos one round trip's time, ns */
    void record(final long rttNanos) {
        final long clampedNanos = Math.max(1L, rttNanos);
        histogramNanos.recordValue(Math.min(clampedNanos, HIGHEST_TRACKABLE_NANOS));
        sumNanos += clampedNanos;
        roundTrips++;
    }

    /** @return the round trips recorded since the window opened */
    long roundTrips() {
        return roundTrips;
    }

    /**
     * @param target    the connection
     * @param agentName who probed
     * @param endNanos  when the window closes, {@link System#nanoTime()}
     * @param shape     the shape its round trips were sent in
     * @return the window as a report; needs at least one round trip
     * @throws IllegalStateException when the window is empty
     */
    ProbeReport toReport(final ProbeTarget target, final String agentName, final long endNanos, final TrafficShape shape) {
        if (roundTrips == 0) {
            throw new IllegalStateException("an empty probe window is not reported");
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(histogramNanos);
        final HistogramBins bins = new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount());
        final double meanMillis = (double) sumNanos / roundTrips / 1e6;
        final long windowMillis = Math.round((endNanos - startNanos) / 1e6);
        return new ProbeReport(target.indexRef(), target.clientNode(), agentName, bins, roundTrips, meanMillis, windowMillis,
            new org.latencyserver.idl.latency.TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis(),
                (short) shape.call().wireCode()));
    }

    /** @return when the window opened, {@link System#nanoTime()} */
    long startNanos() {
        return startNanos;
    }

    /** @return the mean round trip of the window, ms; NaN when empty (for the log) */
    double meanMillis() {
        return roundTrips == 0 ? Double.NaN : (double) sumNanos / roundTrips / 1e6;
    }

    /**
     * Empties the window and opens the next one.
     *
     * @param nextStartNanos when the next window opens, {@link System#nanoTime()}
     */
    void reset(final long nextStartNanos) {
        histogramNanos.reset();
        roundTrips = 0;
        sumNanos = 0;
        startNanos = nextStartNanos;
    }
}
