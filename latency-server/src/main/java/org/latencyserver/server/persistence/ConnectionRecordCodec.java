package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.bool;
import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.has;
import static org.latencyserver.server.persistence.LenientJson.items;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;
import static org.latencyserver.server.persistence.LenientJson.text;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.persistence.JsonFieldTable.Field;
import org.latencyserver.server.table.ComposedBound;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.ServedEstimate;

/**
 * One connection's record in the state file and the journal, written, read and compared by one
 * table of fields ({@link JsonFieldTable}): each field has its JSON name, how it is written from a
 * row, how it is read back, and the row's value it stands for — compared for
 * {@link #sameRecordButReadings}, so a field added to the table counts there too, unless it is one
 * of the MIB readings.
 *
 * <p>The record (a contract: operators read it with {@code jq}, a restarted server restores it):
 * {@code index_ref}, {@code qos}, {@code message_size_bytes}, {@code latest} and {@code previous}
 * ({@code [client, peer, port]} percent, -1 unknown), {@code estimate}, {@code unavailable_reason},
 * {@code measurement_wanted}, {@code measurement} (with its histogram), {@code source},
 * {@code data_epoch_millis}, {@code correction}, {@code thesis_estimate} (the thesis's value behind
 * the served estimate; absent when it is the served estimate), {@code composed_bound} (a QoS 2 bound of a path with
 * two or more loaded ports: {@code {"served": "union bound"|"independent hops", "union_ms": .., "independent_ms": ..}},
 * the method served and both methods' values, {@code independent_ms} 0 when it could not be had; absent otherwise and in
 * older records) and {@code states} (per load state:
 * last measurement, correction, calibration tallies; {@link StateKnowledgeJson}), {@code pooled_level_miss_fraction} (with {@code pooled_level_blocks}, the blocks it
 * learned from), {@code pattern_levels} (each port pattern's level and blocks, which a young state borrows from before
 * the pooled level) and
 * {@code class_excess} (each shape class's excess over its state's level; {@link ClassExcessJson}) and
 * {@code shape_model} (every traffic shape's excess over its state's bound, a regression; {@link ShapeModelJson}) and
 * {@code shape_mean_model} (every traffic shape's mean over its state's thesis mean, a regression; {@link ShapeMeanModelJson})
 * and {@code shape_model_level} (the level the shape model's score quantile is read at, per port band;
 * {@link ShapeModelLevelJson}).
 *
 * <p>A journal line abbreviates what did not change since that connection's previous record (in the
 * state file or an earlier journal line) — the histograms, which are most of a record:
 * {@code "measurement_as_before":true} in place of {@code measurement};
 * {@code {"cpu_state":..,"port_state":..,"as_before":true}} for a load state whose knowledge is
 * unchanged; {@code "last_measurement_as_before":true} in place of a state's
 * {@code last_measurement}. Only parts that are the very same objects are abbreviated; a record
 * written without an earlier one (every record of a state file) is whole.
 *
 * <p>Reading is lenient with what older versions left out ({@link LenientJson}) and throws
 * {@link IllegalArgumentException} at a record's first fault, naming the field and what was wrong.
 *
 * <p>Stateless and thread-safe.
 */
final class ConnectionRecordCodec {

    /** What was saved of one connection. */
    record SavedConnection(short indexRef, int qos, int messageSizeBytes, MibReading latest, MibReading previous,
                           Estimate estimate, String unavailableReason, boolean measurementWanted,
                           Measurement measurement, ServedEstimate served, Learning learning) {
    }


    private static final Field<ConnectionRow, Draft> INDEX_REF = new Field<>("index_ref", row -> row.spec().indexRef(),
        (c, name, row, earlier) -> c.put(name, row.spec().indexRef()),
        (c, name, d) -> {
            d.indexRef = (short) requiredInt(c, name);
            d.before = d.earlier.get(d.indexRef);
        });
    private static final Field<ConnectionRow, Draft> QOS = new Field<>("qos", row -> row.spec().qos(),
        (c, name, row, earlier) -> c.put(name, row.spec().qos()),
        (c, name, d) -> d.qos = requiredInt(c, name));
    private static final Field<ConnectionRow, Draft> MESSAGE_SIZE = new Field<>("message_size_bytes", row -> row.spec().messageSizeBytes(),
        (c, name, row, earlier) -> c.put(name, row.spec().messageSizeBytes()),
        (c, name, d) -> d.messageSizeBytes = requiredInt(c, name));
    private static final Field<ConnectionRow, Draft> LATEST = new Field<>("latest", null,
        (c, name, row, earlier) -> RecordPartsJson.writeMib(c.putArray(name), row.latest()),
        (c, name, d) -> d.latest = RecordPartsJson.readMib(field(c, name)));
    private static final Field<ConnectionRow, Draft> PREVIOUS = new Field<>("previous", null,
        (c, name, row, earlier) -> RecordPartsJson.writeMib(c.putArray(name), row.previous()),
        (c, name, d) -> d.previous = RecordPartsJson.readMib(field(c, name)));
    private static final Field<ConnectionRow, Draft> ESTIMATE = new Field<>("estimate", ConnectionRow::estimate,
        (c, name, row, earlier) -> {
            if (row.estimate() != null) {
                RecordPartsJson.writeEstimate(c.putObject(name), row.estimate());
            }
        },
        (c, name, d) -> d.estimate = has(c, name) ? RecordPartsJson.readEstimate(field(c, name)) : null);
    private static final Field<ConnectionRow, Draft> UNAVAILABLE_REASON = new Field<>("unavailable_reason",
        ConnectionRow::unavailableReason,
        (c, name, row, earlier) -> {
            if (row.unavailableReason() != null) {
                c.put(name, row.unavailableReason());
            }
        },
        (c, name, d) -> d.unavailableReason = has(c, name) ? text(c, name, null) : null);
    private static final Field<ConnectionRow, Draft> MEASUREMENT_WANTED = new Field<>("measurement_wanted", ConnectionRow::updateRequired,
        (c, name, row, earlier) -> c.put(name, row.updateRequired()),
        (c, name, d) -> d.measurementWanted = bool(c, name));
    private static final Field<ConnectionRow, Draft> MEASUREMENT = new Field<>("measurement", ConnectionRow::measurement,
        ConnectionRecordCodec::writeMeasurement, ConnectionRecordCodec::readMeasurement);
    /** Written as the source's wire word; absent in the oldest records, where the estimate and the QoS imply it. */
    private static final Field<ConnectionRow, Draft> SOURCE = new Field<>("source", row -> row.served().source(),
        (c, name, row, earlier) -> c.put(name, row.served().source().word()),
        (c, name, d) -> d.source = sourceOf(text(c, name, null), name, d));
    private static final Field<ConnectionRow, Draft> DATA_EPOCH = new Field<>("data_epoch_millis", row -> row.served().dataEpochMillis(),
        (c, name, row, earlier) -> c.put(name, row.served().dataEpochMillis()),
        (c, name, d) -> d.dataEpochMillis = longOr(c, name, 0));
    private static final Field<ConnectionRow, Draft> CORRECTION = new Field<>("correction", row -> row.served().correction(),
        (c, name, row, earlier) -> c.put(name, row.served().correction()),
        (c, name, d) -> d.correction = text(c, name, ""));
    /** Absent when it is the served estimate (no correction applied), as reading takes it: 40 % of a QoS 1 record. */
    private static final Field<ConnectionRow, Draft> THESIS = new Field<>("thesis_estimate", row -> row.served().thesis(),
        (c, name, row, earlier) -> {
            final Estimate thesis = row.served().thesis();
            if (thesis != null && !thesis.equals(row.estimate())) {
                RecordPartsJson.writeEstimate(c.putObject(name), thesis);
            }
        },
        (c, name, d) -> d.thesis = has(c, name) ? RecordPartsJson.readEstimate(field(c, name)) : d.estimate);
    /** Absent when nothing was composed, and in records written before it existed. */
    private static final Field<ConnectionRow, Draft> COMPOSED = new Field<>("composed_bound", row -> row.served().composed(),
        (c, name, row, earlier) -> {
            final ComposedBound composed = row.served().composed();
            if (composed != null) {
                final ObjectNode node = c.putObject(name);
                node.put("served", composed.served().word());
                node.put("union_ms", composed.unionMillis());
                node.put("independent_ms", composed.independentMillis());
            }
        },
        (c, name, d) -> d.composed = has(c, name) ? readComposed(field(c, name), name) : null);
    /** Compared as one map: the same map when nothing was learned (a change of load state keeps it), so equals returns at once. */
    private static final Field<ConnectionRow, Draft> STATES = new Field<>("states", row -> row.learning().byState(),
        ConnectionRecordCodec::writeStates, ConnectionRecordCodec::readStates);

    /**
     * The connection's pooled adaptive level (every block of every state), which young states borrow from; absent until
     * it learned a block, and in older files: then it starts at the nominal level again. Read after {@code states}.
     */
    private static final Field<ConnectionRow, Draft> POOLED_LEVEL = new Field<>("pooled_level_miss_fraction",
        row -> row.learning().pooledLevel(),
        (c, name, row, earlier) -> {
            if (row.learning().pooledLevel() != null) {
                c.put(name, row.learning().pooledLevel().missFraction());
            }
        },
        ConnectionRecordCodec::readPooledLevel);

    /**
     * Blocks the pooled level learned from, on which its step may depend; written with the level. Absent
     * in older files: then the sum of the states' covered blocks (each block of a bound taught both). Read after
     * {@code states} and the level.
     */
    private static final Field<ConnectionRow, Draft> POOLED_BLOCKS = new Field<>("pooled_level_blocks",
        row -> row.learning().pooledLevelBlocks(),
        (c, name, row, earlier) -> {
            if (row.learning().pooledLevel() != null) {
                c.put(name, row.learning().pooledLevelBlocks());
            }
        },
        ConnectionRecordCodec::readPooledBlocks);

    /**
     * Each port pattern's level (the load states with the same kind of port state on every hop, {@code PortPatternLevel}), which
     * a young state borrows from before the pooled level: {@code [{"hop_states": ["LOADED", "NORMAL", …], "miss_fraction":
     * α, "blocks": n}, …]}, each hop's kind of port state by name in path order, the patterns in the order of their kinds;
     * absent when none learned a block, and in older files (then every pattern starts at the nominal level again).
     * Damaged — a kind unknown, the same hops twice — the record is refused naming the pattern's place. A pattern with
     * another number of hops than the connection's configured path (its links changed since) is left out, the rest read.
     */
    private static final Field<ConnectionRow, Draft> PATTERN_LEVELS = new Field<>("pattern_levels",
        row -> row.learning().patternLevels(), ConnectionRecordCodec::writePatternLevels,
        ConnectionRecordCodec::readPatternLevels);

    /** Each shape class's excess over its state's level, learned connection-wide ({@link ClassExcessJson}). */
    private static final Field<ConnectionRow, Draft> CLASS_EXCESS = new Field<>("class_excess", row -> row.learning().classExcess(),
        (c, name, row, earlier) -> ClassExcessJson.write(c, name, row.learning().classExcess()),
        (c, name, d) -> d.learning = d.learning.withClassExcess(ClassExcessJson.read(c, name)));

    /** Every traffic shape's excess over its state's bound, a regression learned connection-wide ({@link ShapeModelJson}). */
    private static final Field<ConnectionRow, Draft> SHAPE_MODEL = new Field<>("shape_model", row -> row.learning().shapeModel(),
        (c, name, row, earlier) -> ShapeModelJson.write(c, name, row.learning().shapeModel()),
        (c, name, d) -> d.learning = d.learning.withShapeModel(ShapeModelJson.read(c, name)));

    /** Every traffic shape's mean over its state's thesis mean, learned connection-wide ({@link ShapeMeanModelJson}). */
    private static final Field<ConnectionRow, Draft> SHAPE_MEAN_MODEL = new Field<>("shape_mean_model",
        row -> row.learning().shapeMeanModel(),
        (c, name, row, earlier) -> ShapeMeanModelJson.write(c, name, row.learning().shapeMeanModel()),
        (c, name, d) -> d.learning = d.learning.withShapeMeanModel(ShapeMeanModelJson.read(c, name)));

    /**
     * The level the shape model's score quantile is read at, per port band ({@link ShapeModelLevelJson}); absent until a
     * train taught it and in older files: then the nominal level. Read after {@code estimate} and {@code thesis_estimate}
     * (its bound percent).
     */
    private static final Field<ConnectionRow, Draft> SHAPE_MODEL_LEVEL = new Field<>("shape_model_level",
        row -> row.learning().shapeModelLevel(),
        (c, name, row, earlier) -> ShapeModelLevelJson.write(c, name, row.learning().shapeModelLevel()),
        (c, name, d) -> d.learning = d.learning.withShapeModelLevel(ShapeModelLevelJson.read(c, name, boundPercentOf(d))));

    /** The pooled level's ratios ({@code RatioScores}), oldest first; absent (none) in older files. Read after it. */
    private static final Field<ConnectionRow, Draft> POOLED_RATIOS = new Field<>("pooled_level_ratios",
        row -> row.learning().pooledLevel() == null ? null : row.learning().pooledLevel().ratios(),
        (c, name, row, earlier) -> {
            final AdaptiveQuantileLevel pooled = row.learning().pooledLevel();
            if (pooled != null && pooled.ratios().size() > 0) {
                final ArrayNode array = c.putArray(name);
                for (final double score : pooled.ratios().toArray()) {
                    array.add(score);
                }
            }
        },
        (c, name, d) -> {
            if (has(c, name) && d.learning.pooledLevel() != null) {
                d.learning = d.learning.withPooledLevel(d.learning.pooledLevel().withRatios(
                    org.latencyserver.core.calibration.RatioScores.of(doubles(field(c, name)))));
            }
        });

    /** The pooled level's ratios to a profile's bound, as {@code pooled_level_ratios}; absent (none) in older files. */
    private static final Field<ConnectionRow, Draft> POOLED_PROFILE_RATIOS = new Field<>("pooled_level_profile_ratios",
        row -> row.learning().pooledLevel() == null ? null : row.learning().pooledLevel().profileRatios(),
        (c, name, row, earlier) -> {
            final AdaptiveQuantileLevel pooled = row.learning().pooledLevel();
            if (pooled != null && pooled.profileRatios().size() > 0) {
                final ArrayNode array = c.putArray(name);
                for (final double score : pooled.profileRatios().toArray()) {
                    array.add(score);
                }
            }
        },
        (c, name, d) -> {
            if (has(c, name) && d.learning.pooledLevel() != null) {
                d.learning = d.learning.withPooledLevel(d.learning.pooledLevel().withProfileRatios(
                    org.latencyserver.core.calibration.RatioScores.of(doubles(field(c, name)))));
            }
        });

    /**
     * Written in the file's field order; read so that what a field's reading depends on comes first
     * ({@code index_ref} for the abbreviations; {@code estimate} and {@code qos} for the defaults of
     * {@code thesis_estimate}, {@code source} and the states' bound), in the order a record's faults
     * were always found: its first fault is the one reported.
     */
    private static final JsonFieldTable<ConnectionRow, Draft> FIELDS = new JsonFieldTable<>(
        List.of(INDEX_REF, QOS, MESSAGE_SIZE, LATEST, PREVIOUS, ESTIMATE, UNAVAILABLE_REASON, MEASUREMENT_WANTED, MEASUREMENT, SOURCE,
            DATA_EPOCH, CORRECTION, THESIS, COMPOSED, STATES, POOLED_LEVEL, POOLED_RATIOS, POOLED_PROFILE_RATIOS, CLASS_EXCESS,
            SHAPE_MODEL, SHAPE_MEAN_MODEL, POOLED_BLOCKS, PATTERN_LEVELS, SHAPE_MODEL_LEVEL),
        List.of(INDEX_REF, ESTIMATE, MEASUREMENT, QOS, THESIS, SOURCE, DATA_EPOCH, CORRECTION, COMPOSED, STATES, POOLED_LEVEL, POOLED_RATIOS,
            POOLED_PROFILE_RATIOS, POOLED_BLOCKS, PATTERN_LEVELS, CLASS_EXCESS, SHAPE_MODEL, SHAPE_MEAN_MODEL, SHAPE_MODEL_LEVEL,
            MESSAGE_SIZE,
            LATEST, PREVIOUS, UNAVAILABLE_REASON, MEASUREMENT_WANTED));

    private ConnectionRecordCodec() {
    }

    /**
     * @param row     the connection's row to write
     * @param earlier the row its previous record on disk holds (for a journal line), or null to
     *                write it whole; only parts that are the very same objects are abbreviated
     * @return one connection's record
     */
    static ObjectNode encode(final ConnectionRow row, final ConnectionRow earlier) {
        final ObjectNode record = JsonNodeFactory.instance.objectNode();
        FIELDS.write(record, row, earlier);
        return record;
    }

    /**
     * @param record           one connection's record
     * @param earlier          what the records before it hold, by {@code index_ref}: where the
     *                         abbreviations of a journal line ({@code *_as_before}) are taken from
     * @param maxHistogramBins the most bins (and batch means) a saved measurement may have
     * @return the connection
     * @throws IllegalArgumentException naming the place in the record and the fault
     */
    static SavedConnection decode(final InputNode record, final Map<Short, SavedConnection> earlier, final int maxHistogramBins) {
        return decode(record, earlier, maxHistogramBins, indexRef -> 0);
    }

    /**
     * As {@link #decode(InputNode, Map, int)}, a port pattern of another number of hops than the connection's path left out.
     *
     * @param hopCountOf the hops of the configured connection of an {@code index_ref} ({@code ConnectionSpec#hopCount}), or
     *                   0 when it is not configured (its patterns' hops are then not checked)
     * @throws IllegalArgumentException as there, and when a port pattern has another number of hops than the path
     */
    static SavedConnection decode(final InputNode record, final Map<Short, SavedConnection> earlier, final int maxHistogramBins,
                                  final java.util.function.IntUnaryOperator hopCountOf) {
        if (record.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("expected a connection's record (a JSON object), found " + record.describe());
        }
        final Draft draft = new Draft(earlier, maxHistogramBins, hopCountOf);
        FIELDS.read(record, draft);
        return draft.build();
    }

    /**
     * Whether the records {@link #encode} writes for the two rows differ in their MIB readings
     * ({@code latest}, {@code previous}) alone. What a row holds but a record does not — the load
     * state (a restart classifies it afresh from {@code latest}), the stale reason, when the state
     * was entered, an open request's ticket — does not count.
     *
     * @return true when only the readings would be written differently
     */
    static boolean sameRecordButReadings(final ConnectionRow before, final ConnectionRow after) {
        return FIELDS.sameInComparedFields(before, after);
    }

    /**
     * @param word the record's source word, or null when it has none
     * @return its source; when absent, what the estimate and the QoS imply
     * @throws IllegalArgumentException naming the field and the word when no source has it
     */
    private static EstimateSource sourceOf(final String word, final String name, final Draft d) {
        if (word == null) {
            return d.estimate == null ? EstimateSource.NONE : d.qos <= 2 ? EstimateSource.PROFILE : EstimateSource.MEASUREMENT;
        }
        return EstimateSource.fromWord(word).orElseThrow(() -> new IllegalArgumentException(name + ": unknown source '" + word
            + "'; expected one of " + Arrays.stream(EstimateSource.values()).map(s -> "'" + s.word() + "'").toList()));
    }

    private static void writeMeasurement(final ObjectNode c, final String name, final ConnectionRow row, final ConnectionRow earlier) {
        RecordPartsJson.writeMeasurementAgainst(c, name, row.measurement(), earlier == null ? null : earlier.measurement());
    }

    private static void readMeasurement(final InputNode c, final String name, final Draft d) {
        d.measurement = RecordPartsJson.readMeasurementAgainst(c, name, d.before == null ? null : d.before.measurement(),
            "no earlier record of connection " + d.indexRef + " holds a measurement", d.maxHistogramBins);
    }

    private static void writeStates(final ObjectNode c, final String name, final ConnectionRow row, final ConnectionRow earlier) {
        final ArrayNode states = c.putArray(name);
        row.learning().byState().forEach((state, known) -> {
            final StateKnowledge before = earlier == null ? null : earlier.learning().byState().get(state);
            final ObjectNode node = states.addObject();
            RecordPartsJson.writeLoadState(node, state);
            if (before == known) {
                node.put("as_before", true);
            } else {
                StateKnowledgeJson.write(node, known, before);
            }
        });
    }

    private static double boundPercentOf(final Draft d) {
        return d.estimate != null && d.estimate.kind() == EstimateKind.BOUND ? d.estimate.boundPercent()
            : d.thesis != null && d.thesis.kind() == EstimateKind.BOUND ? d.thesis.boundPercent() : 0.0;
    }

    private static void readPooledLevel(final InputNode c, final String name, final Draft d) {
        final double boundPercent = boundPercentOf(d);
        if (!has(c, name) || !(boundPercent > 0 && boundPercent < 100)) {
            return;
        }
        final AdaptiveQuantileLevel fresh = AdaptiveQuantileLevel.start(boundPercent);
        d.learning = d.learning.withPooledLevel(new AdaptiveQuantileLevel(fresh.targetMissFraction(), number(c, name),
            fresh.stepPerRoundTrip(), fresh.maxBlockWeight()));
    }

    private static void readPooledBlocks(final InputNode c, final String name, final Draft d) {
        if (d.learning.pooledLevel() == null) {
            return;
        }
        if (has(c, name)) {
            final double blocks = number(c, name);
            if (!(blocks >= 0) || blocks != Math.rint(blocks)) {
                throw new IllegalArgumentException(name + " must be a whole number >= 0, was " + blocks);
            }
            d.learning = d.learning.withPooledLevelBlocks((long) blocks);
            return;
        }
        long blocks = 0;
        for (final org.latencyserver.core.calibration.StateKnowledge state : d.learning.byState().values()) {
            blocks += state.coverage().blocks();
        }
        d.learning = d.learning.withPooledLevelBlocks(blocks);
    }

    private static void writePatternLevels(final ObjectNode c, final String name, final ConnectionRow row,
                                           final ConnectionRow earlier) {
        final Map<List<PortState.Kind>, PortPatternLevel> patterns = row.learning().patternLevels();
        if (patterns.isEmpty()) {
            return;
        }
        final List<List<PortState.Kind>> keys = new ArrayList<>(patterns.keySet());
        keys.sort(PATTERN_ORDER);
        final ArrayNode array = c.putArray(name);
        for (final List<PortState.Kind> hops : keys) {
            final PortPatternLevel pattern = patterns.get(hops);
            final ObjectNode node = array.addObject();
            final ArrayNode kinds = node.putArray("hop_states");
            hops.forEach(hop -> kinds.add(hop.name()));
            node.put("miss_fraction", pattern.level().missFraction());
            node.put("blocks", pattern.blocks());
        }
    }

    /** Patterns by their hops' kinds (in the kinds' declared order), hop by hop, the shorter first. */
    private static final java.util.Comparator<List<PortState.Kind>> PATTERN_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            final int byHop = a.get(i).compareTo(b.get(i));
            if (byHop != 0) {
                return byHop;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private static void readPatternLevels(final InputNode c, final String name, final Draft d) {
        final double boundPercent = boundPercentOf(d);
        if (!has(c, name) || !(boundPercent > 0 && boundPercent < 100)) {
            return;
        }
        final InputNode array = field(c, name);
        if (array == null || array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException(name + ": expected an array of port patterns, found "
                + (array == null ? "null" : array.describe()));
        }
        final AdaptiveQuantileLevel fresh = AdaptiveQuantileLevel.start(boundPercent);
        final int pathHops = d.hopCountOf.applyAsInt(d.indexRef);
        final Map<List<PortState.Kind>, Integer> seenAt = new java.util.HashMap<>();
        final List<InputNode> patterns = array.items();
        for (int p = 0; p < patterns.size(); p++) {
            final InputNode pattern = patterns.get(p);
            if (pattern.kind() != InputNode.Kind.MAP) {
                throw new IllegalArgumentException(name + "[" + p + "]: expected an object, found " + pattern.describe());
            }
            final List<PortState.Kind> hops;
            try {
                hops = hopKinds(items(pattern, "hop_states"));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + "[" + p + "]." + e.getMessage(), e);
            }
            if (pathHops > 0 && hops.size() != pathHops) {
                // Written for another path (the connection's links changed since): not damage, only of no use now.
                continue;
            }
            final Integer earlier = seenAt.putIfAbsent(hops, p);
            if (earlier != null) {
                throw new IllegalArgumentException(name + "[" + p + "]: the same hops as " + name + "[" + earlier + "]");
            }
            try {
                final double missFraction = number(pattern, "miss_fraction");
                if (!Double.isFinite(missFraction) || missFraction > fresh.maxMissFraction()) {
                    throw new IllegalArgumentException("miss_fraction: expected a finite number at most "
                        + fresh.maxMissFraction() + ", was " + missFraction);
                }
                final double blocks = number(pattern, "blocks");
                if (!(blocks >= 0) || blocks != Math.rint(blocks) || blocks >= 0x1p63) {
                    throw new IllegalArgumentException("blocks: must be a whole number >= 0, was " + blocks);
                }
                d.learning = d.learning.withPatternLevel(hops, new PortPatternLevel(new AdaptiveQuantileLevel(
                    fresh.targetMissFraction(), missFraction, fresh.stepPerRoundTrip(), fresh.maxBlockWeight()), (long) blocks));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + "[" + p + "]." + e.getMessage(), e);
            }
        }
    }

    /**
     * @param kinds    a pattern's {@code hop_states}: each hop's kind by name, in path order
     * @return the kinds
     * @throws IllegalArgumentException starting with the place within the pattern ("hop_states…")
     */
    private static List<PortState.Kind> hopKinds(final List<InputNode> kinds) {
        final int most = org.latencyserver.server.table.ConnectionSpec.MAX_HOPS;
        if (kinds.isEmpty() || kinds.size() > most) {
            throw new IllegalArgumentException("hop_states: expected 1.." + most + " hops, found " + kinds.size());
        }
        final List<PortState.Kind> hops = new ArrayList<>(kinds.size());
        for (int h = 0; h < kinds.size(); h++) {
            final InputNode kind = kinds.get(h);
            final String word = kind.kind() == InputNode.Kind.SCALAR ? kind.text() : null;
            final PortState.Kind known = word == null ? null : java.util.Arrays.stream(PortState.Kind.values())
                .filter(k -> k.name().equals(word)).findFirst().orElse(null);
            if (known == null) {
                throw new IllegalArgumentException("hop_states[" + h + "]: expected a port state kind, one of "
                    + java.util.Arrays.toString(PortState.Kind.values()) + ", found " + kind.describe());
            }
            hops.add(known);
        }
        return hops;
    }

    private static void readStates(final InputNode c, final String name, final Draft d) {
        final double boundPercent = boundPercentOf(d);
        final List<InputNode> states = items(c, name);
        for (int s = 0; s < states.size(); s++) {
            try {
                final InputNode state = states.get(s);
                final ConnectionLoadState load = RecordPartsJson.readLoadState(state);
                final StateKnowledge known = d.before == null ? null : d.before.learning().byState().get(load);
                if (bool(state, "as_before")) {
                    if (known == null) {
                        throw new IllegalArgumentException("as_before: no earlier record of connection " + d.indexRef
                            + " holds this load state");
                    }
                    d.learning = d.learning.with(load, known);
                } else {
                    d.learning = d.learning.with(load, StateKnowledgeJson.read(state, boundPercent, d.maxHistogramBins, known));
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + "[" + s + "]: " + e.getMessage(), e);
            }
        }
    }

    /**
     * @param node the {@code composed_bound} object
     * @param name its field name, for the fault
     * @throws IllegalArgumentException naming the field when the method is unknown or a value out of range
     */
    private static ComposedBound readComposed(final InputNode node, final String name) {
        if (node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException(name + ": expected an object, found " + node.describe());
        }
        final String word = text(node, "served", null);
        final BoundMethod method = BoundMethod.fromWord(word).orElseThrow(() -> new IllegalArgumentException(name
            + ".served: unknown path bound method '" + word + "'"));
        try {
            return new ComposedBound(method, number(node, "union_ms"), number(node, "independent_ms"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /** A record being read: each field's reader fills its part. Confined to one decode. */
    private static final class Draft {
        final Map<Short, SavedConnection> earlier;
        final int maxHistogramBins;
        short indexRef;
        /** The connection's previous record, where the abbreviations point; null when there is none. */
        SavedConnection before;
        int qos;
        int messageSizeBytes;
        MibReading latest;
        MibReading previous;
        Estimate estimate;
        String unavailableReason;
        boolean measurementWanted;
        Measurement measurement;
        Estimate thesis;
        EstimateSource source;
        long dataEpochMillis;
        String correction;
        ComposedBound composed;
        Learning learning = Learning.NONE;

        /** The hops of the configured connection of an {@code index_ref}, 0 when unknown. */
        final java.util.function.IntUnaryOperator hopCountOf;

        Draft(final Map<Short, SavedConnection> earlier, final int maxHistogramBins,
              final java.util.function.IntUnaryOperator hopCountOf) {
            this.earlier = earlier;
            this.maxHistogramBins = maxHistogramBins;
            this.hopCountOf = hopCountOf;
        }

        SavedConnection build() {
            return new SavedConnection(indexRef, qos, messageSizeBytes, latest, previous, estimate, unavailableReason,
                measurementWanted, measurement, new ServedEstimate(thesis, null, source, dataEpochMillis, correction, composed), learning);
        }
    }
}
