package org.latencyserver.core.profile;

import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuStatePair;

/**
 * One measured configuration of a profile: round trips for one CPU state pair and one message
 * size.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpuStates        the CPU state pair, stored canonical (lower state first): a round trip
 *                         is symmetric, so (HIGH, LOW) reads the (LOW, HIGH) cell
 * @param messageSizeBytes {@code >= 1}
 * @param sampleCount      round trips measured, {@code >= 1}
 * @param meanMillis       mean round trip, ms, {@code > 0}
 * @param stdDevMillis     sample standard deviation, ms, {@code >= 0}; null when not published
 * @param maxMillis        longest round trip, ms, {@code >= meanMillis}
 * @param histogram        the distribution (its total equals {@code sampleCount}); null when not published
 */
public record ProfileCell(CpuStatePair cpuStates, int messageSizeBytes, long sampleCount, double meanMillis,
                          Double stdDevMillis, double maxMillis, LatencyHistogram histogram) {

    /**
     * @throws IllegalArgumentException when a value is out of range (the JSON reader reports the
     *                                  same faults with their location first)
     */
    public ProfileCell {
        if (cpuStates == null || !cpuStates.isKnown()) {
            throw new IllegalArgumentException("a cell needs two known CPU states, was " + cpuStates);
        }
        cpuStates = cpuStates.canonical();
        if (messageSizeBytes < 1 || sampleCount < 1 || !(meanMillis > 0) || !(maxMillis >= meanMillis)
            || !Double.isFinite(maxMillis) || (stdDevMillis != null && !(stdDevMillis >= 0 && Double.isFinite(stdDevMillis)))) {
            throw new IllegalArgumentException("cell " + cpuStates.thesisLabel() + " " + messageSizeBytes
                + " B out of range: n=" + sampleCount + " mean=" + meanMillis + " sd=" + stdDevMillis + " max=" + maxMillis);
        }
        if (histogram != null && histogram.totalCount() != sampleCount) {
            throw new IllegalArgumentException("cell " + cpuStates.thesisLabel() + " " + messageSizeBytes
                + " B: histogram holds " + histogram.totalCount() + " samples, n is " + sampleCount);
        }
    }

    /** @return true when the cell carries a latency histogram (needed for QoS 2) */
    public boolean hasHistogram() {
        return histogram != null;
    }

    /** @return e.g. {@code "0-33/67-100, 256 B"} */
    public String label() {
        return cpuStates.thesisLabel() + ", " + messageSizeBytes + " B";
    }
}
