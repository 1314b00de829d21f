package org.latencyserver.benchmarks.calibration;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;

/**
 * Whether young combined load states should borrow from the states with the same loaded hops (their port pattern)
 * before the connection's pooled level: two hierarchies side by side on the same replay, shaped like a run on the
 * two-switch testbed.
 *
 * <p>The four loading patterns (idle, hop 1, hop 2, both) follow each other once. Each spans 3–6 combined states (its
 * CPU sub-states), each visited by 0–4 blocks (by default) of 8–50 round trips, the blocks of a pattern in random order (the CPU
 * states vary while the ports stay). Each state's reference histogram (1,000 round trips) is off from its round trips
 * by the pattern's factor, drawn log-uniformly in [0.6, 2.5], times the state's own, log-uniform in [0.9, 1.1]: the
 * states of one pattern are off alike. Round trips are heavy-tailed as in {@link LevelUpdateSimulation}.
 *
 * <ul>
 * <li><b>pooled</b> (the hierarchy before the port pattern): {@code α_state = w(n_s) α_own + (1 − w(n_s)) α_pooled}.</li>
 * <li><b>pattern</b>: {@code α_pattern = w(n_p) α_p + (1 − w(n_p)) α_pooled}, {@code α_state = w(n_s) α_own + (1 −
 *     w(n_s)) α_pattern}.</li>
 * </ul>
 * with {@code w(n) = n / (n + 20)} ({@link BorrowedLevel#weight}). Every level (own, pattern, pooled) learns by {@link
 * AdaptiveQuantileLevel#observe(long, long, long)} from the misses at the bound it itself would give, read from the
 * reference of the state the block is in.
 *
 * <p>Reported per pattern over the seeds: served coverage and the round-trip-weighted bound over the true p96, median
 * and 10th/90th percentiles, and the share of seeds with coverage in 96 ± 2 %.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.calibration.PortPatternSimulation [seeds] [lowest factor] [highest factor]
 * [state spread] [most blocks per state]}.
 */
public final class PortPatternSimulation {

    private static final double BOUND_PERCENT = 96.0;
    private static final double TARGET = 1.0 - BOUND_PERCENT / 100.0;
    private static final String[] PATTERNS = {"idle", "hop 1", "hop 2", "both"};
    private static final int REFERENCE_ROUND_TRIPS = 1000;
    private static final AdaptiveQuantileLevel START = AdaptiveQuantileLevel.start(BOUND_PERCENT);
    private static final String[] HIERARCHIES = {"pooled", "pattern"};

    private PortPatternSimulation() {
    }

    /**
     * @param args seeds (default 400), the range of a pattern's reference factor (default 0.6 and 2.5), the
     *             spread of a state's own factor within its pattern (default 1.1: log-uniform in [1/1.1, 1.1]), the
     *             most blocks a state is visited by (default 4)
     */
    public static void main(final String[] args) {
        final int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        final double minFactor = args.length > 1 ? Double.parseDouble(args[1]) : 0.6;
        final double maxFactor = args.length > 2 ? Double.parseDouble(args[2]) : 2.5;
        final double stateSpread = args.length > 3 ? Double.parseDouble(args[3]) : 1.1;
        final int maxBlocks = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        final double trueP96 = trueQuantile(TARGET);
        System.out.printf(Locale.ROOT, "seeds 1..%d, nominal %.0f %%, pattern factor log-uniform in [%.1f, %.1f], "
            + "state factor in [1/%.2f, %.2f], 0–%d blocks per state, true p96 %.3f%n%n", seeds, BOUND_PERCENT, minFactor,
            maxFactor, stateSpread, stateSpread, maxBlocks, trueP96);
        System.out.println("| pattern | borrows from | coverage, median (10–90 %) | seeds in 96 ± 2 % "
            + "| bound ÷ true p96, median (10–90 %) |");
        System.out.println("|---|---|---|---|---|");
        final double[][][] coverage = new double[2][PATTERNS.length][seeds];
        final double[][][] ratio = new double[2][PATTERNS.length][seeds];
        for (int h = 0; h < 2; h++) {
            for (int seed = 0; seed < seeds; seed++) {
                replay(h == 1, seed + 1, minFactor, maxFactor, stateSpread, maxBlocks, trueP96, coverage[h], ratio[h], seed);
            }
        }
        for (int p = 0; p < PATTERNS.length; p++) {
            for (int h = 0; h < 2; h++) {
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %d %% | %s |%n", PATTERNS[p], HIERARCHIES[h],
                    percentiles(coverage[h][p], 100.0, 1), inBand(coverage[h][p]), percentiles(ratio[h][p], 1.0, 2));
            }
        }
    }

    /** A block's place: the state (index within its pattern) it falls in. */
    private record Visit(int state) {
    }

    /**
     * One run's four patterns, into {@code coverage[pattern][slot]} and {@code ratio[pattern][slot]}. The same seed
     * draws the same references, blocks and round trips for both hierarchies.
     */
    private static void replay(final boolean byPattern, final long seed, final double minFactor, final double maxFactor,
                               final double stateSpread, final int maxBlocks, final double trueP96, final double[][] coverage,
                               final double[][] ratio, final int slot) {
        final Random random = new Random(seed);
        double pooled = TARGET;
        long pooledBlocks = 0;
        for (int p = 0; p < PATTERNS.length; p++) {
            final double patternFactor = logUniform(random, minFactor, maxFactor);
            final int states = 3 + random.nextInt(4);
            final double[][] reference = new double[states][];
            final List<Visit> visits = new ArrayList<>();
            for (int s = 0; s < states; s++) {
                reference[s] = reference(random, patternFactor * logUniform(random, 1 / stateSpread, stateSpread));
                final int blocks = random.nextInt(maxBlocks + 1);
                for (int b = 0; b < blocks; b++) {
                    visits.add(new Visit(s));
                }
            }
            if (visits.isEmpty()) {
                visits.add(new Visit(0));
            }
            Collections.shuffle(visits, random);
            final double[] own = new double[states];
            Arrays.fill(own, TARGET);
            final long[] ownBlocks = new long[states];
            double pattern = TARGET;
            long patternBlocks = 0;
            long roundTrips = 0;
            long hits = 0;
            double ratioSum = 0;
            for (final Visit visit : visits) {
                final int s = visit.state();
                final int n = 8 + random.nextInt(43);
                final double[] block = new double[n];
                for (int i = 0; i < n; i++) {
                    block[i] = roundTrip(random);
                }
                final double prior = byPattern
                    ? BorrowedLevel.weight(patternBlocks) * pattern + (1 - BorrowedLevel.weight(patternBlocks)) * pooled
                    : pooled;
                final double served = BorrowedLevel.weight(ownBlocks[s]) * own[s] + (1 - BorrowedLevel.weight(ownBlocks[s])) * prior;
                final double bound = quantile(reference[s], 1 - served);
                hits += n - misses(block, bound);
                roundTrips += n;
                ratioSum += n * bound / trueP96;
                own[s] = next(own[s], n, misses(block, quantile(reference[s], 1 - own[s])), ownBlocks[s]++);
                pattern = next(pattern, n, misses(block, quantile(reference[s], 1 - pattern)), patternBlocks++);
                pooled = next(pooled, n, misses(block, quantile(reference[s], 1 - pooled)), pooledBlocks++);
            }
            coverage[p][slot] = (double) hits / roundTrips;
            ratio[p][slot] = ratioSum / roundTrips;
        }
    }

    private static double next(final double alpha, final long n, final long k, final long blocksBefore) {
        return new AdaptiveQuantileLevel(TARGET, alpha, START.stepPerRoundTrip(), START.maxBlockWeight())
            .observe(n, k, blocksBefore).missFraction();
    }

    private static double logUniform(final Random random, final double low, final double high) {
        return Math.exp(Math.log(low) + random.nextDouble() * Math.log(high / low));
    }

    private static double[] reference(final Random random, final double factor) {
        final double[] values = new double[REFERENCE_ROUND_TRIPS];
        for (int i = 0; i < values.length; i++) {
            values[i] = roundTrip(random) / factor;
        }
        Arrays.sort(values);
        return values;
    }

    /** @return a heavy-tailed round trip, in units of the body's median */
    private static double roundTrip(final Random random) {
        double x = Math.exp(0.3 * random.nextGaussian());
        if (random.nextDouble() < 0.05) {
            x *= Math.pow(1.0 - random.nextDouble(), -1.0 / 1.5);
        }
        return x;
    }

    private static double trueQuantile(final double missFraction) {
        final Random random = new Random(99);
        final double[] values = new double[400_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = roundTrip(random);
        }
        Arrays.sort(values);
        return quantile(values, 1 - missFraction);
    }

    /** @return the sorted values' quantile at {@code level} (a fraction), their top at or above 1 */
    private static double quantile(final double[] sorted, final double level) {
        if (level >= 1) {
            return sorted[sorted.length - 1];
        }
        final int index = (int) Math.ceil(level * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static long misses(final double[] block, final double bound) {
        long misses = 0;
        for (final double value : block) {
            if (value > bound) {
                misses++;
            }
        }
        return misses;
    }

    private static String percentiles(final double[] values, final double scale, final int decimals) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final String f = "%." + decimals + "f";
        return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", scale * sorted[sorted.length / 2],
            scale * sorted[sorted.length / 10], scale * sorted[sorted.length * 9 / 10]);
    }

    private static int inBand(final double[] coverage) {
        int in = 0;
        for (final double c : coverage) {
            if (Math.abs(c - (1 - TARGET)) <= 0.02 + 1e-12) {
                in++;
            }
        }
        return (int) Math.round(100.0 * in / coverage.length);
    }
}
