package org.latencyserver.benchmarks.calibration;

import java.util.Locale;
import java.util.SplittableRandom;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * Scenario {@code selfload} of {@link ShapeModelSimulation}: a shape that overloads a loaded switch port itself.
 *
 * <p>The connection's 8 load states are {@link ShapeModelSimulation}'s ({@code ln rtt = μ_state + g(shape) + u_block +
 * ε}, {@code ε ~ N(0, 0.35²)}), but the top {@value #LOADED_STATES} are a loaded port's, carrying a background of
 * 93, 96 and 99 % of its 20 Mbit/s. Every round trip puts a message of {@value #MESSAGE_BITS} bits on the port (one
 * service time {@code S} = 0.41 ms); a burst whose own rate {@code S / spacing} with the background reaches the port's
 * rate queues behind itself, a deterministic-service fluid queue: its {@code i}-th round trip ({@code i} from 0) waits
 * {@code i · max(0, S − (1 − ρ) spacing)} more ({@code fast-bursty}, 0.5 ms apart, offers 82 %: at 96 % background its
 * 100th round trip waits 39 ms more). Below the port's rate a burst adds nothing to the background's queue (which the
 * state's bound already holds). Each state's reference is a paced measurement (no round trip behind another of its own).
 *
 * <p>Two shape models learn from the same trains: the one blind to the port band (every block learned and every bound
 * read as on an idle port: the model before the band was a feature) and the one that learns the band each train was sent
 * in and reads a bound for the state's. Each application shape's bound in every state is then scored exactly against
 * its round trips' true distribution, a mixture over the burst's positions of shifted log-normals: its coverage and
 * its ratio to the true p96 (found by bisection).
 *
 * <p>The shape mean model ({@link ShapeMeanModel}) is compared the same way: a band-blind one and one with the band
 * learn each train's mean over its state's thesis mean (the reference measurement's exact mean), and each application
 * shape's mean in every state (the thesis mean times its factor, the thesis alone before the model is fitted) is scored
 * against its true mean {@code exp(μ + g + σ²/2) + growth (n − 1) / 2}: the mean absolute relative error and the
 * geometric mean of served ÷ true.
 *
 * <p>With an idle spell, after the connection's trains come that many more on the idle port's states alone before
 * the bounds are scored: the loaded port is then served as it first is after a long idle spell.
 */
final class SelfLoadingSimulation {

    /** Load states, from the top, that are the loaded port's. */
    static final int LOADED_STATES = 3;
    /** Trains of the idle spell in scenario {@code idlespell}: about an hour of the client agent's probing. */
    static final int IDLE_SPELL = 2_000;
    /** The port's rate, bits per second. */
    static final double CAPACITY_BITS_PER_SECOND = 20e6;
    /** What one round trip puts on the port, bits (a 1 KB message). */
    static final double MESSAGE_BITS = 8 * 1024;
    /** The background's share of the port in the loaded states, lowest loaded state first. */
    private static final double[] BACKGROUND = {0.93, 0.96, 0.99};
    private static final double SERVICE_NANOS = MESSAGE_BITS / CAPACITY_BITS_PER_SECOND * 1e9;
    private static final double ALPHA = 1 - ShapeModelSimulation.BOUND_PERCENT / 100;

    private SelfLoadingSimulation() {
    }

    /** One method's figures for one shape in one band: sums over (state, seed) cases and seeds within 96 ± 2 %. */
    private static final class Tally {
        private double coverageSum;
        private double logRatioSum;
        private long cases;
        private long seedsWithin;
        /** The shape mean model's: sum over cases of |served mean / true mean − 1| and of ln(served / true). */
        private double meanErrorSum;
        private double meanLogRatioSum;
    }

    /** @return whether the state is the loaded port's */
    static boolean loaded(final int state) {
        return state >= ShapeModelSimulation.STATES - LOADED_STATES;
    }

    /**
     * @return how much longer each round trip of a burst of the shape waits than the one before it in the state, ns
     *         (0 on an idle port, or when the burst and the background stay within the port's rate)
     */
    static double growthNanos(final TrafficShape shape, final int state) {
        if (!loaded(state)) {
            return 0.0;
        }
        final double background = BACKGROUND[state - (ShapeModelSimulation.STATES - LOADED_STATES)];
        return Math.max(0.0, SERVICE_NANOS - (1 - background) * shape.spacingMicros() * 1_000.0);
    }

    /** @return the share of the shape's round trips in the state at or below the bound (log-normal base, sd {@code sd}) */
    static double coverage(final TrafficShape shape, final int state, final double boundNanos, final double sd) {
        final double growth = growthNanos(shape, state);
        final double m = ShapeModelSimulation.mu(state) + ShapeModelSimulation.g(shape);
        final int n = shape.burstRoundTrips();
        double sum = 0;
        for (int i = 0; i < n; i++) {
            final double room = boundNanos - i * growth;
            sum += room <= 0 ? 0.0 : ShapeModelSimulation.NORMAL.cumulativeProbability((Math.log(room) - m) / sd);
        }
        return sum / n;
    }

    /**
     * @return the shape's true mean round trip in the state, ns: the log-normal's mean plus the burst's positions' mean
     *         wait behind itself, {@code exp(μ + g + sd²/2) + growth (n − 1) / 2}
     */
    static double trueMeanNanos(final TrafficShape shape, final int state, final double sd) {
        return Math.exp(ShapeModelSimulation.mu(state) + ShapeModelSimulation.g(shape) + sd * sd / 2)
            + growthNanos(shape, state) * (shape.burstRoundTrips() - 1) / 2.0;
    }

    /** @return the shape's true p96 in the state, ns, by bisection on {@link #coverage} */
    static double trueP96(final TrafficShape shape, final int state, final double sd) {
        final double m = ShapeModelSimulation.mu(state) + ShapeModelSimulation.g(shape);
        double low = Math.exp(m - 10 * sd);
        double high = Math.exp(m + 10 * sd) + shape.burstRoundTrips() * growthNanos(shape, state);
        for (int step = 0; step < 100; step++) {
            final double mid = 0.5 * (low + high);
            if (coverage(shape, state, mid, sd) < 1 - ALPHA) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return 0.5 * (low + high);
    }

    /**
     * @param blocks probe trains per connection
     * @param seeds  connections (seeds 1..seeds)
     * @return per shape, band (0 idle, 1 loaded) and method (0 band-blind, 1 with the band): the tallies
     */
    private static Tally[][][] run(final int blocks, final int seeds, final int idleSpell) {
        final int shapes = ShapeModelSimulation.SHAPES.size();
        final Tally[][][] tallies = new Tally[shapes][2][2];
        for (final Tally[][] perShape : tallies) {
            for (final Tally[] perBand : perShape) {
                perBand[0] = new Tally();
                perBand[1] = new Tally();
            }
        }
        for (int seed = 1; seed <= seeds; seed++) {
            one(blocks, idleSpell, seed, tallies);
        }
        return tallies;
    }

    private static void one(final int blocks, final int idleSpell, final long seed, final Tally[][][] tallies) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] edges = ShapeModelSimulation.logEdges();
        final int states = ShapeModelSimulation.STATES;
        final double sd = Math.hypot(ShapeModelSimulation.NOISE, ShapeModelSimulation.BLOCK_NOISE);
        final LatencyHistogram[] reference = new LatencyHistogram[states];
        final double[] thesisMillis = new double[states];
        for (int s = 0; s < states; s++) {
            final double[] values = new double[1_000];
            double sum = 0;
            for (int i = 0; i < values.length; i++) {
                final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
                values[i] = Math.exp(ShapeModelSimulation.mu(s) + ShapeModelSimulation.g(shape) + sd * ShapeModelSimulation.gaussian(random));
                sum += values[i];
            }
            reference[s] = ShapeModelSimulation.histogram(edges, values);
            thesisMillis[s] = sum / values.length / 1e6;
        }
        // The level is left at the nominal one in every state: what is compared is the shape's factor, not the level.
        final StateKnowledge state = StateKnowledge.fresh(ShapeModelSimulation.BOUND_PERCENT);
        final AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(ShapeModelSimulation.BOUND_PERCENT);
        ShapeExcessModel blind = ShapeExcessModel.EMPTY;
        ShapeExcessModel banded = ShapeExcessModel.EMPTY;
        ShapeMeanModel blindMean = ShapeMeanModel.EMPTY;
        ShapeMeanModel bandedMean = ShapeMeanModel.EMPTY;
        for (int b = 0; b < blocks + idleSpell; b++) {
            final int s = b < blocks ? random.nextInt(states) : random.nextInt(states - LOADED_STATES);
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final double u = ShapeModelSimulation.BLOCK_NOISE * ShapeModelSimulation.gaussian(random);
            final double growth = growthNanos(shape, s);
            final double[] values = new double[shape.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = Math.exp(ShapeModelSimulation.mu(s) + ShapeModelSimulation.g(shape) + u
                    + ShapeModelSimulation.NOISE * ShapeModelSimulation.gaussian(random)) + i * growth;
            }
            final LatencyHistogram block = ShapeModelSimulation.histogram(edges, values);
            final double stateBound = ShapeModelBound.stateBoundNanos(reference[s], state, pooled);
            blind = blind.observe(shape, block, stateBound, PortBand.IDLE);
            banded = banded.observe(shape, block, stateBound, loaded(s) ? PortBand.LOADED : PortBand.IDLE);
            final double meanMillis = mean(values) / 1e6;
            final double varianceMillis2 = variance(values) / 1e12;
            blindMean = blindMean.observe(shape, values.length, meanMillis, varianceMillis2, thesisMillis[s], PortBand.IDLE);
            bandedMean = bandedMean.observe(shape, values.length, meanMillis, varianceMillis2, thesisMillis[s],
                loaded(s) ? PortBand.LOADED : PortBand.IDLE);
        }
        for (int k = 0; k < ShapeModelSimulation.SHAPES.size(); k++) {
            final TrafficShape shape = ShapeModelSimulation.SHAPES.get(k).shape();
            final double[][] seedCoverage = new double[2][2];
            for (int s = 0; s < states; s++) {
                final int band = loaded(s) ? 1 : 0;
                final double stateBound = ShapeModelBound.stateBoundNanos(reference[s], state, pooled);
                final double p96 = trueP96(shape, s, sd);
                final double[] bounds = {
                    blind.fitted() ? stateBound * blind.servedBoundFactor(shape, PortBand.IDLE, ALPHA, ALPHA) : stateBound,
                    banded.fitted() ? stateBound * banded.servedBoundFactor(shape, loaded(s) ? PortBand.LOADED : PortBand.IDLE,
                        ALPHA, ALPHA) : stateBound};
                final double trueMeanMillis = trueMeanNanos(shape, s, sd) / 1e6;
                final double[] means = {
                    blindMean.fitted() ? thesisMillis[s] * blindMean.meanFactor(shape, PortBand.IDLE) : thesisMillis[s],
                    bandedMean.fitted() ? thesisMillis[s] * bandedMean.meanFactor(shape, loaded(s) ? PortBand.LOADED : PortBand.IDLE)
                        : thesisMillis[s]};
                for (int method = 0; method < 2; method++) {
                    final double coverage = coverage(shape, s, bounds[method], sd);
                    final Tally tally = tallies[k][band][method];
                    tally.meanErrorSum += Math.abs(means[method] / trueMeanMillis - 1);
                    tally.meanLogRatioSum += Math.log(means[method] / trueMeanMillis);
                    tally.coverageSum += coverage;
                    tally.logRatioSum += Math.log(bounds[method] / p96);
                    tally.cases++;
                    seedCoverage[band][method] += coverage;
                }
            }
            for (int band = 0; band < 2; band++) {
                final int inBand = band == 1 ? LOADED_STATES : states - LOADED_STATES;
                for (int method = 0; method < 2; method++) {
                    if (Math.abs(seedCoverage[band][method] / inBand - (1 - ALPHA)) <= 0.02) {
                        tallies[k][band][method].seedsWithin++;
                    }
                }
            }
        }
    }

    private static double mean(final double[] values) {
        double sum = 0;
        for (final double value : values) {
            sum += value;
        }
        return sum / values.length;
    }

    /** @return the sample variance; NaN for fewer than 2 values */
    private static double variance(final double[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        final double mean = mean(values);
        double sum = 0;
        for (final double value : values) {
            sum += (value - mean) * (value - mean);
        }
        return sum / (values.length - 1);
    }

    /**
     * Prints, per application shape, the loaded band's and the idle band's coverage, bound ÷ true p96 and seeds within
     * 96 ± 2 %, for the band-blind model and the one with the band.
     *
     * @param blocks    probe trains per connection
     * @param seeds     connections
     * @param idleSpell trains on the idle port alone after them, before the bounds are scored
     */
    static void print(final int blocks, final int seeds, final int idleSpell) {
        final Tally[][][] tallies = run(blocks, seeds, idleSpell);
        System.out.printf(Locale.ROOT, "%d probe trains per connection drawn from %s, %d connections (seeds 1..%d), 8 load states,"
            + " the top %d a loaded port's (background 93/96/99 %% of 20 Mbit/s, 1 KB a round trip), scenario %s%n",
            blocks, TrafficFamily.DEFAULT.label(), seeds, seeds, LOADED_STATES,
            idleSpell == 0 ? "selfload" : "idlespell (then " + idleSpell + " trains on the idle port alone)");
        System.out.printf(Locale.ROOT, "%-12s | %-28s | %-28s | %-28s | %-28s%n", "shape", "loaded, band-blind: cov b/p96",
            "loaded, with band: cov b/p96", "idle, band-blind: cov b/p96", "idle, with band: cov b/p96");
        for (int k = 0; k < ShapeModelSimulation.SHAPES.size(); k++) {
            System.out.printf(Locale.ROOT, "%-12s | %s | %s | %s | %s%n", ShapeModelSimulation.SHAPES.get(k).name(),
                row(tallies[k][1][0], seeds), row(tallies[k][1][1], seeds), row(tallies[k][0][0], seeds), row(tallies[k][0][1], seeds));
        }
        System.out.printf(Locale.ROOT, "shape mean model (QoS 1/3): mean |served mean / true mean - 1| over (state, seed),"
            + " geometric mean of served / true%n");
        System.out.printf(Locale.ROOT, "%-12s | %-20s | %-20s | %-20s | %-20s%n", "shape", "loaded, band-blind", "loaded, with band",
            "idle, band-blind", "idle, with band");
        for (int k = 0; k < ShapeModelSimulation.SHAPES.size(); k++) {
            System.out.printf(Locale.ROOT, "%-12s | %s | %s | %s | %s%n", ShapeModelSimulation.SHAPES.get(k).name(),
                meanRow(tallies[k][1][0]), meanRow(tallies[k][1][1]), meanRow(tallies[k][0][0]), meanRow(tallies[k][0][1]));
        }
    }

    private static String meanRow(final Tally tally) {
        return String.format(Locale.ROOT, "%6.1f %% %6.2f      ", 100 * tally.meanErrorSum / tally.cases,
            Math.exp(tally.meanLogRatioSum / tally.cases));
    }

    private static String row(final Tally tally, final int seeds) {
        return String.format(Locale.ROOT, "%5.1f %% %6.2f %3d of %-4d", 100 * tally.coverageSum / tally.cases,
            Math.exp(tally.logRatioSum / tally.cases), tally.seedsWithin, seeds);
    }
}
