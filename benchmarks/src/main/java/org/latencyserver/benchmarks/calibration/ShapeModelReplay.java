package org.latencyserver.benchmarks.calibration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.benchmarks.accuracy.BurstRecord;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * Replays an accuracy run's recorded application bursts ({@code bursts.jsonl} of {@code EstimateAccuracyHarness})
 * through the shape model, prequentially: each burst is first covered by the bound the model (taught by the bursts
 * before it) would give its shape, then teaches the model. It compares, on real round trips, the state's bound alone,
 * the model's own bound over the state's ({@link ShapeExcessModel#boundFactor}) and the bound served, moved to what
 * the band's trains showed ({@link ShapeExcessModel#servedBoundFactor}), each with its own adaptive level
 * ({@link ShapeModelLevel}) learned from its own misses, as the server learns it, and the served one at the nominal level.
 *
 * <p>The state's bound {@code B} of a burst is the one its record names ("the state's bound X ms" in a shape model's
 * correction), else the bound served for it. The application's bursts stand in for the server's probe trains (the
 * model's real teachers, not recorded): the same family of shapes, sent in the same states.
 *
 * <p>Usage: {@code ShapeModelReplay BURSTS_JSONL [QUALITY=2] [BOUND_PERCENT=96]}; prints coverage and the median bound
 * over the true quantile per port band and shape.
 */
public final class ShapeModelReplay {

    private static final Pattern STATE_BOUND = Pattern.compile("the state's bound ([0-9.]+) ms");
    private static final String[] METHODS = {"state's bound alone", "model's own bound", "moved to its trains (served)",
        "moved, at the nominal level"};

    private ShapeModelReplay() {
    }

    /** One cell's round trips and each method's hits and bounds. */
    private static final class Cell {
        private final List<Double> roundTripsMillis = new ArrayList<>();
        private final long[] hits = new long[METHODS.length];
        private final List<List<Double>> boundsMillis = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
            new ArrayList<>());
    }

    public static void main(final String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ShapeModelReplay BURSTS_JSONL [QUALITY=2] [BOUND_PERCENT=96]");
            System.exit(2);
        }
        final int quality = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        final double boundPercent = args.length > 2 ? Double.parseDouble(args[2]) : 96.0;
        final double nominal = 1.0 - boundPercent / 100.0;
        final long[] edges = ShapeModelSimulation.logEdges();
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        ShapeModelLevel ownLevel = ShapeModelLevel.start(boundPercent);
        ShapeModelLevel relativeLevel = ShapeModelLevel.start(boundPercent);
        final Map<String, Cell> cells = new TreeMap<>();
        int replayed = 0;
        for (final BurstRecord burst : BurstRecord.readAll(Path.of(args[0]))) {
            if (burst.quality() != quality || !burst.estimateAvailable() || !"BOUND".equals(burst.kind())
                || burst.rttNanos().length == 0) {
                continue;
            }
            final double[] values = new double[burst.rttNanos().length];
            for (int i = 0; i < values.length; i++) {
                values[i] = burst.rttNanos()[i];
            }
            final Matcher named = STATE_BOUND.matcher(burst.correction() == null ? "" : burst.correction());
            final double stateBoundNanos = 1e6 * (named.find() ? Double.parseDouble(named.group(1)) : burst.valueMs());
            if (!(stateBoundNanos > 0)) {
                continue;
            }
            final TrafficShape shape = new TrafficShape(Math.max(TrafficShape.MIN_SPACING_MICROS, burst.spacingMicros()),
                values.length, 0, "octets".equals(burst.call()) ? CallKind.OCTETS : CallKind.ARRAYS);
            final PortBand band = burst.portState() >= 95 ? PortBand.LOADED : PortBand.IDLE;
            final LatencyHistogram roundTrips = ShapeModelSimulation.histogram(edges, values);
            final Cell cell = cells.computeIfAbsent(band + " " + burst.shape(), k -> new Cell());
            final double[] bounds = {stateBoundNanos, stateBoundNanos, stateBoundNanos, stateBoundNanos};
            if (model.fitted()) {
                bounds[1] = stateBoundNanos * model.boundFactor(shape, band, ownLevel.quantileMissFraction(band));
                bounds[2] = stateBoundNanos * model.servedBoundFactor(shape, band,
                    relativeLevel.quantileMissFraction(band), nominal);
                bounds[3] = stateBoundNanos * model.servedBoundFactor(shape, band, nominal, nominal);
                final ShapeExcessModel before = model;
                final DoubleToLongFunction ownMisses = alpha -> {
                    final double bound = stateBoundNanos * before.boundFactor(shape, band,
                        ShapeModelLevel.quantileMissFraction(alpha, ShapeModelBound.HIGHEST_MISS_FRACTION));
                    return values.length - roundTrips.countAtOrBelow(Math.round(Math.min(bound, Long.MAX_VALUE / 2.0)));
                };
                ownLevel = ownLevel.observe(band, values.length, ownMisses);
                relativeLevel = relativeLevel.observe(band, values.length,
                    ShapeModelBound.missesAt(before, shape, band, stateBoundNanos, roundTrips, nominal));
            }
            for (final double value : values) {
                cell.roundTripsMillis.add(value / 1e6);
                for (int m = 0; m < METHODS.length; m++) {
                    cell.hits[m] += value <= bounds[m] ? 1 : 0;
                }
            }
            for (int m = 0; m < METHODS.length; m++) {
                cell.boundsMillis.get(m).add(bounds[m] / 1e6);
            }
            model = model.observe(shape, roundTrips, stateBoundNanos, band);
            replayed++;
        }
        System.out.printf(Locale.ROOT, "%s: QoS %d bursts replayed %d, bound %.1f %%; the model fitted after %d%n", args[0], quality,
            replayed, boundPercent, ShapeExcessModel.MIN_BLOCKS);
        printModel(model, nominal);
        System.out.printf(Locale.ROOT, "%-22s %7s  %s%n", "band shape", "rtts", String.join(" | ", Arrays.stream(METHODS)
            .map(m -> String.format(Locale.ROOT, "%-28s", m + ": cover, ×p" + (int) boundPercent)).toList()));
        for (final Map.Entry<String, Cell> entry : cells.entrySet()) {
            final Cell cell = entry.getValue();
            final double truth = quantile(cell.roundTripsMillis, boundPercent / 100.0);
            final StringBuilder row = new StringBuilder();
            for (int m = 0; m < METHODS.length; m++) {
                row.append(String.format(Locale.ROOT, "%-28s", String.format(Locale.ROOT, "%5.1f %%, %5.2f", 100.0 * cell.hits[m]
                    / cell.roundTripsMillis.size(), quantile(cell.boundsMillis.get(m), 0.5) / truth)));
                row.append(m + 1 < METHODS.length ? " | " : "");
            }
            System.out.printf(Locale.ROOT, "%-22s %7d  %s%n", entry.getKey(), cell.roundTripsMillis.size(), row);
        }
    }

    private static void printModel(final ShapeExcessModel model, final double nominal) {
        final TrafficShape probes = new TrafficShape(2_000, 20, 0, CallKind.ARRAYS);
        for (final PortBand band : PortBand.values()) {
            System.out.printf(Locale.ROOT, "the model at the end, %s port, 20 arrays 2 ms apart: predicted excess %+.3f, spread %.3f,"
                    + " score quantile %.3f, own factor %.3f, served factor %.3f (the mix's log bound %+.3f)%n", band,
                model.predictedLogExcess(probes, band), model.spread().scale(probes, band), model.spread().scoreQuantile(nominal),
                model.boundFactor(probes, band, nominal), model.servedBoundFactor(probes, band, nominal, nominal),
                model.mixLogBound(band, nominal));
        }
    }

    private static double quantile(final List<Double> values, final double share) {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(share * sorted.length))];
    }
}
