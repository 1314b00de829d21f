package org.latencyserver.benchmarks.calibration;

import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.inBand;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.misses;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.percentiles;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.quantile;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.reference;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.roundTrip;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.trueQuantile;

import java.util.Locale;
import java.util.Random;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;

/**
 * The adaptive level's update, old rule and new side by side, on a replay shaped like a run on the two-switch testbed:
 * the four loading patterns (idle, hop 1, hop 2, both) follow each other once, 150 s each, each with 1–9 blocks of
 * 8–50 round trips. Each pattern's reference histogram (1,000 round trips) is off from its round trips by a factor
 * drawn log-uniformly in [0.6, 2.5] by default (true over reference: above 1 the histogram is too low and early blocks miss a
 * lot; below 1 too high). Round trips are heavy-tailed: lognormal (σ 0.3) times, with probability 0.05, a Pareto
 * factor of index 1.5. A pattern's served α is its own level shrunk towards the pooled one as {@link BorrowedLevel}
 * does ({@code w = b / (b + 20)}); each level learns from the misses at the bound it itself would give.
 *
 * <p>Old rule: {@code α ← max(−0.2, α + γ min(n, 50)(α_target − k / n))}. New rule: {@link
 * AdaptiveQuantileLevel#observe(long, long, long)} (α floored at {@code −γ · 50 · α_target}, −0.01 here; young step {@code γ max(1, 4 / (b + 1))}).
 * No ratio rescale ({@code EstimateCorrection}): this isolates the level.
 *
 * <p>Reported per pattern over the seeds: served coverage (round trips at or below the served bound) and the
 * round-trip-weighted bound over the true p96, median and 10th/90th percentiles, and the share of seeds with coverage
 * in 96 ± 2 %. Then a long stationary run (one pattern, one reference off by a factor, many blocks): the long-run miss
 * rate of both rules.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.calibration.LevelUpdateSimulation [seeds] [stationary blocks] [lowest factor]
 * [highest factor]}.
 */
public final class LevelUpdateSimulation {

    private static final double BOUND_PERCENT = 96.0;
    private static final double TARGET = 1.0 - BOUND_PERCENT / 100.0;
    private static final String[] PATTERNS = {"idle", "hop 1", "hop 2", "both"};
    private static final double DEFAULT_MIN_FACTOR = 0.6;
    private static final double DEFAULT_MAX_FACTOR = 2.5;

    private LevelUpdateSimulation() {
    }

    /** One of the two updates: α after a block of {@code n} round trips with {@code k} misses, {@code b} blocks before. */
    private interface Rule {
        double next(double alpha, long n, long k, long b);
    }

    private static final AdaptiveQuantileLevel START = AdaptiveQuantileLevel.start(BOUND_PERCENT);

    private static final Rule OLD = (alpha, n, k, b) -> Math.max(-0.2, Math.min(START.maxMissFraction(),
        alpha + START.stepPerRoundTrip() * Math.min(n, START.maxBlockWeight()) * (TARGET - (double) k / n)));

    private static final Rule NEW = (alpha, n, k, b) ->
        new AdaptiveQuantileLevel(TARGET, alpha, START.stepPerRoundTrip(), START.maxBlockWeight()).observe(n, k, b).missFraction();

    /**
     * @param args seeds (default 400), blocks of the stationary run (default 20000), the range of the reference's
     *             factor (default 0.6 and 2.5)
     */
    public static void main(final String[] args) {
        final int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        final int stationaryBlocks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        final double minFactor = args.length > 2 ? Double.parseDouble(args[2]) : DEFAULT_MIN_FACTOR;
        final double maxFactor = args.length > 3 ? Double.parseDouble(args[3]) : DEFAULT_MAX_FACTOR;
        final double trueP96 = trueQuantile(TARGET);
        System.out.printf(Locale.ROOT, "seeds 1..%d, nominal %.0f %%, reference factor log-uniform in [%.1f, %.1f], true p96 %.3f%n%n",
            seeds, BOUND_PERCENT, minFactor, maxFactor, trueP96);
        System.out.println("| pattern | rule | coverage, median (10–90 %) | seeds in 96 ± 2 % | bound ÷ true p96, median (10–90 %) |");
        System.out.println("|---|---|---|---|---|");
        final double[][][] coverage = new double[2][PATTERNS.length][seeds];
        final double[][][] ratio = new double[2][PATTERNS.length][seeds];
        for (int r = 0; r < 2; r++) {
            for (int seed = 0; seed < seeds; seed++) {
                replay(r == 0 ? OLD : NEW, seed + 1, minFactor, maxFactor, trueP96, coverage[r], ratio[r], seed);
            }
        }
        for (int p = 0; p < PATTERNS.length; p++) {
            for (int r = 0; r < 2; r++) {
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %d %% | %s |%n", PATTERNS[p], r == 0 ? "old" : "new",
                    percentiles(coverage[r][p], 100.0, 1), inBand(coverage[r][p], TARGET), percentiles(ratio[r][p], 1.0, 2));
            }
        }
        System.out.println();
        System.out.println("| stationary run, " + stationaryBlocks + " blocks, reference factor | old: miss rate | new: miss rate |");
        System.out.println("|---|---|---|");
        for (final double factor : new double[] {0.8, 1.0, 1.25, 1.5, 2.0}) {
            System.out.printf(Locale.ROOT, "| %.2f | %.2f %% | %.2f %% |%n", factor, 100 * stationary(OLD, factor, stationaryBlocks),
                100 * stationary(NEW, factor, stationaryBlocks));
        }
    }

    /** One run's four patterns, into {@code coverage[pattern][slot]} and {@code ratio[pattern][slot]}. */
    private static void replay(final Rule rule, final long seed, final double minFactor, final double maxFactor,
                               final double trueP96, final double[][] coverage, final double[][] ratio, final int slot) {
        final Random random = new Random(seed);
        final double[][] reference = new double[PATTERNS.length][];
        for (int p = 0; p < PATTERNS.length; p++) {
            final double factor = Math.exp(Math.log(minFactor) + random.nextDouble() * Math.log(maxFactor / minFactor));
            reference[p] = reference(random, factor);
        }
        double pooled = TARGET;
        long pooledBlocks = 0;
        for (int p = 0; p < PATTERNS.length; p++) {
            double own = TARGET;
            final int blocks = 1 + random.nextInt(9);
            long roundTrips = 0;
            long hits = 0;
            double ratioSum = 0;
            for (int b = 0; b < blocks; b++) {
                final int n = 8 + random.nextInt(43);
                final double[] block = new double[n];
                for (int i = 0; i < n; i++) {
                    block[i] = roundTrip(random);
                }
                final double w = b / (b + BorrowedLevel.PRIOR_BLOCKS);
                final double served = w * own + (1 - w) * pooled;
                final double bound = quantile(reference[p], 1 - served);
                hits += n - misses(block, bound);
                roundTrips += n;
                ratioSum += n * bound / trueP96;
                final long ownMisses = misses(block, quantile(reference[p], 1 - own));
                final long pooledMisses = misses(block, quantile(reference[p], 1 - pooled));
                own = rule.next(own, n, ownMisses, b);
                pooled = rule.next(pooled, n, pooledMisses, pooledBlocks++);
            }
            coverage[p][slot] = (double) hits / roundTrips;
            ratio[p][slot] = ratioSum / roundTrips;
        }
    }

    /** @return the long-run share of round trips above the served bound, one reference off by {@code factor} */
    private static double stationary(final Rule rule, final double factor, final int blocks) {
        final Random random = new Random(7);
        final double[] reference = reference(random, factor);
        double alpha = TARGET;
        long roundTrips = 0;
        long misses = 0;
        for (int b = 0; b < blocks; b++) {
            final int n = 8 + random.nextInt(43);
            final double[] block = new double[n];
            for (int i = 0; i < n; i++) {
                block[i] = roundTrip(random);
            }
            final long k = misses(block, quantile(reference, 1 - alpha));
            alpha = rule.next(alpha, n, k, b);
            roundTrips += n;
            misses += k;
        }
        return (double) misses / roundTrips;
    }
}
