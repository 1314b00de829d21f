package org.latencyserver.core.state;

/**
 * Classifies a CPU utilisation into LOW / MEDIUM / HIGH, with hysteresis.
 *
 * <p>Without hysteresis a utilisation hovering at 33–34 % would flip the state at every poll, and
 * every flip of a QoS 3/4 connection asks for a measurement: a measurement storm. So a state is
 * only left once the utilisation is clear of the boundary by half the band: from LOW, MEDIUM needs
 * {@code u >= 33.5 + band/2}; from MEDIUM, LOW needs {@code u < 33.5 − band/2}. A clear jump
 * still changes the state at once, across two bands if need be (LOW at 80 % → HIGH). With no
 * current state (UNKNOWN) the plain bands apply. With the default thresholds (boundaries 33.5 and
 * 66.5 %, band 2 points): from LOW, MEDIUM needs {@code u >= 34.5}; from MEDIUM, LOW needs
 * {@code u < 32.5} and HIGH {@code u >= 67.5}; from HIGH, MEDIUM needs {@code u < 65.5}.
 *
 * <p>Immutable and thread-safe.
 */
public final class CpuStateClassifier {

    private final CpuThresholds thresholds;
    private final double halfBand;

    /**
     * @param thresholds the bands and the hysteresis band
     * @throws NullPointerException when {@code thresholds} is null
     */
    public CpuStateClassifier(final CpuThresholds thresholds) {
        if (thresholds == null) {
            throw new NullPointerException("CPU thresholds must not be null");
        }
        this.thresholds = thresholds;
        this.halfBand = thresholds.hysteresisBandPercent() / 2.0;
    }

    /** @return the thresholds in use */
    public CpuThresholds thresholds() {
        return thresholds;
    }

    /** @return a classifier with the thesis's bands and the default 2-point band */
    public static CpuStateClassifier withDefaults() {
        return new CpuStateClassifier(CpuThresholds.DEFAULT);
    }

    /**
     * @param utilisationPercent CPU utilisation, percent, 0..100
     * @return the band, without hysteresis
     * @throws IllegalArgumentException when the utilisation is NaN or outside 0..100
     */
    public CpuState classifyPlain(final double utilisationPercent) {
        requireUtilisation(utilisationPercent);
        if (utilisationPercent < thresholds.lowMediumBoundaryPercent()) {
            return CpuState.LOW;
        }
        return utilisationPercent < thresholds.mediumHighBoundaryPercent() ? CpuState.MEDIUM : CpuState.HIGH;
    }

    /**
     * @param utilisationPercent CPU utilisation, percent, 0..100
     * @param current            the state now (UNKNOWN or null when there is none)
     * @return the new state, which is {@code current} unless the utilisation is clear of the band
     * @throws IllegalArgumentException when the utilisation is NaN or outside 0..100
     */
    public CpuState classify(final double utilisationPercent, final CpuState current) {
        final CpuState plain = classifyPlain(utilisationPercent);
        if (current == null || !current.isKnown() || plain == current) {
            return plain;
        }
        if (plain.compareTo(current) > 0) {
            // Moving up: the highest state whose lower boundary is cleared by half the band.
            CpuState reached = current;
            for (CpuState candidate = next(current); candidate != null && candidate.compareTo(plain) <= 0; candidate = next(candidate)) {
                if (utilisationPercent >= lowerBoundary(candidate) + halfBand) {
                    reached = candidate;
                }
            }
            return reached;
        }
        // Moving down: the lowest state whose upper boundary is cleared by half the band.
        CpuState reached = current;
        for (CpuState candidate = previous(current); candidate != null && candidate.compareTo(plain) >= 0; candidate = previous(candidate)) {
            if (utilisationPercent < upperBoundary(candidate) - halfBand) {
                reached = candidate;
            }
        }
        return reached;
    }

    private double lowerBoundary(final CpuState state) {
        return state == CpuState.MEDIUM ? thresholds.lowMediumBoundaryPercent() : thresholds.mediumHighBoundaryPercent();
    }

    private double upperBoundary(final CpuState state) {
        return state == CpuState.LOW ? thresholds.lowMediumBoundaryPercent() : thresholds.mediumHighBoundaryPercent();
    }

    private static CpuState next(final CpuState state) {
        return state == CpuState.LOW ? CpuState.MEDIUM : state == CpuState.MEDIUM ? CpuState.HIGH : null;
    }

    private static CpuState previous(final CpuState state) {
        return state == CpuState.HIGH ? CpuState.MEDIUM : state == CpuState.MEDIUM ? CpuState.LOW : null;
    }

    private static void requireUtilisation(final double utilisationPercent) {
        if (!(utilisationPercent >= 0.0 && utilisationPercent <= 100.0)) {
            throw new IllegalArgumentException("CPU utilisation must be 0..100 %, was " + utilisationPercent);
        }
    }
}
