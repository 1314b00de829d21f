package org.latencyserver.core.state;

/**
 * Where the CPU bands of thesis section 4.2.4 begin and end, and how wide the hysteresis band
 * around each boundary is.
 *
 * <p>The thesis gives integer bands, LOW 0–33 %, MEDIUM 34–66 %, HIGH 67–100 %. For real-valued
 * utilisations (SNMP counter deltas are not integers) the boundaries lie half way between:
 * LOW below {@code lowUpperPercent + 0.5}, HIGH from {@code mediumUpperPercent + 0.5}; so every
 * integer input lands exactly where the thesis puts it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lowUpperPercent         highest integer percent still LOW (thesis: 33)
 * @param mediumUpperPercent      highest integer percent still MEDIUM (thesis: 66)
 * @param hysteresisBandPercent   total width of the band around each boundary, in percentage
 *                                points, {@code >= 0}; 0 turns hysteresis off
 */
public record CpuThresholds(double lowUpperPercent, double mediumUpperPercent, double hysteresisBandPercent) {

    /** The thesis's bands with a 2-point hysteresis band. */
    public static final CpuThresholds DEFAULT = new CpuThresholds(33, 66, 2);

    /**
     * @throws IllegalArgumentException when the bands are not ordered within 0..100, or the band is
     *                                  negative or wider than the narrowest CPU band
     */
    public CpuThresholds {
        if (!(lowUpperPercent >= 0 && lowUpperPercent < mediumUpperPercent && mediumUpperPercent < 100)) {
            throw new IllegalArgumentException("CPU thresholds must satisfy 0 <= low (" + lowUpperPercent
                + ") < medium (" + mediumUpperPercent + ") < 100");
        }
        final double narrowest = Math.min(lowUpperPercent + 0.5, mediumUpperPercent - lowUpperPercent);
        if (!(hysteresisBandPercent >= 0 && hysteresisBandPercent < narrowest)) {
            throw new IllegalArgumentException("CPU hysteresis band must be >= 0 and narrower than the narrowest band ("
                + narrowest + " points), was " + hysteresisBandPercent);
        }
    }

    /** @return the LOW/MEDIUM boundary, percent */
    public double lowMediumBoundaryPercent() {
        return lowUpperPercent + 0.5;
    }

    /** @return the MEDIUM/HIGH boundary, percent */
    public double mediumHighBoundaryPercent() {
        return mediumUpperPercent + 0.5;
    }
}
