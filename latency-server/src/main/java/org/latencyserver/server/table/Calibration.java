package org.latencyserver.server.table;

/**
 * How well the estimates served before each new measurement held (BRIEF §6.5): every measurement
 * of a connection also tests the estimate that was being served when it started.
 *
 * <p>Immutable and thread-safe; {@link #record} returns a new value.
 *
 * @param measurementsChecked measurements that tested a served estimate
 * @param boundChecks         of those, tests of a served bound
 * @param boundHeld           bound tests where the measured share at or below the served bound
 *                            reached the configured percentage
 * @param averageChecks       tests of a served mean
 * @param sumAbsErrorMillis   Σ |served mean − measured mean|, ms
 * @param sumSignedErrorMillis Σ (served mean − measured mean), ms
 * @param lastErrorMillis     the last (served − measured), ms (bounds: served bound − measured bound)
 */
public record Calibration(long measurementsChecked, long boundChecks, long boundHeld, long averageChecks,
                          double sumAbsErrorMillis, double sumSignedErrorMillis, double lastErrorMillis) {

    /** Nothing checked yet. */
    public static final Calibration NONE = new Calibration(0, 0, 0, 0, 0, 0, 0);

    /**
     * @param servedAverageMillis   the mean served before, or NaN when a bound was served
     * @param measuredAverageMillis the new measurement's mean
     * @param servedBoundMillis     the bound served before, or NaN when a mean was served
     * @param measuredBoundMillis   the new measurement's bound at the same percentage
     * @param boundHeld             whether the served bound held its share in the new measurement
     * @return the updated record
     */
    public Calibration record(final double servedAverageMillis, final double measuredAverageMillis,
                              final double servedBoundMillis, final double measuredBoundMillis, final boolean boundHeld) {
        if (!Double.isNaN(servedBoundMillis)) {
            return new Calibration(measurementsChecked + 1, boundChecks + 1, this.boundHeld + (boundHeld ? 1 : 0),
                averageChecks, sumAbsErrorMillis, sumSignedErrorMillis, servedBoundMillis - measuredBoundMillis);
        }
        final double error = servedAverageMillis - measuredAverageMillis;
        return new Calibration(measurementsChecked + 1, boundChecks, this.boundHeld, averageChecks + 1,
            sumAbsErrorMillis + Math.abs(error), sumSignedErrorMillis + error, error);
    }

    /** @return share of bound tests that held, 0..1; 0 when none */
    public double boundHeldFraction() {
        return boundChecks == 0 ? 0.0 : (double) boundHeld / boundChecks;
    }

    /** @return mean |served − measured| of the means, ms; 0 when none */
    public double meanAbsErrorMillis() {
        return averageChecks == 0 ? 0.0 : sumAbsErrorMillis / averageChecks;
    }

    /** @return mean (served − measured) of the means, ms; 0 when none */
    public double meanSignedErrorMillis() {
        return averageChecks == 0 ? 0.0 : sumSignedErrorMillis / averageChecks;
    }
}
