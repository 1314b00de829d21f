package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.items;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;
import static org.latencyserver.server.persistence.LenientJson.text;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.ClassExcess;
import org.latencyserver.core.calibration.GroupLevels;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * A connection's class excesses ({@link ClassExcess}) in its record, {@code class_excess}: an array of
 * {@code {"spacing_range": 0..5, "burst_range": 0..4, "call": "octets"|"arrays", "miss_fraction": δ, "blocks": n}}
 * sorted by class, absent when nothing was learned (and in older records: then nothing is learned yet).
 *
 * <p>Stateless and thread-safe.
 */
final class ClassExcessJson {

    private ClassExcessJson() {
    }

    /**
     * @param record the record being written
     * @param name   the field's name
     * @param excess what to write; nothing is written when empty
     */
    static void write(final ObjectNode record, final String name, final ClassExcess excess) {
        if (excess.byClass().isEmpty()) {
            return;
        }
        final ArrayNode array = record.putArray(name);
        excess.byClass().entrySet().stream()
            .sorted(java.util.Comparator.comparingInt(e -> e.getKey().wireCode()))
            .forEach(e -> array.addObject().put("spacing_range", e.getKey().spacingRange()).put("burst_range", e.getKey().burstRange())
                .put("call", e.getKey().call().word()).put("miss_fraction", e.getValue().missFraction())
                .put("blocks", e.getValue().blocks()));
    }

    /**
     * @param record the record read
     * @param name   the field's name
     * @return the excesses; {@link ClassExcess#EMPTY} when the field is absent
     * @throws IllegalArgumentException naming the field and the item at fault
     */
    static ClassExcess read(final InputNode record, final String name) {
        final List<InputNode> classes = items(record, name);
        if (classes.size() > GroupLevels.MAX_CLASSES) {
            throw new IllegalArgumentException(name + ": " + classes.size() + " shape classes, at most " + GroupLevels.MAX_CLASSES);
        }
        final Map<ShapeClass, ClassExcess.Offset> byClass = new HashMap<>();
        for (int i = 0; i < classes.size(); i++) {
            final InputNode c = classes.get(i);
            try {
                byClass.put(shapeClass(c), new ClassExcess.Offset(number(c, "miss_fraction"), blocks(c)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + "[" + i + "]: " + e.getMessage(), e);
            }
        }
        return new ClassExcess(byClass);
    }

    /**
     * @param c one class's entry: {@code spacing_range}, {@code burst_range}, {@code call}
     * @return its shape class
     * @throws IllegalArgumentException naming the field that is missing or wrong
     */
    static ShapeClass shapeClass(final InputNode c) {
        final String word = text(c, "call", null);
        final CallKind call = CallKind.fromWord(word).orElseThrow(() ->
            new IllegalArgumentException("call '" + word + "' is neither octets nor arrays"));
        return new ShapeClass(requiredInt(c, "spacing_range"), requiredInt(c, "burst_range"), call);
    }

    /**
     * @param c one class's entry
     * @return its {@code blocks}, {@code >= 0}
     * @throws IllegalArgumentException when missing or negative
     */
    static long blocks(final InputNode c) {
        final long blocks = longOr(c, "blocks", -1);
        if (blocks < 0) {
            throw new IllegalArgumentException("blocks: expected a whole number >= 0");
        }
        return blocks;
    }
}
