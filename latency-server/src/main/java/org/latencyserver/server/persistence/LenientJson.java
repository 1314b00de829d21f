package org.latencyserver.server.persistence;

import java.util.List;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputNode;

/**
 * Reading the saved state's JSON as the server wrote it over the years: the format has grown field
 * by field, so a field an older writer left out reads as its default; a field every version wrote
 * is required, and its absence or wrong type is an {@link IllegalArgumentException} whose message
 * starts with the field's name.
 *
 * <p>Stateless and thread-safe.
 */
final class LenientJson {

    private LenientJson() {
    }

    /** @return the field's node, or null when absent or an explicit null */
    static InputNode field(final InputNode node, final String field) {
        final InputNode value = node.fields().get(field);
        return value == null || value.kind() == InputNode.Kind.NULL ? null : value;
    }

    /** @return whether the field is present, even as an explicit null */
    static boolean has(final InputNode node, final String field) {
        return node.fields().containsKey(field);
    }

    /** @return the field's value, or the mapping itself (for a fault's place) when the field is absent */
    static InputNode placeOf(final InputNode map, final String field) {
        final InputNode value = map.fields().get(field);
        return value == null ? map : value;
    }

    /** @return the items of the array at {@code field}; none when absent or not an array */
    static List<InputNode> items(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        return value == null ? List.of() : value.items();
    }

    /** @return a scalar's text, or {@code fallback} when absent, null or not a scalar */
    static String text(final InputNode node, final String field, final String fallback) {
        final InputNode value = field(node, field);
        return value == null || value.kind() != InputNode.Kind.SCALAR ? fallback : value.text();
    }

    /** @return true for {@code true} (or the text "true"), false otherwise */
    static boolean bool(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        return value != null && (value.scalarType() == InputNode.ScalarType.BOOLEAN ? value.booleanValue()
            : value.isText() && "true".equals(value.text()));
    }

    static long longOr(final InputNode node, final String field, final long fallback) {
        final InputNode value = field(node, field);
        return value == null || !value.isNumber() ? fallback : wholeOf(value);
    }

    static double doubleOr(final InputNode node, final String field, final double fallback) {
        final InputNode value = field(node, field);
        return value == null || !value.isNumber() ? fallback : doubleOf(value);
    }

    /** @throws IllegalArgumentException "{@code field}: expected a whole number" when it is absent, no integer or beyond an int */
    static int requiredInt(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        final Double number = value == null || !value.isIntegral() ? null : numberOf(value);
        if (number == null || number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(field + ": expected a whole number");
        }
        return number.intValue();
    }

    /** @throws IllegalArgumentException "{@code field}: expected a number" when it is absent or no number */
    static double number(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException(field + ": expected a number");
        }
        return doubleOf(value);
    }

    /**
     * @return the whole number of at least 1 at {@code field}, or 0 when it is not one (reported
     *         to {@code faults} at the field, or at the mapping when it is absent)
     */
    static long positiveLong(final InputNode node, final String field, final InputFaults faults) {
        final InputNode value = node.fields().get(field);
        final Double number = value == null ? null : numberOf(value);
        if (number == null || number != Math.rint(number) || number < 1 || number >= 0x1p63) {
            faults.at(placeOf(node, field), field, "expected a whole number of at least 1");
            return 0;
        }
        return wholeOf(value);
    }

    /** @return the numbers of an array; none when absent */
    static double[] doubles(final InputNode array) {
        if (array == null) {
            return new double[0];
        }
        if (array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException("expected an array of numbers, found " + array.describe());
        }
        final double[] values = new double[array.items().size()];
        for (int i = 0; i < values.length; i++) {
            final InputNode value = array.items().get(i);
            if (!value.isNumber()) {
                throw new IllegalArgumentException("expected numbers, found " + value.describe());
            }
            values[i] = doubleOf(value);
        }
        return values;
    }

    /** @return a number's value, or null when the node is no number */
    static Double numberOf(final InputNode value) {
        return value.isNumber() ? doubleOf(value) : null;
    }

    /** @return a number's value (NaN and the infinities included), 0 for what is no number */
    static double doubleOf(final InputNode value) {
        return value.isNumber() ? value.doubleValue() : 0.0;
    }

    /** A number as a long: exact for an integer, truncated for a decimal; 0 for what is no number. */
    static long wholeOf(final InputNode value) {
        if (!value.isNumber()) {
            return 0;
        }
        if (value.isIntegral()) {
            try {
                return Long.parseLong(value.text());
            } catch (NumberFormatException tooLarge) {
                return value.text().startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
        }
        return (long) doubleOf(value);
    }
}
