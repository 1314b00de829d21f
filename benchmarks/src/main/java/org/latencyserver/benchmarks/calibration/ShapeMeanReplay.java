package org.latencyserver.benchmarks.calibration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.latencyserver.benchmarks.accuracy.BurstRecord;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * A prequential replay of an accuracy run's recorded bursts ({@code bursts.jsonl}) through the shape mean model
 * ({@link ShapeMeanModel}, the product's): each burst of one mean connection that followed a mean of its own state (a
 * measurement, remembered or fresh, or the band's probes: what the server shapes and learns from) is served its
 * thesis mean times its shape's factor once the model is fitted, before any later burst teaches the model. The
 * connection's {@code random} bursts (shapes drawn from the default family, as the client agent's probe trains) stand
 * for the probe windows the server learned from, which the records do not hold; {@code thin} keeps every
 * {@code thin}-th of them (the server learns fewer windows than the harness plays random bursts: its agent skips probe
 * sends while it measures), replayed once per phase and pooled.
 *
 * <p>Each served mean is scored against the pooled mean of the round trips of the same shape that followed it in the
 * same episode (load state and thesis mean unchanged), as the accuracy harness scores it: per port band and shape, the
 * median of |served ÷ pooled − 1|, the median factor and its range.
 *
 * <p>Usage: {@code ShapeMeanReplay bursts.jsonl [thin] [index_ref]} (defaults 1 and 3).
 */
public final class ShapeMeanReplay {

    /** Sources of a mean of the state's own: the only ones the server shapes and learns from. */
    static final Set<String> OWN_STATE_SOURCES = Set.of("measurement", "remembered measurement", "band probes");
    /** The harness's shape whose bursts are drawn from the default family. */
    static final String DRAWN_SHAPE = "random";

    private ShapeMeanReplay() {
    }

    /** One scored burst: its band and shape, the factor served and the served mean over the pooled mean that followed. */
    record Scored(String band, String shape, double factor, double servedOverPooled) {
    }

    /**
     * @param args {@code bursts.jsonl [thin] [index_ref]}
     * @throws IOException when the file cannot be read
     */
    public static void main(final String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ShapeMeanReplay bursts.jsonl [thin] [index_ref]");
            System.exit(2);
        }
        final int thin = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        final int indexRef = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        final List<BurstRecord> bursts = eligible(BurstRecord.readAll(Path.of(args[0])), indexRef);
        final List<Scored> scored = new ArrayList<>();
        long windows = 0;
        final List<String> ridges = new ArrayList<>();
        for (int phase = 0; phase < thin; phase++) {
            final Replay replay = replay(bursts, thin, phase);
            scored.addAll(replay.scored());
            windows += replay.windows();
            ridges.add(String.format(Locale.ROOT, "%.1f", replay.model().ridge()));
        }
        System.out.printf(Locale.ROOT, "%s, connection %d: %d bursts of a mean of the state's own; every %d-th random burst"
            + " teaches (%d phases, %.0f windows each on average); ridge on the slopes at the end %s%n", args[0], indexRef,
            bursts.size(), thin, thin, (double) windows / thin, String.join(", ", ridges));
        print(scored);
    }

    /** @return the connection's bursts of a mean of its own state whose load state held, in order, with a known band */
    static List<BurstRecord> eligible(final List<BurstRecord> all, final int indexRef) {
        final List<BurstRecord> kept = new ArrayList<>();
        for (final BurstRecord burst : all) {
            if (burst.indexRef() == indexRef && burst.estimateAvailable() && "AVERAGE".equals(burst.kind())
                && burst.rttNanos().length > 0 && burst.stateHeld() && burst.portState() >= 0 && burst.thesisValueMs() > 0
                && OWN_STATE_SOURCES.contains(burst.source())) {
                kept.add(burst);
            }
        }
        return kept;
    }

    /** What one replay served, how many windows taught it and the model it ended with. */
    record Replay(List<Scored> scored, long windows, ShapeMeanModel model) {
    }

    static Replay replay(final List<BurstRecord> bursts, final int thin, final int phase) {
        ShapeMeanModel model = ShapeMeanModel.EMPTY;
        final List<Scored> scored = new ArrayList<>();
        long drawn = 0;
        long windows = 0;
        for (int i = 0; i < bursts.size(); i++) {
            final BurstRecord burst = bursts.get(i);
            final PortBand band = burst.portState() >= 91 ? PortBand.LOADED : PortBand.IDLE;
            final TrafficShape shape = new TrafficShape(Math.max(TrafficShape.MIN_SPACING_MICROS, burst.spacingMicros()),
                burst.rttNanos().length, 0, "arrays".equals(burst.call()) ? CallKind.ARRAYS : CallKind.OCTETS);
            if (model.fitted()) {
                final double factor = model.meanFactor(shape, band);
                scored.add(new Scored(band == PortBand.LOADED ? "loaded" : "idle", burst.shape(), factor,
                    burst.thesisValueMs() * factor / pooledMeanMillisFrom(bursts, i)));
            }
            if (DRAWN_SHAPE.equals(burst.shape()) && drawn++ % thin == phase) {
                final long[] rtt = burst.rttNanos();
                final double meanMillis = Arrays.stream(rtt).average().orElseThrow() / 1e6;
                double squares = 0;
                for (final long nanos : rtt) {
                    squares += (nanos / 1e6 - meanMillis) * (nanos / 1e6 - meanMillis);
                }
                final double varianceMillis2 = rtt.length < 2 ? Double.NaN : squares / (rtt.length - 1);
                model = model.observe(shape, rtt.length, meanMillis, varianceMillis2, burst.thesisValueMs(), band);
                windows++;
            }
        }
        return new Replay(scored, windows, model);
    }

    /** @return the pooled mean, ms, of the round trips of burst {@code from}'s shape from it on in its episode */
    static double pooledMeanMillisFrom(final List<BurstRecord> bursts, final int from) {
        final BurstRecord first = bursts.get(from);
        double sumNanos = 0;
        long count = 0;
        for (int i = from; i < bursts.size(); i++) {
            final BurstRecord burst = bursts.get(i);
            if (burst.shape().equals(first.shape()) && burst.cpuState() == first.cpuState()
                && burst.portState() == first.portState() && burst.thesisValueMs() == first.thesisValueMs()) {
                for (final long nanos : burst.rttNanos()) {
                    sumNanos += nanos;
                }
                count += burst.rttNanos().length;
            }
        }
        return sumNanos / count / 1e6;
    }

    private static void print(final List<Scored> scored) {
        final Map<String, List<Scored>> byGroup = new TreeMap<>();
        for (final Scored one : scored) {
            byGroup.computeIfAbsent(one.band() + " " + one.shape(), key -> new ArrayList<>()).add(one);
        }
        System.out.println("band shape          | served | median |served/pooled - 1| | median factor | factor range");
        for (final Map.Entry<String, List<Scored>> group : byGroup.entrySet()) {
            final List<Scored> rows = group.getValue();
            final double[] factors = rows.stream().mapToDouble(Scored::factor).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-19s | %6d | %25.1f %% | %13.3f | %.3f–%.3f%n", group.getKey(), rows.size(),
                100 * median(rows.stream().mapToDouble(row -> Math.abs(row.servedOverPooled() - 1)).toArray()),
                median(factors), factors[0], factors[factors.length - 1]);
        }
        final double[] errors = scored.stream().mapToDouble(row -> Math.abs(row.servedOverPooled() - 1)).toArray();
        final long clamped = scored.stream().filter(row -> Math.abs(Math.log(row.factor())) >= Math.log(ShapeMeanModel.MAX_FACTOR)
            - 1e-9).count();
        final long twiceOff = scored.stream().filter(row -> Math.abs(Math.log(row.servedOverPooled())) > Math.log(2.0)).count();
        System.out.printf(Locale.ROOT, "all %d served: median error %.1f %%, %d more than 2 × off, %d at the clamp%n",
            scored.size(), errors.length == 0 ? Double.NaN : 100 * median(errors), twiceOff, clamped);
    }

    private static double median(final double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle]);
    }
}
