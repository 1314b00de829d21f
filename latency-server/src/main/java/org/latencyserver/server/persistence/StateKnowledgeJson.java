package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubleOf;
import static org.latencyserver.server.persistence.LenientJson.doubleOr;
import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.has;
import static org.latencyserver.server.persistence.LenientJson.items;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.wholeOf;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.calibration.DriftDetector;
import org.latencyserver.core.calibration.GroupLevels;
import org.latencyserver.core.calibration.MeanCorrection;
import org.latencyserver.core.calibration.MeanErrorTally;
import org.latencyserver.core.calibration.NextBurstWidth;
import org.latencyserver.core.calibration.RatioScores;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.server.persistence.JsonFieldTable.Field;

/**
 * One load state's knowledge in a connection record's {@code states}, after the load state's own
 * fields: its last measurement, the mean correction and the calibration tallies, by one table of
 * fields ({@link JsonFieldTable}). The last measurement is written as
 * {@code "last_measurement_as_before":true} when the previous record's knowledge of the state holds
 * the very same object. The drift detector is not saved: a restart starts it quiet.
 *
 * <p>Stateless and thread-safe.
 */
final class StateKnowledgeJson {

    private static final Field<StateKnowledge, Draft> LAST_MEASUREMENT = new Field<>("last_measurement", null,
        StateKnowledgeJson::writeLastMeasurement, StateKnowledgeJson::readLastMeasurement);
    private static final Field<StateKnowledge, Draft> LAST_MEASURED = new Field<>("last_measured_epoch_millis", null,
        (n, name, k, before) -> n.put(name, k.lastMeasuredEpochMillis()),
        (n, name, d) -> d.lastMeasuredEpochMillis = longOr(n, name, 0));
    private static final Field<StateKnowledge, Draft> MEASUREMENTS = new Field<>("measurements", null,
        (n, name, k, before) -> n.put(name, k.measurements()),
        (n, name, d) -> d.measurements = longOr(n, name, 0));
    /** Only for a bound, which has a level; read over a fresh level for the connection's bound. */
    private static final Field<StateKnowledge, Draft> LEVEL = new Field<>("level_miss_fraction", null,
        (n, name, k, before) -> {
            if (k.level() != null) {
                n.put(name, k.level().missFraction());
            }
        },
        (n, name, d) -> {
            final AdaptiveQuantileLevel fresh = StateKnowledge.fresh(d.boundPercent).level();
            d.level = fresh == null || !has(n, name) ? fresh
                : new AdaptiveQuantileLevel(fresh.targetMissFraction(), number(n, name), fresh.stepPerRoundTrip(), fresh.maxBlockWeight());
        });
    /**
     * The level's ratios of round trips to the thesis's bound they followed ({@code RatioScores}), oldest first; only for
     * a bound, written once it learned some; absent (none) in older files. Read after {@code level_miss_fraction}.
     */
    private static final Field<StateKnowledge, Draft> LEVEL_RATIOS = new Field<>("level_ratios", null,
        (n, name, k, before) -> {
            if (k.level() != null && k.level().ratios().size() > 0) {
                final ArrayNode array = n.putArray(name);
                for (final double score : k.level().ratios().toArray()) {
                    array.add(score);
                }
            }
        },
        (n, name, d) -> {
            if (d.level != null && has(n, name)) {
                d.level = d.level.withRatios(RatioScores.of(doubles(field(n, name))));
            }
        });
    /** The level's ratios to a profile's bound, as {@code level_ratios}; absent (none) in older files. */
    private static final Field<StateKnowledge, Draft> LEVEL_PROFILE_RATIOS = new Field<>("level_profile_ratios", null,
        (n, name, k, before) -> {
            if (k.level() != null && k.level().profileRatios().size() > 0) {
                final ArrayNode array = n.putArray(name);
                for (final double score : k.level().profileRatios().toArray()) {
                    array.add(score);
                }
            }
        },
        (n, name, d) -> {
            if (d.level != null && has(n, name)) {
                d.level = d.level.withProfileRatios(RatioScores.of(doubles(field(n, name))));
            }
        });
    /**
     * Blocks behind the state's own level; absent in files written before levels borrowed from the pooled one, then
     * taken as the coverage's blocks (what the level had learned from, as near as is known).
     */
    private static final Field<StateKnowledge, Draft> LEVEL_BLOCKS = new Field<>("level_blocks", null,
        (n, name, k, before) -> {
            if (k.level() != null) {
                n.put(name, k.groups().stateBlocks());
            }
        },
        (n, name, d) -> d.levelBlocks = longOr(n, name, -1));
    /**
     * Each traffic shape class's level: {@code [{"spacing_range":0,"burst_range":2,"call":"arrays","miss_fraction":0.04,
     * "blocks":12}, …]}, the ranges as {@link ShapeClass} numbers them; absent (none) in older files.
     */
    private static final Field<StateKnowledge, Draft> SHAPE_LEVELS = new Field<>("shape_levels", null,
        StateKnowledgeJson::writeShapeLevels, StateKnowledgeJson::readShapeLevels);
    private static final Field<StateKnowledge, Draft> MEAN_LOG_FACTOR = new Field<>("mean_log_factor", null,
        (n, name, k, before) -> n.put(name, k.meanCorrection().logFactor()),
        (n, name, d) -> d.meanLogFactor = number(n, name));
    private static final Field<StateKnowledge, Draft> MEAN_LOG_SQUARE = new Field<>("mean_log_square", null,
        (n, name, k, before) -> n.put(name, k.meanCorrection().logSquareMean()),
        (n, name, d) -> d.meanLogSquare = doubleOr(n, name, 0.0));
    private static final Field<StateKnowledge, Draft> MEAN_WINDOWS = new Field<>("mean_windows", null,
        (n, name, k, before) -> n.put(name, k.meanCorrection().windows()),
        (n, name, d) -> d.meanWindows = longOr(n, name, 0));
    /** The mean correction's last field: reading it builds (and checks) the correction. */
    private static final Field<StateKnowledge, Draft> MEAN_LOG_RESIDUALS = new Field<>("mean_log_residuals", null,
        (n, name, k, before) -> writeDoubles(n.putArray(name), k.meanCorrection().logResiduals()),
        (n, name, d) -> d.meanCorrection = new MeanCorrection(d.meanLogFactor, d.meanLogSquare, d.meanWindows,
            RecentValues.of(doubles(field(n, name)))));
    private static final Field<StateKnowledge, Draft> COVERAGE = new Field<>("coverage", null,
        (n, name, k, before) -> {
            final CoverageTally t = k.coverage();
            n.putArray(name).add(t.blocks()).add(t.roundTrips()).add(t.hits()).add(t.sumSquaredN()).add(t.sumSquaredHits())
                .add(t.sumHitsTimesN());
        },
        (n, name, d) -> d.coverage = readCoverage(field(n, name)));
    private static final Field<StateKnowledge, Draft> ERROR_WINDOWS = new Field<>("error_windows", null,
        (n, name, k, before) -> n.put(name, k.meanErrors().windows()),
        (n, name, d) -> d.errorWindows = longOr(n, name, 0));
    private static final Field<StateKnowledge, Draft> ERROR_INSIDE = new Field<>("error_inside_interval", null,
        (n, name, k, before) -> n.put(name, k.meanErrors().insideInterval()),
        (n, name, d) -> d.errorInsideInterval = longOr(n, name, 0));
    private static final Field<StateKnowledge, Draft> RELATIVE_ERRORS = new Field<>("relative_errors", null,
        (n, name, k, before) -> writeDoubles(n.putArray(name), k.meanErrors().relativeErrors()),
        (n, name, d) -> d.relativeErrors = RecentValues.of(doubles(field(n, name))));
    private static final Field<StateKnowledge, Draft> DRIFT_ALARMS = new Field<>("drift_alarms", null,
        (n, name, k, before) -> n.put(name, k.driftAlarms()),
        (n, name, d) -> d.driftAlarms = longOr(n, name, 0));
    private static final Field<StateKnowledge, Draft> PROBE_WINDOWS = new Field<>("probe_windows", null,
        (n, name, k, before) -> n.put(name, k.probeWindows()),
        (n, name, d) -> d.probeWindows = longOr(n, name, 0));

    /**
     * A QoS 3 state's calibration of its next-burst prediction interval, an object: {@code miss_fraction} (α_t),
     * {@code windows}, {@code inside}, {@code mean_squared_log_error}, {@code mean_inverse_round_trips}, {@code shared_windows}
     * and {@code scores} (oldest first). Written only once something was learned; absent (a file from before it was kept, or a bound's state)
     * reads as nothing learned.
     */
    private static final Field<StateKnowledge, Draft> BURST_WIDTH = new Field<>("next_burst_width", null,
        StateKnowledgeJson::writeBurstWidth, (n, name, d) -> d.burstWidth = readBurstWidth(field(n, name)));

    /** Read in the order a state's faults were always found: its first fault is the one reported. */
    private static final JsonFieldTable<StateKnowledge, Draft> FIELDS = new JsonFieldTable<>(
        List.of(LAST_MEASUREMENT, LAST_MEASURED, MEASUREMENTS, LEVEL, MEAN_LOG_FACTOR, MEAN_LOG_SQUARE, MEAN_WINDOWS,
            MEAN_LOG_RESIDUALS, COVERAGE, ERROR_WINDOWS, ERROR_INSIDE, RELATIVE_ERRORS, DRIFT_ALARMS, PROBE_WINDOWS, LEVEL_BLOCKS,
            SHAPE_LEVELS, BURST_WIDTH, LEVEL_RATIOS, LEVEL_PROFILE_RATIOS),
        List.of(LAST_MEASUREMENT, LEVEL, LEVEL_RATIOS, LEVEL_PROFILE_RATIOS, COVERAGE, LAST_MEASURED, MEASUREMENTS, MEAN_LOG_FACTOR, MEAN_LOG_SQUARE, MEAN_WINDOWS,
            MEAN_LOG_RESIDUALS, ERROR_WINDOWS, ERROR_INSIDE, RELATIVE_ERRORS, DRIFT_ALARMS, PROBE_WINDOWS, LEVEL_BLOCKS,
            SHAPE_LEVELS, BURST_WIDTH));

    private StateKnowledgeJson() {
    }

    /**
     * @param node   the state's element of {@code states}, its load state already written
     * @param before the previous record's knowledge of this state, or null
     */
    static void write(final ObjectNode node, final StateKnowledge knowledge, final StateKnowledge before) {
        FIELDS.write(node, knowledge, before);
    }

    /**
     * @param boundPercent the bound the connection serves (0 for a mean), which a fresh level starts from
     * @param before       the previous record's knowledge of this state, where
     *                     {@code last_measurement_as_before} points; or null
     * @throws IllegalArgumentException naming the field and the fault
     */
    static StateKnowledge read(final InputNode node, final double boundPercent, final int maxHistogramBins,
                               final StateKnowledge before) {
        final Draft draft = new Draft(boundPercent, before, maxHistogramBins);
        FIELDS.read(node, draft);
        final GroupLevels groups = draft.level == null ? GroupLevels.EMPTY
            : new GroupLevels(draft.levelBlocks >= 0 ? draft.levelBlocks : draft.coverage.blocks(), draft.shapeLevels);
        return new StateKnowledge(draft.lastMeasurement, draft.lastMeasuredEpochMillis, draft.measurements, draft.level,
            draft.meanCorrection, draft.coverage, new MeanErrorTally(draft.errorWindows, draft.errorInsideInterval,
                draft.relativeErrors), DriftDetector.QUIET, draft.driftAlarms, draft.probeWindows, groups,
                draft.burstWidth);
    }

    private static void writeShapeLevels(final ObjectNode n, final String name, final StateKnowledge k, final StateKnowledge before) {
        if (k.level() == null) {
            return;
        }
        final ArrayNode array = n.putArray(name);
        k.groups().byClass().entrySet().stream()
            .sorted(java.util.Comparator.comparingInt(e -> e.getKey().wireCode()))
            .forEach(e -> array.addObject().put("spacing_range", e.getKey().spacingRange()).put("burst_range", e.getKey().burstRange())
                .put("call", e.getKey().call().word()).put("miss_fraction", e.getValue().level().missFraction())
                .put("blocks", e.getValue().blocks()));
    }

    private static void readShapeLevels(final InputNode n, final String name, final Draft d) {
        final List<InputNode> classes = items(n, name);
        if (d.level == null || classes.isEmpty()) {
            return;
        }
        if (classes.size() > GroupLevels.MAX_CLASSES) {
            throw new IllegalArgumentException(name + ": " + classes.size() + " shape classes, at most " + GroupLevels.MAX_CLASSES);
        }
        for (int i = 0; i < classes.size(); i++) {
            final InputNode c = classes.get(i);
            try {
                final ShapeClass shape = ClassExcessJson.shapeClass(c);
                final long blocks = ClassExcessJson.blocks(c);
                final AdaptiveQuantileLevel level = new AdaptiveQuantileLevel(d.level.targetMissFraction(), number(c, "miss_fraction"),
                    d.level.stepPerRoundTrip(), d.level.maxBlockWeight());
                d.shapeLevels.put(shape, new GroupLevels.ClassLevel(level, blocks));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + "[" + i + "]: " + e.getMessage(), e);
            }
        }
    }

    private static void writeLastMeasurement(final ObjectNode n, final String name, final StateKnowledge k,
                                             final StateKnowledge before) {
        RecordPartsJson.writeMeasurementAgainst(n, name, k.lastMeasurement(), before == null ? null : before.lastMeasurement());
    }

    private static void readLastMeasurement(final InputNode n, final String name, final Draft d) {
        d.lastMeasurement = RecordPartsJson.readMeasurementAgainst(n, name, d.before == null ? null : d.before.lastMeasurement(),
            "no earlier record holds a measurement of this state", d.maxHistogramBins);
    }

    private static void writeBurstWidth(final ObjectNode n, final String name, final StateKnowledge k,
                                        final StateKnowledge before) {
        final NextBurstWidth width = k.burstWidth();
        if (width.equals(NextBurstWidth.START)) {
            return;
        }
        final ObjectNode node = n.putObject(name);
        node.put("miss_fraction", width.missFraction());
        node.put("windows", width.windows());
        node.put("inside", width.inside());
        node.put("mean_squared_log_error", width.meanSquaredLogError());
        node.put("mean_inverse_round_trips", width.meanInverseRoundTrips());
        node.put("shared_windows", width.sharedWindows());
        writeDoubles(node.putArray("scores"), width.scores());
    }

    private static NextBurstWidth readBurstWidth(final InputNode w) {
        if (w == null) {
            return NextBurstWidth.START;
        }
        if (w.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("next_burst_width: expected an object, found " + w.describe());
        }
        try {
            final double[] scores = doubles(field(w, "scores"));
            for (final double score : scores) {
                if (!(score >= 0)) {
                    throw new IllegalArgumentException("a score must be >= 0, was " + score);
                }
            }
            return new NextBurstWidth(RecentValues.of(scores), number(w, "miss_fraction"), longOr(w, "windows", 0),
                longOr(w, "inside", 0), doubleOr(w, "mean_squared_log_error", 0.0), doubleOr(w, "mean_inverse_round_trips", 0.0),
                longOr(w, "shared_windows", 0));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("next_burst_width: " + e.getMessage(), e);
        }
    }

    private static void writeDoubles(final ArrayNode array, final RecentValues values) {
        for (final double value : values.toArray()) {
            array.add(value);
        }
    }

    private static CoverageTally readCoverage(final InputNode c) {
        if (c == null || c.kind() != InputNode.Kind.LIST || c.items().size() != 6) {
            throw new IllegalArgumentException("coverage: expected [blocks, round trips, hits, sum n^2, sum k^2, sum k n]");
        }
        final List<InputNode> tally = c.items();
        final CoverageTally coverage = new CoverageTally(wholeOf(tally.get(0)), wholeOf(tally.get(1)), wholeOf(tally.get(2)),
            doubleOf(tally.get(3)), doubleOf(tally.get(4)), doubleOf(tally.get(5)));
        if (coverage.hits() < 0 || coverage.hits() > coverage.roundTrips() || coverage.blocks() < 0) {
            throw new IllegalArgumentException("coverage: hits " + coverage.hits() + " of " + coverage.roundTrips() + " round trips");
        }
        return coverage;
    }

    /** A state's knowledge being read: each field's reader fills its part. Confined to one read. */
    private static final class Draft {
        /** The bound the connection serves (0 for a mean): a fresh level's, which a saved level is read over. */
        final double boundPercent;
        final StateKnowledge before;
        final int maxHistogramBins;
        Measurement lastMeasurement;
        long lastMeasuredEpochMillis;
        long measurements;
        AdaptiveQuantileLevel level;
        double meanLogFactor;
        double meanLogSquare;
        long meanWindows;
        MeanCorrection meanCorrection;
        CoverageTally coverage;
        long errorWindows;
        long errorInsideInterval;
        RecentValues relativeErrors;
        long driftAlarms;
        long probeWindows;
        /** -1 when the file has none. */
        long levelBlocks = -1;
        final Map<ShapeClass, GroupLevels.ClassLevel> shapeLevels = new HashMap<>();
        NextBurstWidth burstWidth = NextBurstWidth.START;

        Draft(final double boundPercent, final StateKnowledge before, final int maxHistogramBins) {
            this.boundPercent = boundPercent;
            this.before = before;
            this.maxHistogramBins = maxHistogramBins;
        }
    }
}
