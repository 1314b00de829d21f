package org.latencyserver.benchmarks.calibration;

import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.inBand;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.misses;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.percentiles;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.quantile;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.reference;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.roundTrip;
import static org.latencyserver.benchmarks.calibration.SimulatedRoundTrips.trueQuantile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;

/**
 * Whether young combined load states on a two-switch path should borrow from their port pattern's level (the states
 * with the same kind of port state on every hop) on top of what the server borrows today: three hierarchies side by
 * side on the same replay, shaped like a run on the two-switch testbed.
 *
 * <p>The four loading patterns (idle, hop 1, hop 2, both) each span 3–6 CPU sub-states, each visited by 0–4 blocks (by
 * default) of 8–50 round trips; every loaded hop's utilisation is drawn per block from {95, 98, 100} %, and each
 * (CPU sub-state, percents) is a combined state of its own, as on the server (a loaded port's every percent is a state).
 * The blocks of all four patterns are interleaved in random order, as the testbed interleaves its loads. Each state's
 * reference histogram (1,000 round trips) is off from its round trips by the pattern's factor, drawn log-uniformly in
 * [0.6, 2.5], times the state's own, log-uniform in [1/1.1, 1.1]: the states of one pattern are off alike. Round trips
 * are heavy-tailed as in {@link LevelUpdateSimulation}.
 *
 * <ul>
 * <li><b>pooled</b>: {@code α_state = w(n_s) α_own + (1 − w(n_s)) α_pooled}.</li>
 * <li><b>same hops</b> (the server before the port pattern): on a loaded pattern, a state borrows the round-trip-weighted
 *     mean of the own levels of the other states with the same hops loaded that have been tested (the server's
 *     {@code PathLevelBorrowing.pooledForOwnRoundTrips}), the connection's pooled level until one has; idle borrows the
 *     pooled level.</li>
 * <li><b>pattern</b> (the server now): the same-hops prior shrunk towards the port pattern's own level, {@code
 *     α_prior = w(n_p) α_p + (1 − w(n_p)) α_same-hops}.</li>
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
 * [state spread] [most blocks per CPU sub-state]}.
 */
public final class PortPatternSimulation {

    private static final double BOUND_PERCENT = 96.0;
    private static final double TARGET = 1.0 - BOUND_PERCENT / 100.0;
    private static final String[] PATTERNS = {"idle", "hop 1", "hop 2", "both"};
    /** Loaded hops of each pattern. */
    private static final int[] LOADED_HOPS = {0, 1, 1, 2};
    private static final int[] PERCENTS = {95, 98, 100};
    private static final AdaptiveQuantileLevel START = AdaptiveQuantileLevel.start(BOUND_PERCENT);
    private static final String[] HIERARCHIES = {"pooled", "same hops (server before)", "pattern on top (server now)"};

    private PortPatternSimulation() {
    }

    /**
     * @param args seeds (default 400), the range of a pattern's reference factor (default 0.6 and 2.5), the
     *             spread of a state's own factor within its pattern (default 1.1: log-uniform in [1/1.1, 1.1]), the
     *             most blocks a CPU sub-state is visited by (default 4)
     */
    public static void main(final String[] args) {
        final int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        final double minFactor = args.length > 1 ? Double.parseDouble(args[1]) : 0.6;
        final double maxFactor = args.length > 2 ? Double.parseDouble(args[2]) : 2.5;
        final double stateSpread = args.length > 3 ? Double.parseDouble(args[3]) : 1.1;
        final int maxBlocks = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        final double trueP96 = trueQuantile(TARGET);
        System.out.printf(Locale.ROOT, "seeds 1..%d, nominal %.0f %%, pattern factor log-uniform in [%.1f, %.1f], "
            + "state factor in [1/%.2f, %.2f], 0–%d blocks per CPU sub-state, loaded hops at 95/98/100 %%, patterns"
            + " interleaved, true p96 %.3f%n%n", seeds, BOUND_PERCENT, minFactor, maxFactor, stateSpread, stateSpread,
            maxBlocks, trueP96);
        System.out.println("| pattern | borrows from | coverage, median (10–90 %) | seeds in 96 ± 2 % "
            + "| bound ÷ true p96, median (10–90 %) |");
        System.out.println("|---|---|---|---|---|");
        final int h3 = HIERARCHIES.length;
        final double[][][] coverage = new double[h3][PATTERNS.length][seeds];
        final double[][][] ratio = new double[h3][PATTERNS.length][seeds];
        final long[] states = new long[PATTERNS.length];
        final long[] blocks = new long[PATTERNS.length];
        for (int seed = 0; seed < seeds; seed++) {
            final Run run = draw(seed + 1, minFactor, maxFactor, stateSpread, maxBlocks);
            for (int p = 0; p < PATTERNS.length; p++) {
                states[p] += run.states[p];
            }
            for (final Block block : run.blocks) {
                blocks[block.pattern]++;
            }
            for (int h = 0; h < h3; h++) {
                replay(run, h, trueP96, coverage[h], ratio[h], seed);
            }
        }
        for (int p = 0; p < PATTERNS.length; p++) {
            for (int h = 0; h < h3; h++) {
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %d %% | %s |%n", PATTERNS[p], HIERARCHIES[h],
                    percentiles(coverage[h][p], 100.0, 1), inBand(coverage[h][p], TARGET), percentiles(ratio[h][p], 1.0, 2));
            }
        }
        System.out.println();
        for (int p = 0; p < PATTERNS.length; p++) {
            System.out.printf(Locale.ROOT, "%s: %.1f states visited, %.1f blocks per run (mean)%n", PATTERNS[p],
                (double) states[p] / seeds, (double) blocks[p] / seeds);
        }
    }

    /** A block of round trips in one combined state of one pattern. */
    private record Block(int pattern, int state, double[] roundTrips) {
    }

    /** One run's draws: each pattern's states' references and the interleaved blocks. */
    private record Run(double[][][] references, int[] states, List<Block> blocks) {
    }

    /** The same seed draws the same references, blocks and round trips for every hierarchy. */
    private static Run draw(final long seed, final double minFactor, final double maxFactor, final double stateSpread,
                            final int maxBlocks) {
        final Random random = new Random(seed);
        final double[][][] references = new double[PATTERNS.length][][];
        final int[] states = new int[PATTERNS.length];
        final List<Block> blocks = new ArrayList<>();
        for (int p = 0; p < PATTERNS.length; p++) {
            final double patternFactor = logUniform(random, minFactor, maxFactor);
            final int cpuStates = 3 + random.nextInt(4);
            final java.util.Map<String, Integer> stateOf = new java.util.HashMap<>();
            final List<double[]> reference = new ArrayList<>();
            final List<Block> mine = new ArrayList<>();
            for (int c = 0; c < cpuStates; c++) {
                final int visits = random.nextInt(maxBlocks + 1);
                for (int b = 0; b < visits; b++) {
                    final StringBuilder key = new StringBuilder().append(c);
                    for (int hop = 0; hop < LOADED_HOPS[p]; hop++) {
                        key.append('/').append(PERCENTS[random.nextInt(PERCENTS.length)]);
                    }
                    final Integer known = stateOf.get(key.toString());
                    final int state;
                    if (known == null) {
                        state = reference.size();
                        stateOf.put(key.toString(), state);
                        reference.add(reference(random, patternFactor * logUniform(random, 1 / stateSpread, stateSpread)));
                    } else {
                        state = known;
                    }
                    mine.add(new Block(p, state, roundTrips(random)));
                }
            }
            if (mine.isEmpty()) {
                reference.add(reference(random, patternFactor * logUniform(random, 1 / stateSpread, stateSpread)));
                mine.add(new Block(p, 0, roundTrips(random)));
            }
            references[p] = reference.toArray(new double[0][]);
            states[p] = reference.size();
            blocks.addAll(mine);
        }
        Collections.shuffle(blocks, random);
        return new Run(references, states, blocks);
    }

    private static double[] roundTrips(final Random random) {
        final double[] block = new double[8 + random.nextInt(43)];
        for (int i = 0; i < block.length; i++) {
            block[i] = roundTrip(random);
        }
        return block;
    }

    /** One run under hierarchy {@code h}, into {@code coverage[pattern][slot]} and {@code ratio[pattern][slot]}. */
    private static void replay(final Run run, final int h, final double trueP96, final double[][] coverage,
                               final double[][] ratio, final int slot) {
        double pooled = TARGET;
        long pooledBlocks = 0;
        final double[][] own = new double[PATTERNS.length][];
        final long[][] ownBlocks = new long[PATTERNS.length][];
        final long[][] ownRoundTrips = new long[PATTERNS.length][];
        final double[] pattern = new double[PATTERNS.length];
        final long[] patternBlocks = new long[PATTERNS.length];
        for (int p = 0; p < PATTERNS.length; p++) {
            own[p] = new double[run.states[p]];
            Arrays.fill(own[p], TARGET);
            ownBlocks[p] = new long[run.states[p]];
            ownRoundTrips[p] = new long[run.states[p]];
            pattern[p] = TARGET;
        }
        final long[] roundTrips = new long[PATTERNS.length];
        final long[] hits = new long[PATTERNS.length];
        final double[] ratioSum = new double[PATTERNS.length];
        for (final Block block : run.blocks) {
            final int p = block.pattern;
            final int s = block.state;
            final double[] reference = run.references[p][s];
            final int n = block.roundTrips.length;
            final double sameHops = h == 0 || LOADED_HOPS[p] == 0 ? pooled : sameHopsPool(own[p], ownRoundTrips[p], s, pooled);
            final double prior = h == 2
                ? BorrowedLevel.weight(patternBlocks[p]) * pattern[p] + (1 - BorrowedLevel.weight(patternBlocks[p])) * sameHops
                : sameHops;
            final double served = BorrowedLevel.weight(ownBlocks[p][s]) * own[p][s]
                + (1 - BorrowedLevel.weight(ownBlocks[p][s])) * prior;
            final double bound = quantile(reference, 1 - served);
            hits[p] += n - misses(block.roundTrips, bound);
            roundTrips[p] += n;
            ratioSum[p] += n * bound / trueP96;
            own[p][s] = next(own[p][s], n, misses(block.roundTrips, quantile(reference, 1 - own[p][s])), ownBlocks[p][s]++);
            ownRoundTrips[p][s] += n;
            pattern[p] = next(pattern[p], n, misses(block.roundTrips, quantile(reference, 1 - pattern[p])), patternBlocks[p]++);
            pooled = next(pooled, n, misses(block.roundTrips, quantile(reference, 1 - pooled)), pooledBlocks++);
        }
        for (int p = 0; p < PATTERNS.length; p++) {
            coverage[p][slot] = (double) hits[p] / roundTrips[p];
            ratio[p][slot] = ratioSum[p] / roundTrips[p];
        }
    }

    /**
     * @return the round-trip-weighted mean of the own levels of the pattern's other tested states; {@code pooled} when
     *         none has been tested
     */
    private static double sameHopsPool(final double[] own, final long[] ownRoundTrips, final int current, final double pooled) {
        double weighted = 0;
        long total = 0;
        for (int s = 0; s < own.length; s++) {
            if (s != current && ownRoundTrips[s] > 0) {
                weighted += ownRoundTrips[s] * own[s];
                total += ownRoundTrips[s];
            }
        }
        return total == 0 ? pooled : weighted / total;
    }

    private static double next(final double alpha, final long n, final long k, final long blocksBefore) {
        return new AdaptiveQuantileLevel(TARGET, alpha, START.stepPerRoundTrip(), START.maxBlockWeight())
            .observe(n, k, blocksBefore).missFraction();
    }

    private static double logUniform(final Random random, final double low, final double high) {
        return Math.exp(Math.log(low) + random.nextDouble() * Math.log(high / low));
    }
}
