package org.latencyserver.core.profile;

import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * One measured band of a loaded switch port in a profile: round trips of one message size while
 * the port between the two workstations was driven into that band of utilisation, with both
 * workstations' CPUs idle (LOW), so that the cell holds what the port's queue adds to an idle path.
 *
 * <p>A connection whose port state is loaded reads the cell whose band contains the state's
 * percent — with the server's loaded bands, the band's upper edge, the busiest point of the band.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lowestPercent    the band's lowest whole percent of utilisation, 91..100
 * @param highestPercent   its highest, {@code lowestPercent..100}
 * @param messageSizeBytes {@code >= 1}
 * @param sampleCount      round trips measured, {@code >= 1}
 * @param meanMillis       mean round trip, ms, {@code > 0}
 * @param stdDevMillis     sample standard deviation, ms, {@code >= 0}; null when not published
 * @param maxMillis        longest round trip, ms, {@code >= meanMillis}
 * @param histogram        the distribution (its total equals {@code sampleCount}); required: a
 *                         loaded port's bound needs it
 */
public record PortCell(int lowestPercent, int highestPercent, int messageSizeBytes, long sampleCount, double meanMillis,
                       Double stdDevMillis, double maxMillis, LatencyHistogram histogram) {

    /**
     * @throws IllegalArgumentException when a value is out of range (the JSON reader reports the
     *                                  same faults with their location first)
     */
    public PortCell {
        if (lowestPercent < 91 || highestPercent > 100 || highestPercent < lowestPercent) {
            throw new IllegalArgumentException("a port cell's band must lie within 91..100 %, lowest first, was "
                + lowestPercent + "–" + highestPercent + " %");
        }
        if (messageSizeBytes < 1 || sampleCount < 1 || !(meanMillis > 0) || !(maxMillis >= meanMillis)
            || !Double.isFinite(maxMillis) || (stdDevMillis != null && !(stdDevMillis >= 0 && Double.isFinite(stdDevMillis)))) {
            throw new IllegalArgumentException("port cell " + lowestPercent + "–" + highestPercent + " % " + messageSizeBytes
                + " B out of range: n=" + sampleCount + " mean=" + meanMillis + " sd=" + stdDevMillis + " max=" + maxMillis);
        }
        if (histogram == null || histogram.totalCount() != sampleCount) {
            throw new IllegalArgumentException("port cell " + lowestPercent + "–" + highestPercent + " % " + messageSizeBytes
                + " B needs a histogram of its n = " + sampleCount + " round trips");
        }
    }

    /**
     * @param portPercent a loaded port's percent, 91..100
     * @return true when the band holds it
     */
    public boolean covers(final int portPercent) {
        return portPercent >= lowestPercent && portPercent <= highestPercent;
    }

    /** @return e.g. {@code "port 96–98 %, 1024 B"} */
    public String label() {
        return "port " + (lowestPercent == highestPercent ? lowestPercent : lowestPercent + "–" + highestPercent) + " %, "
            + messageSizeBytes + " B";
    }
}
