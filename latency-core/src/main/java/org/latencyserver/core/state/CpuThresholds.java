package org.latencyserver.core.state;

/**
 * Where the CPU bands of thesis section 4.2.4 begin and end, and how wide the hysteresis band
 * around each boundary is.
 *
 * <p>The thesis gives integer bands, LOW 0–33 %, MEDIUM 34–66 %, HIGH 67–100 %. For real-valued
 * utilisations (SNMP counter deltas are not integers) each boundary lies half way between the
 * two integers: LOW is {@code u < lowUpperPercent + 0.5}, MEDIUM is
 * {@code lowUpperPercent + 0.5 <= u < mediumUpperPercent + 0.5}, HIGH is
 * {@code u >= mediumUpperPercent + 0.5}. With the defaults: LOW below 33.5 %, MEDIUM from 33.5 %
 * to below 66.5 %, HIGH from 66.5 %; so every integer input lands exactly where the thesis puts
 * it (33 LOW, 34 MEDIUM, 66 MEDIUM, 67 HIGH).
 *
 * <p>The hysteresis band is centred on each boundary: a state is only left once the utilisation
 * is more than half the band beyond the boundary (see {@link CpuStateClassifier}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param lowUpperPercent       highest integer percent still LOW (thesis: 33), {@code >= 0}
 * @param mediumUpperPercent    highest integer percent still MEDIUM (thesis: 66), above
 *                              {@code lowUpperPercent} and below 100
 * @param hysteresisBandPercent total width of the band around each boundary, percentage points,
 *                              {@code >= 0} and narrower than every CPU band; 0 turns hysteresis off
 */
public record CpuThresholds(double lowUpperPercent, double mediumUpperPercent, double hysteresisBandPercent) {

    /** The thesis's LOW upper limit, percent. */
    public static final double DEFAULT_LOW_UPPER_PERCENT = 33;
    /** The thesis's MEDIUM upper limit, percent. */
    public static final double DEFAULT_MEDIUM_UPPER_PERCENT = 66;
    /** The default hysteresis band, percentage points: small, yet wider than poll-to-poll jitter. */
    public static final double DEFAULT_HYSTERESIS_BAND_PERCENT = 2;

    /** The thesis's bands (33 / 66) with a 2-point hysteresis band. */
    public static final CpuThresholds DEFAULT = new CpuThresholds(DEFAULT_LOW_UPPER_PERCENT,
        DEFAULT_MEDIUM_UPPER_PERCENT, DEFAULT_HYSTERESIS_BAND_PERCENT);

    /**
     * @throws IllegalArgumentException naming the bad value when a limit is NaN, the limits are not
     *                                  ordered {@code 0 <= low < medium < 100}, or the band is
     *                                  negative, NaN, or not narrower than the narrowest CPU band
     */
    public CpuThresholds {
        if (!(lowUpperPercent >= 0 && lowUpperPercent < mediumUpperPercent && mediumUpperPercent < 100)) {
            throw new IllegalArgumentException("CPU thresholds must satisfy 0 <= low (" + lowUpperPercent
                + ") < medium (" + mediumUpperPercent + ") < 100");
        }
        // Band widths on the real line: LOW [0, low+0.5), MEDIUM [low+0.5, medium+0.5), HIGH [medium+0.5, 100].
        final double narrowest = Math.min(lowUpperPercent + 0.5,
            Math.min(mediumUpperPercent - lowUpperPercent, 99.5 - mediumUpperPercent));
        if (!(hysteresisBandPercent >= 0 && hysteresisBandPercent < narrowest)) {
            throw new IllegalArgumentException("CPU hysteresis band must be >= 0 and narrower than the narrowest CPU band ("
                + narrowest + " points), was " + hysteresisBandPercent);
        }
    }

    /** @return the LOW/MEDIUM boundary, percent: the lowest utilisation that is plainly MEDIUM */
    public double lowMediumBoundaryPercent() {
        return lowUpperPercent + 0.5;
    }

    /** @return the MEDIUM/HIGH boundary, percent: the lowest utilisation that is plainly HIGH */
    public double mediumHighBoundaryPercent() {
        return mediumUpperPercent + 0.5;
    }
}
