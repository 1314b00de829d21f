package org.latencyserver.benchmarks.calibration;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.TDistribution;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * Scenario {@code misfit} of {@link ShapeModelSimulation}: a path the shape model misfits, on the same seeded round
 * trips, with the server's own calibration code, three ways: the model's own bound over the state's
 * ({@link ShapeExcessModel#boundFactor}) with the score quantile at the nominal level, the same at the adaptive per-band
 * level ({@link ShapeModelLevel}) learned from its misses, and the factor relative to the trains' mix
 * ({@link ShapeExcessModel#servedBoundFactor}, what the server serves) at its own adaptive level learned from its
 * misses.
 *
 * <p>As {@link ShapeModelSimulation}'s {@code shift} scenario (8 load states, medians 0.2 ms × e^{0.3 k}, {@code g(s)},
 * a train's busy spell {@code u ~ N(0, 0.1²)}), with three misfits:
 * <ul>
 * <li><b>heavy tails</b>: shapes sent less than 1 ms apart (a quarter of the family, {@code fast-bursty} among them),
 *     and every round trip on the loaded port, have {@code ε ~ 0.35 t₃} (Student's t, 3 degrees of freedom); the
 *     others (idle port, spaced 1 ms or more) {@code ε ~ N(0, 0.35²)}: the model's normal-like spread and its pooled
 *     scores misfit the heavy ones;</li>
 * <li><b>a loaded band whose bound is too loose</b>: states 6 and 7 are a loaded port's; their reference histograms
 *     were measured under heavier load ({@code μ + 0.4}) than the trains see;</li>
 * <li><b>a drift of the idle bound's error</b>: after half the trains, the idle states' path is {@code 0.15} slower
 *     (e^0.15 = 1.16) and their references are not measured again (the states' levels and the model follow).</li>
 * </ul>
 * Each train, before it teaches the model, teaches the adaptive level the misses of the model's bound for its shape and
 * band (as the server does). Afterwards each application shape's bound — and that of {@value #FAMILY_DRAWS} shapes drawn
 * from the family, as the trains are, whose round trips the level's guarantee is about — is read in every state at both
 * levels, and its true coverage and its ratio to the shape's true p96 are computed (numerically: the model is known).
 * Beside them, the trains' own round trips after the model fitted, each train against the model's bound for its shape
 * at either level as it stood when the train was sent (the long-run, train-by-train coverage the level is for).
 *
 * <p>Stateless.
 */
public final class ShapeModelLevelSimulation {

    /** The loaded band's states are the top ones: {@code s >= FIRST_LOADED}. */
    static final int FIRST_LOADED = 6;
    /** How much heavier the loaded states' references were measured than the trains see, ln units. */
    static final double LOADED_REFERENCE_EXCESS = 0.4;
    /** How much slower the idle path is after half the trains, ln units. */
    static final double IDLE_DRIFT = 0.15;
    /** Spacing below which a shape's round trips have heavy tails, µs. */
    static final long HEAVY_BELOW_MICROS = 1_000;
    /** Shapes drawn from the family per connection, each scored in every state. */
    static final int FAMILY_DRAWS = 20;
    /** The row of the trains' own round trips, each train against the bound served when it was sent. */
    static final String TRAINS = "the trains";
    /** The row of the shapes drawn from the family. */
    static final String FAMILY = "family draws";
    private static final TDistribution T3 = new TDistribution(null, 3.0);
    /** Nodes of the busy spell's normal, for the coverage integral: ±5 sd in 81 steps. */
    private static final int NODES = 81;

    private ShapeModelLevelSimulation() {
    }

    /** A tally per shape and band: coverage sum, log ratio sum, cases. */
    record Cell(double coverageSum, double logRatioSum, long cases) {
        Cell plus(final double coverage, final double logRatio) {
            return new Cell(coverageSum + coverage, logRatioSum + logRatio, cases + 1);
        }
    }

    static boolean heavy(final TrafficShape shape, final PortBand band) {
        return band == PortBand.LOADED || shape.spacingMicros() < HEAVY_BELOW_MICROS;
    }

    static PortBand band(final int state) {
        return state >= FIRST_LOADED ? PortBand.LOADED : PortBand.IDLE;
    }

    private static double epsilon(final TrafficShape shape, final PortBand band, final SplittableRandom random) {
        if (!heavy(shape, band)) {
            return ShapeModelSimulation.NOISE * ShapeModelSimulation.gaussian(random);
        }
        // Student's t with 3 degrees of freedom: a normal over the root of a chi-square's mean.
        double chi = 0;
        for (int k = 0; k < 3; k++) {
            final double z = ShapeModelSimulation.gaussian(random);
            chi += z * z;
        }
        return ShapeModelSimulation.NOISE * ShapeModelSimulation.gaussian(random) / Math.sqrt(chi / 3.0);
    }

    /** @return P(ln rtt − truthLog ≤ x) for the shape: its ε convolved with the busy spell's normal */
    static double cdf(final TrafficShape shape, final PortBand band, final double x) {
        double sum = 0;
        double weights = 0;
        for (int i = 0; i < NODES; i++) {
            final double z = -5.0 + 10.0 * i / (NODES - 1);
            final double w = Math.exp(-0.5 * z * z);
            final double rest = (x - ShapeModelSimulation.BLOCK_NOISE * z) / ShapeModelSimulation.NOISE;
            sum += w * (heavy(shape, band) ? T3.cumulativeProbability(rest) : ShapeModelSimulation.NORMAL.cumulativeProbability(rest));
            weights += w;
        }
        return sum / weights;
    }

    /** @return the shape's true p96 above its median log, ln units */
    static double trueQuantile(final TrafficShape shape, final PortBand band) {
        double low = -1;
        double high = 6;
        for (int i = 0; i < 60; i++) {
            final double mid = 0.5 * (low + high);
            if (cdf(shape, band, mid) < ShapeModelSimulation.BOUND_PERCENT / 100) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return 0.5 * (low + high);
    }

    /** The true p96's offset depends on the shape only through whether its tails are heavy (g shifts the median). */
    private static String quantileKey(final TrafficShape shape, final PortBand band) {
        return heavy(shape, band) + "|" + band;
    }

    private static double muNow(final int state, final boolean drifted) {
        return ShapeModelSimulation.mu(state) + (drifted && band(state) == PortBand.IDLE ? IDLE_DRIFT : 0.0);
    }

    /**
     * @param blocks probe trains per connection
     * @param seeds  connections simulated (seeds 1..seeds)
     * @return per "method|shape|band": the tallies; methods "nominal" and "adaptive"
     */
    static Map<String, Cell> run(final int blocks, final int seeds) {
        final Map<String, Cell> cells = new HashMap<>();
        final Map<String, Double> quantiles = new HashMap<>();
        for (final ShapeModelSimulation.Named named : ShapeModelSimulation.SHAPES) {
            for (final PortBand band : PortBand.values()) {
                quantiles.computeIfAbsent(quantileKey(named.shape(), band), k -> trueQuantile(named.shape(), band));
            }
        }
        for (int seed = 1; seed <= seeds; seed++) {
            one(blocks, seed, cells, quantiles);
        }
        return cells;
    }

    private static void one(final int blocks, final long seed, final Map<String, Cell> cells, final Map<String, Double> quantiles) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] edges = ShapeModelSimulation.logEdges();
        final LatencyHistogram[] reference = new LatencyHistogram[ShapeModelSimulation.STATES];
        for (int s = 0; s < ShapeModelSimulation.STATES; s++) {
            final double[] values = new double[1_000];
            final double excess = band(s) == PortBand.LOADED ? LOADED_REFERENCE_EXCESS : 0.0;
            for (int i = 0; i < values.length; i++) {
                final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
                values[i] = Math.exp(ShapeModelSimulation.mu(s) + excess + ShapeModelSimulation.g(shape)
                    + ShapeModelSimulation.BLOCK_NOISE * ShapeModelSimulation.gaussian(random) + epsilon(shape, band(s), random));
            }
            reference[s] = ShapeModelSimulation.histogram(edges, values);
        }
        final Map<Integer, StateKnowledge> known = new HashMap<>();
        AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(ShapeModelSimulation.BOUND_PERCENT);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        ShapeModelLevel level = ShapeModelLevel.start(ShapeModelSimulation.BOUND_PERCENT);
        ShapeModelLevel relativeLevel = ShapeModelLevel.start(ShapeModelSimulation.BOUND_PERCENT);
        final double nominalAlpha = 1 - ShapeModelSimulation.BOUND_PERCENT / 100;
        for (int b = 0; b < blocks; b++) {
            final boolean drifted = b >= blocks / 2;
            final int s = random.nextInt(ShapeModelSimulation.STATES);
            final PortBand band = band(s);
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final ShapeClass cls = ShapeClass.of(shape);
            final double u = ShapeModelSimulation.BLOCK_NOISE * ShapeModelSimulation.gaussian(random);
            final double[] values = new double[shape.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = Math.exp(muNow(s, drifted) + ShapeModelSimulation.g(shape) + u + epsilon(shape, band, random));
            }
            final LatencyHistogram block = ShapeModelSimulation.histogram(edges, values);
            final StateKnowledge state = known.getOrDefault(s, StateKnowledge.fresh(ShapeModelSimulation.BOUND_PERCENT));
            final LatencyHistogram ref = reference[s];
            final java.util.function.DoubleToLongFunction missesAt = percent ->
                block.totalCount() - block.countAtOrBelow(ShapeModelSimulation.boundNanos(ref, percent));
            final long misses = missesAt.applyAsLong(BorrowedLevel.of(state, pooled, null).servedPercent());
            final double stateBound = ShapeModelBound.stateBoundNanos(ref, state, pooled);
            if (model.fitted()) {
                final ShapeExcessModel before = model;
                final long n = block.totalCount();
                // The model's own bound over the state's (as served before the factor was taken relative to the mix).
                final java.util.function.DoubleToLongFunction modelMisses = alpha -> n - Math.min(n, block.countAtOrBelow(Math.round(
                    stateBound * before.boundFactor(shape, band, ShapeModelLevel.quantileMissFraction(alpha,
                        ShapeModelBound.HIGHEST_MISS_FRACTION)))));
                final java.util.function.DoubleToLongFunction relativeMisses = ShapeModelBound.missesAt(model, shape, band, stateBound,
                    block, nominalAlpha);
                trains(cells, "nominal", band, n, modelMisses.applyAsLong(nominalAlpha));
                trains(cells, "adaptive", band, n, modelMisses.applyAsLong(level.missFraction(band)));
                trains(cells, "relative", band, n, relativeMisses.applyAsLong(relativeLevel.missFraction(band)));
                level = level.observe(band, n, modelMisses);
                relativeLevel = relativeLevel.observe(band, n, relativeMisses);
            }
            model = model.observe(shape, block, stateBound, band);
            pooled = pooled.observe(values.length, missesAt.applyAsLong(pooled.servedPercent()));
            known.put(s, state.observeBound(values.length, values.length - misses, true, true, cls, missesAt));
        }
        if (!model.fitted()) {
            return;
        }
        final double nominal = 1 - ShapeModelSimulation.BOUND_PERCENT / 100;
        for (final ShapeModelSimulation.Named named : ShapeModelSimulation.SHAPES) {
            for (int s = 0; s < ShapeModelSimulation.STATES; s++) {
                final PortBand band = band(s);
                final StateKnowledge state = known.getOrDefault(s, StateKnowledge.fresh(ShapeModelSimulation.BOUND_PERCENT));
                final double truthLog = muNow(s, true) + ShapeModelSimulation.g(named.shape());
                final double stateBound = ShapeModelBound.stateBoundNanos(reference[s], state, pooled);
                final double adaptiveAlpha = level.quantileMissFraction(band);
                add(cells, "nominal", named, band, stateBound * model.boundFactor(named.shape(), band, nominal), truthLog, quantiles);
                add(cells, "adaptive", named, band, stateBound * model.boundFactor(named.shape(), band, adaptiveAlpha), truthLog,
                    quantiles);
                add(cells, "relative", named, band, stateBound * model.servedBoundFactor(named.shape(), band,
                    relativeLevel.quantileMissFraction(band), nominal), truthLog, quantiles);
            }
        }
        // Shapes drawn from the family, as the trains are: what the adaptive level's guarantee is about.
        for (int d = 0; d < FAMILY_DRAWS; d++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final ShapeModelSimulation.Named drawn = new ShapeModelSimulation.Named(FAMILY, shape);
            for (int s = 0; s < ShapeModelSimulation.STATES; s++) {
                final PortBand band = band(s);
                final StateKnowledge state = known.getOrDefault(s, StateKnowledge.fresh(ShapeModelSimulation.BOUND_PERCENT));
                final double truthLog = muNow(s, true) + ShapeModelSimulation.g(shape);
                final double stateBound = ShapeModelBound.stateBoundNanos(reference[s], state, pooled);
                final double adaptiveAlpha = level.quantileMissFraction(band);
                quantiles.computeIfAbsent(quantileKey(shape, band), k -> trueQuantile(shape, band));
                add(cells, "nominal", drawn, band, stateBound * model.boundFactor(shape, band, nominal), truthLog, quantiles);
                add(cells, "adaptive", drawn, band, stateBound * model.boundFactor(shape, band, adaptiveAlpha), truthLog, quantiles);
                add(cells, "relative", drawn, band, stateBound * model.servedBoundFactor(shape, band,
                    relativeLevel.quantileMissFraction(band), nominal), truthLog, quantiles);
            }
        }
    }

    /** Counts a train's round trips (as cases) and its hits (as the coverage sum) under "method|TRAINS|band". */
    private static void trains(final Map<String, Cell> cells, final String method, final PortBand band, final long roundTrips,
                               final long misses) {
        cells.merge(method + "|" + TRAINS + "|" + band, new Cell(roundTrips - misses, 0, roundTrips),
            (a, c) -> new Cell(a.coverageSum() + c.coverageSum(), 0, a.cases() + c.cases()));
    }

    private static void add(final Map<String, Cell> cells, final String method, final ShapeModelSimulation.Named named,
                            final PortBand band, final double boundNanos, final double truthLog, final Map<String, Double> quantiles) {
        final double x = Math.log(boundNanos) - truthLog;
        final double coverage = cdf(named.shape(), band, x);
        final double logRatio = x - quantiles.get(quantileKey(named.shape(), band));
        cells.merge(method + "|" + named.name() + "|" + band, new Cell(coverage, logRatio, 1),
            (a, c) -> a.plus(c.coverageSum(), c.logRatioSum()));
    }

    /**
     * Prints coverage and bound ÷ true p96 per shape and band, nominal level beside adaptive level.
     *
     * @param blocks probe trains per connection
     * @param seeds  connections simulated
     */
    static void print(final int blocks, final int seeds) {
        final Map<String, Cell> cells = run(blocks, seeds);
        System.out.printf(Locale.ROOT, "%d probe trains per connection drawn from %s, %d connections (seeds 1..%d), 8 load states"
            + " (6 idle, 2 loaded), scenario misfit: shapes < 1 ms apart heavy-tailed (0.35 t3), loaded references %.2f too"
            + " high, idle path %.2f slower after half the trains%n", blocks, TrafficFamily.DEFAULT.label(), seeds, seeds,
            Math.exp(LOADED_REFERENCE_EXCESS), Math.exp(IDLE_DRIFT));
        System.out.printf(Locale.ROOT, "%-12s %-6s | %-28s | %-28s | %-28s%n", "shape", "band", "own, nominal: cov, b/p96",
            "own, adaptive: cov, b/p96", "served (moved), adaptive: cov, b/p96");
        for (final ShapeModelSimulation.Named named : ShapeModelSimulation.SHAPES) {
            for (final PortBand band : PortBand.values()) {
                final Cell nominal = cells.get("nominal|" + named.name() + "|" + band);
                final Cell adaptive = cells.get("adaptive|" + named.name() + "|" + band);
                if (nominal == null) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "%-12s %-6s | %s | %s | %s%n", named.name(), band.name().toLowerCase(Locale.ROOT),
                    cell(nominal), cell(adaptive), cell(cells.get("relative|" + named.name() + "|" + band)));
            }
        }
        for (final PortBand band : PortBand.values()) {
            System.out.printf(Locale.ROOT, "%-12s %-6s | %s | %s | %s%n", "the 4 shapes", band.name().toLowerCase(Locale.ROOT),
                pooled(cells, "nominal", band), pooled(cells, "adaptive", band), pooled(cells, "relative", band));
        }
        for (final PortBand band : PortBand.values()) {
            System.out.printf(Locale.ROOT, "%-12s %-6s | %s | %s | %s%n", FAMILY, band.name().toLowerCase(Locale.ROOT),
                cell(cells.get("nominal|" + FAMILY + "|" + band)), cell(cells.get("adaptive|" + FAMILY + "|" + band)),
                cell(cells.get("relative|" + FAMILY + "|" + band)));
        }
        for (final PortBand band : PortBand.values()) {
            final Cell nominal = cells.get("nominal|" + TRAINS + "|" + band);
            final Cell adaptive = cells.get("adaptive|" + TRAINS + "|" + band);
            final Cell relative = cells.get("relative|" + TRAINS + "|" + band);
            System.out.printf(Locale.ROOT, "%-12s %-6s |  %5.1f %% of %-8d            |  %5.1f %% of %-8d            |  %5.1f %% of %-8d%n",
                TRAINS, band.name().toLowerCase(Locale.ROOT), 100 * nominal.coverageSum() / nominal.cases(), nominal.cases(),
                100 * adaptive.coverageSum() / adaptive.cases(), adaptive.cases(), 100 * relative.coverageSum() / relative.cases(),
                relative.cases());
        }
    }

    private static String pooled(final Map<String, Cell> cells, final String method, final PortBand band) {
        Cell sum = new Cell(0, 0, 0);
        for (final ShapeModelSimulation.Named named : ShapeModelSimulation.SHAPES) {
            final Cell cell = cells.get(method + "|" + named.name() + "|" + band);
            if (cell != null) {
                sum = new Cell(sum.coverageSum() + cell.coverageSum(), sum.logRatioSum() + cell.logRatioSum(),
                    sum.cases() + cell.cases());
            }
        }
        return cell(sum);
    }

    private static String cell(final Cell cell) {
        return String.format(Locale.ROOT, "%5.1f %%  %5.2f                 ", 100 * cell.coverageSum() / cell.cases(),
            Math.exp(cell.logRatioSum() / cell.cases()));
    }
}
