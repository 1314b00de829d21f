package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.field;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.input.InputNode;

/**
 * The level a connection's shape model reads its score quantile at ({@link ShapeModelLevel}) in its record,
 * {@code shape_model_level}: {@code {"connection": α, "connection_blocks": n, "idle": α, "idle_blocks": n, "loaded": α,
 * "loaded_blocks": n}}, each α a miss fraction (the level served is {@code 1 − α}), each count the trains that level
 * learned from, each α within the {@link AdaptiveQuantileLevel} floor and ceiling for the bound. Absent until a train
 * taught it, and in older records: then every level starts at the nominal one.
 * The target, step and cap are the connection's bound's defaults, as for the pooled level.
 *
 * <p>Stateless and thread-safe.
 */
final class ShapeModelLevelJson {

    private static final String[] BANDS = {"connection", "idle", "loaded"};

    private ShapeModelLevelJson() {
    }

    /**
     * @param record the record being written
     * @param name   the field's name
     * @param level  what to write; nothing when null (none learned)
     */
    static void write(final ObjectNode record, final String name, final ShapeModelLevel level) {
        if (level == null) {
            return;
        }
        final ObjectNode node = record.putObject(name);
        node.put("connection", level.connection().missFraction());
        node.put("connection_blocks", level.connectionBlocks());
        node.put("idle", level.idle().missFraction());
        node.put("idle_blocks", level.idleBlocks());
        node.put("loaded", level.loaded().missFraction());
        node.put("loaded_blocks", level.loadedBlocks());
    }

    /**
     * @param record       the record being read
     * @param name         the field's name
     * @param boundPercent the connection's bound, percent; outside (0, 100) nothing is read
     * @return the level, or null when absent (or the connection has no bound)
     * @throws IllegalArgumentException naming {@code name} and the part at fault: a part absent or no number, an α not
     *                                  outside {@code [minMissFraction, maxMissFraction]} of a fresh level for the bound
     *                                  (a level never learns outside it), a count not a whole number {@code >= 0}
     */
    static ShapeModelLevel read(final InputNode record, final String name, final double boundPercent) {
        final InputNode node = field(record, name);
        if (node == null || !(boundPercent > 0 && boundPercent < 100)) {
            return null;
        }
        if (node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException(name + ": expected an object, found " + node.describe());
        }
        final AdaptiveQuantileLevel fresh = AdaptiveQuantileLevel.start(boundPercent);
        final AdaptiveQuantileLevel[] levels = new AdaptiveQuantileLevel[BANDS.length];
        final long[] blocks = new long[BANDS.length];
        for (int i = 0; i < BANDS.length; i++) {
            final double alpha = number(node, name, BANDS[i]);
            if (!(alpha >= fresh.minMissFraction() && alpha <= fresh.maxMissFraction())) {
                throw new IllegalArgumentException(name + "." + BANDS[i] + ": must be within [" + fresh.minMissFraction() + ", "
                    + fresh.maxMissFraction() + "], was " + alpha);
            }
            levels[i] = new AdaptiveQuantileLevel(fresh.targetMissFraction(), alpha, fresh.stepPerRoundTrip(),
                fresh.maxBlockWeight());
            final String countName = BANDS[i] + "_blocks";
            final double count = number(node, name, countName);
            if (!(count >= 0) || count != Math.rint(count) || count >= 0x1p63) {
                throw new IllegalArgumentException(name + "." + countName + ": expected a whole number >= 0, was " + count);
            }
            blocks[i] = (long) count;
        }
        return new ShapeModelLevel(levels[0], blocks[0], levels[1], blocks[1], levels[2], blocks[2]);
    }

    private static double number(final InputNode node, final String name, final String part) {
        final InputNode value = field(node, part);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException(name + "." + part + ": expected a number");
        }
        return value.doubleValue();
    }
}
