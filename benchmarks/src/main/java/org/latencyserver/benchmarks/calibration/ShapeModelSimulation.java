package org.latencyserver.benchmarks.calibration;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.ClassExcess;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * Per-shape bounds from few probe trains: the class-level method (a level per shape class, else the state's level
 * plus the class's excess, else the worst class's: {@link BorrowedLevel#forShape}) against the shape model
 * ({@link ShapeExcessModel}), on the same seeded round trips, with the server's own calibration code and no network.
 *
 * <p>A connection with 8 load states (medians 0.2 ms × e^{0.3 k}); each state's reference histogram is a measurement
 * of 1,000 round trips of shapes drawn from the default family (so the state's level is calibrated for the family's
 * mix). Round trips: {@code ln rtt = μ_state + g(shape) + u_block + ε}, with {@code g = 0.4 ln(spacing / 0.5 ms)} (a
 * 10 ms spacing 3.3 × slower than 0.5 ms: each round trip pays a wake-up), {@code +0.1} for arrays, {@code u_block ~
 * N(0, 0.1²)} (a train's shared busy spell) and {@code ε ~ N(0, 0.35²)}. The probes: {@code blocks} trains of shapes
 * drawn from the family, each in a state drawn at random — 40 trains is what an undeclared connection reports in ten
 * minutes. Afterwards each application shape's bound is read in every state, and its true coverage and its ratio to
 * the shape's true p96 are computed exactly (the model is known).
 *
 * <p>Scenario {@code shift} (the default) is the above; scenario {@code spread} gives each shape its own spread,
 * {@code ε ~ N(0, σ(s)²)} with {@code σ(s) = 0.35 (burst / 20)^0.25 (spacing / 2 ms)^−0.15} (round trips sent close
 * together queue behind each other: {@code fast-bursty} spreads 1.8 × as wide as the probes, {@code slow} 0.66 ×). The
 * shape model is read twice: with the single margin ({@link ShapeExcessModel#shiftBoundFactor}, what it served before
 * it learned a spread) and as served ({@link ShapeExcessModel#servedBoundFactor}: the shape's own spread once fitted,
 * relative to the trains' mix, at the nominal level).
 *
 * <p>Scenario {@code selfload}: the upper load states are a loaded port's, where a shape that offers more than the
 * port has left queues behind itself ({@link SelfLoadingSimulation}); the shape model blind to the port band against
 * the one that learns it. Scenario {@code idlespell}: the same, then {@value SelfLoadingSimulation#IDLE_SPELL} trains on
 * the idle port alone (about an hour of probing) before the bounds are scored: what a loaded episode after a long idle
 * spell is first served.
 *
 * <p>Scenario {@code misfit}: a heavy-tailed shape class, a loaded band whose bound is too loose and a drift of the idle
 * bound's error; the model's score quantile read at the nominal level against at its adaptive per-band level
 * ({@link ShapeModelLevelSimulation}).
 *
 * <p>Usage: {@code ShapeModelSimulation [blocks] [seeds] [shift|spread|selfload|idlespell|misfit]} (defaults 40, 200 and
 * shift).
 */
public final class ShapeModelSimulation {

    /** Bound percent served. */
    public static final double BOUND_PERCENT = 96.0;
    static final int STATES = 8;
    static final double NOISE = 0.35;
    static final double BLOCK_NOISE = 0.1;
    static final NormalDistribution NORMAL = new NormalDistribution(null, 0.0, 1.0);
    private static final double Z = NORMAL.inverseCumulativeProbability(BOUND_PERCENT / 100.0);

    /** The harness's application shapes with a fixed shape. */
    public static final List<Named> SHAPES = List.of(
        new Named("probes", new TrafficShape(2_000, 20, 0, CallKind.ARRAYS)),
        new Named("fast-bursty", new TrafficShape(500, 100, 0, CallKind.OCTETS)),
        new Named("slow", new TrafficShape(10_000, 10, 0, CallKind.ARRAYS)),
        new Named("mixed", new TrafficShape(2_000, 50, 0, CallKind.OCTETS)));

    private ShapeModelSimulation() {
    }

    /**
     * @param name  the application shape's name in the accuracy harness
     * @param shape its traffic
     */
    public record Named(String name, TrafficShape shape) {
    }

    /**
     * One method's figures for one shape, summed over states and seeds.
     *
     * @param coverageSum  sum of true coverages
     * @param logRatioSum  sum of ln(bound / true p96)
     * @param cases        how many (state, seed) cases
     * @param seedsWithin  seeds whose coverage averaged over states is within 96 ± 2 %
     */
    public record Tally(double coverageSum, double logRatioSum, long cases, long seedsWithin) {

        /** @return mean coverage */
        public double coverage() {
            return coverageSum / cases;
        }

        /** @return geometric mean of bound / true p96 */
        public double ratio() {
            return Math.exp(logRatioSum / cases);
        }
    }

    /**
     * The methods' figures for every shape.
     *
     * @param classLevel   class levels
     * @param singleMargin the shape model with one margin for every shape
     * @param shapeModel   the shape model as served (its shape's own spread once fitted)
     */
    public record Result(Map<String, Tally> classLevel, Map<String, Tally> singleMargin, Map<String, Tally> shapeModel) {
    }

    /**
     * @param blocks probe trains per connection
     * @param seeds  connections simulated (seeds 1..seeds)
     * @param spread whether each shape has its own spread (scenario {@code spread}) rather than one for all
     * @return the methods' figures per shape
     */
    public static Result run(final int blocks, final int seeds, final boolean spread) {
        final Result result = new Result(new HashMap<>(), new HashMap<>(), new HashMap<>());
        for (int seed = 1; seed <= seeds; seed++) {
            one(blocks, seed, spread, result);
        }
        return result;
    }

    /** @return the round trips' own noise for the shape, ln units */
    private static double noise(final TrafficShape shape, final boolean spread) {
        return spread ? NOISE * Math.pow(shape.burstRoundTrips() / 20.0, 0.25) * Math.pow(shape.spacingMicros() / 2_000.0, -0.15)
            : NOISE;
    }

    /** @return the sd of ln rtt for the shape: its own noise and a train's busy spell */
    private static double totalSd(final TrafficShape shape, final boolean spread) {
        return Math.hypot(noise(shape, spread), BLOCK_NOISE);
    }

    static double g(final TrafficShape shape) {
        return 0.4 * Math.log(shape.spacingMicros() / 500.0) + (shape.call() == CallKind.ARRAYS ? 0.1 : 0.0);
    }

    static double mu(final int state) {
        return Math.log(200_000.0) + 0.3 * state;
    }

    private static void one(final int blocks, final long seed, final boolean spread, final Result result) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] edges = logEdges();
        final LatencyHistogram[] reference = new LatencyHistogram[STATES];
        for (int s = 0; s < STATES; s++) {
            final double[] values = new double[1_000];
            for (int i = 0; i < values.length; i++) {
                final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
                values[i] = Math.exp(mu(s) + g(shape) + totalSd(shape, spread) * gaussian(random));
            }
            reference[s] = histogram(edges, values);
        }
        final Map<Integer, StateKnowledge> known = new HashMap<>();
        AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(BOUND_PERCENT);
        ClassExcess excess = ClassExcess.EMPTY;
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < blocks; b++) {
            final int s = random.nextInt(STATES);
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final ShapeClass cls = ShapeClass.of(shape);
            final double u = BLOCK_NOISE * gaussian(random);
            final double[] values = new double[shape.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = Math.exp(mu(s) + g(shape) + u + noise(shape, spread) * gaussian(random));
            }
            final LatencyHistogram block = histogram(edges, values);
            final StateKnowledge state = known.getOrDefault(s, StateKnowledge.fresh(BOUND_PERCENT));
            final LatencyHistogram ref = reference[s];
            final java.util.function.DoubleToLongFunction missesAt = percent -> {
                final long bound = boundNanos(ref, percent);
                return block.totalCount() - block.countAtOrBelow(bound);
            };
            final double servedPercent = BorrowedLevel.of(state, pooled, null, excess).servedPercent();
            final long misses = missesAt.applyAsLong(servedPercent);
            model = model.observe(shape, block, ShapeModelBound.stateBoundNanos(ref, state, pooled));
            excess = excess.observe(cls, BorrowedLevel.stateMissFraction(state, pooled), state.level(), values.length, missesAt);
            pooled = pooled.observe(values.length, missesAt.applyAsLong(pooled.servedPercent()));
            known.put(s, state.observeBound(values.length, values.length - misses, true, true, cls, missesAt));
        }
        for (final Named named : SHAPES) {
            final ShapeClass cls = ShapeClass.of(named.shape());
            final double sd = totalSd(named.shape(), spread);
            final double alpha = 1 - BOUND_PERCENT / 100;
            double seedCoverageClass = 0;
            double seedCoverageSingle = 0;
            double seedCoverageModel = 0;
            for (int s = 0; s < STATES; s++) {
                final StateKnowledge state = known.getOrDefault(s, StateKnowledge.fresh(BOUND_PERCENT));
                final double truthLog = mu(s) + g(named.shape());
                final double classBound = boundNanos(reference[s], BorrowedLevel.forShape(state, pooled, excess, cls).servedPercent());
                final double stateBound = ShapeModelBound.stateBoundNanos(reference[s], state, pooled);
                final double singleBound = model.fitted() ? stateBound * model.shiftBoundFactor(named.shape(), alpha) : classBound;
                final double modelBound = model.fitted()
                    ? stateBound * model.servedBoundFactor(named.shape(), PortBand.IDLE, alpha, alpha) : classBound;
                seedCoverageClass += add(result.classLevel(), named.name(), classBound, truthLog, sd);
                seedCoverageSingle += add(result.singleMargin(), named.name(), singleBound, truthLog, sd);
                seedCoverageModel += add(result.shapeModel(), named.name(), modelBound, truthLog, sd);
            }
            within(result.classLevel(), named.name(), seedCoverageClass / STATES);
            within(result.singleMargin(), named.name(), seedCoverageSingle / STATES);
            within(result.shapeModel(), named.name(), seedCoverageModel / STATES);
        }
    }

    private static double add(final Map<String, Tally> tallies, final String name, final double boundNanos, final double truthLog,
                              final double sd) {
        final double coverage = NORMAL.cumulativeProbability((Math.log(boundNanos) - truthLog) / sd);
        final double logRatio = Math.log(boundNanos) - (truthLog + Z * sd);
        tallies.merge(name, new Tally(coverage, logRatio, 1, 0),
            (a, b) -> new Tally(a.coverageSum + b.coverageSum, a.logRatioSum + b.logRatioSum, a.cases + b.cases, a.seedsWithin));
        return coverage;
    }

    private static void within(final Map<String, Tally> tallies, final String name, final double seedCoverage) {
        if (Math.abs(seedCoverage - BOUND_PERCENT / 100) <= 0.02) {
            tallies.computeIfPresent(name, (k, t) -> new Tally(t.coverageSum, t.logRatioSum, t.cases, t.seedsWithin + 1));
        }
    }

    static long boundNanos(final LatencyHistogram reference, final double percent) {
        try {
            return reference.boundAt(percent).boundNanos();
        } catch (BoundBeyondHistogramException | IllegalArgumentException beyond) {
            return reference.lastEdgeNanos();
        }
    }

    /** Edges 1 % apart from 10 µs to about 1 s. */
    static long[] logEdges() {
        final int count = (int) Math.ceil(Math.log(100_000.0) / Math.log(1.01));
        final long[] edges = new long[count];
        for (int i = 0; i < count; i++) {
            edges[i] = Math.round(10_000.0 * Math.pow(1.01, i + 1));
        }
        return edges;
    }

    static LatencyHistogram histogram(final long[] edges, final double[] values) {
        final long[] counts = new long[edges.length];
        long overflow = 0;
        for (final double value : values) {
            int bin = java.util.Arrays.binarySearch(edges, (long) Math.ceil(value));
            bin = bin >= 0 ? bin : -bin - 1;
            if (bin >= edges.length) {
                overflow++;
            } else {
                counts[bin]++;
            }
        }
        return LatencyHistogram.of(edges, counts, overflow);
    }

    static double gaussian(final SplittableRandom random) {
        double u1 = random.nextDouble();
        while (u1 <= 0) {
            u1 = random.nextDouble();
        }
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /**
     * Prints the methods' figures per shape.
     *
     * @param args {@code [blocks] [seeds] [shift|spread|selfload|idlespell|misfit]}
     */
    public static void main(final String[] args) {
        final int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        final int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        final String scenario = args.length > 2 ? args[2] : "shift";
        if (scenario.equals("selfload")) {
            SelfLoadingSimulation.print(blocks, seeds, 0);
            return;
        }
        if (scenario.equals("idlespell")) {
            SelfLoadingSimulation.print(blocks, seeds, SelfLoadingSimulation.IDLE_SPELL);
            return;
        }
        if (scenario.equals("misfit")) {
            ShapeModelLevelSimulation.print(blocks, seeds);
            return;
        }
        if (!scenario.equals("shift") && !scenario.equals("spread")) {
            throw new IllegalArgumentException("scenario must be shift, spread, selfload, idlespell or misfit, was " + scenario);
        }
        final Result result = run(blocks, seeds, scenario.equals("spread"));
        System.out.printf(Locale.ROOT, "%d probe trains per connection drawn from %s, %d connections (seeds 1..%d), 8 load states,"
            + " scenario %s%n", blocks, TrafficFamily.DEFAULT.label(), seeds, seeds, scenario);
        System.out.printf(Locale.ROOT, "%-12s | %-30s | %-30s | %-30s%n", "shape", "class levels: cov, b/p96, 96±2",
            "single margin: cov, b/p96, 96±2", "shape model: cov, b/p96, 96±2");
        for (final Named named : SHAPES) {
            System.out.printf(Locale.ROOT, "%-12s | %s | %s | %s%n", named.name(), row(result.classLevel().get(named.name()), seeds),
                row(result.singleMargin().get(named.name()), seeds), row(result.shapeModel().get(named.name()), seeds));
        }
    }

    private static String row(final Tally tally, final int seeds) {
        return String.format(Locale.ROOT, "%5.1f %%  %5.2f  %3d of %-4d    ", 100 * tally.coverage(), tally.ratio(), tally.seedsWithin(),
            seeds);
    }
}
