package org.latencyserver.benchmarks.calibration;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * The simulated round trips and tallies the level simulations share ({@link LevelUpdateSimulation},
 * {@link PortPatternSimulation}): heavy-tailed round trips (lognormal, σ 0.3, times a Pareto factor of index 1.5 with
 * probability 0.05; in units of the body's median), a reference of {@value #REFERENCE_ROUND_TRIPS} of them off by a
 * factor, the true quantile, a block's misses of a bound, and the reports' percentiles and in-band shares.
 *
 * <p>Stateless; each caller passes its own seeded {@link Random}.
 */
final class SimulatedRoundTrips {

    /** Round trips in a reference histogram. */
    static final int REFERENCE_ROUND_TRIPS = 1000;

    private SimulatedRoundTrips() {
    }

    static double[] reference(final Random random, final double factor) {
        final double[] values = new double[REFERENCE_ROUND_TRIPS];
        for (int i = 0; i < values.length; i++) {
            values[i] = roundTrip(random) / factor;
        }
        Arrays.sort(values);
        return values;
    }

    /** @return a heavy-tailed round trip, in units of the body's median */
    static double roundTrip(final Random random) {
        double x = Math.exp(0.3 * random.nextGaussian());
        if (random.nextDouble() < 0.05) {
            x *= Math.pow(1.0 - random.nextDouble(), -1.0 / 1.5);
        }
        return x;
    }

    static double trueQuantile(final double missFraction) {
        final Random random = new Random(99);
        final double[] values = new double[400_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = roundTrip(random);
        }
        Arrays.sort(values);
        return quantile(values, 1 - missFraction);
    }

    /** @return the sorted values' quantile at {@code level} (a fraction), their top at or above 1 */
    static double quantile(final double[] sorted, final double level) {
        if (level >= 1) {
            return sorted[sorted.length - 1];
        }
        final int index = (int) Math.ceil(level * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static long misses(final double[] block, final double bound) {
        long misses = 0;
        for (final double value : block) {
            if (value > bound) {
                misses++;
            }
        }
        return misses;
    }

    static String percentiles(final double[] values, final double scale, final int decimals) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final String f = "%." + decimals + "f";
        return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", scale * sorted[sorted.length / 2],
            scale * sorted[sorted.length / 10], scale * sorted[sorted.length * 9 / 10]);
    }

    static int inBand(final double[] coverage, final double targetMissFraction) {
        int in = 0;
        for (final double c : coverage) {
            if (Math.abs(c - (1 - targetMissFraction)) <= 0.02 + 1e-12) {
                in++;
            }
        }
        return (int) Math.round(100.0 * in / coverage.length);
    }
}
