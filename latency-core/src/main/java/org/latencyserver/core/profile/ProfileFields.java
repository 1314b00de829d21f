package org.latencyserver.core.profile;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputNode;

/**
 * Reads single fields of one profile document and reports each fault at its location: the key
 * path as faults name it, and the line and column of the node that path leads to (or of the
 * nearest enclosing node, for a missing field). Each reading method reports its own fault and
 * returns null on a fault. One instance serves one document; not thread-safe.
 */
final class ProfileFields {

    /** One step of a key path: a field name or a list index. */
    private static final Pattern PATH_STEP = Pattern.compile("([^.\\[]+)|\\[(\\d+)\\]");

    private final InputFaults faults;
    private final InputNode root;

    /**
     * @param faults where faults are collected
     * @param root   the document's root node, which key paths start from
     */
    ProfileFields(final InputFaults faults, final InputNode root) {
        this.faults = faults;
        this.root = root;
    }

    /** @return how many faults the document has so far (a reader compares it before and after a part) */
    int faultCount() {
        return faults.count();
    }

    /** Reports a value over a size limit at the node its location names. */
    void overSizeLimit(final String location, final String reason) {
        faults.overSizeLimit(nodeAt(location), location, reason);
    }

    void knownFields(final InputNode node, final String where, final Set<String> known) {
        for (final String name : node.fields().keySet()) {
            if (!known.contains(name)) {
                final int[] at = node.keyLocation(name);
                faults.add(at[0], at[1], path(where, name), "unknown field '" + name + "'; expected one of " + new TreeSet<>(known));
            }
        }
    }

    InputNode field(final InputNode node, final String where, final String name, final boolean required) {
        final InputNode value = node.fields().get(name);
        if (value == null || (isNull(value) && !required)) {
            if (required) {
                fault(path(where, name), "missing required field '" + name + "'");
            }
            return null;
        }
        return value;
    }

    String text(final InputNode node, final String where, final String name, final boolean required) {
        final InputNode value = field(node, where, name, required);
        if (value == null) {
            return null;
        }
        if (!value.isText() || value.text().isBlank()) {
            fault(path(where, name), "expected a non-empty string, found " + found(value));
            return null;
        }
        return value.text();
    }

    InputNode object(final InputNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, InputNode.Kind.MAP, "an object");
    }

    /**
     * An object field whose own fields are all known: an unknown one is a fault, and the object is
     * still returned so that its known fields are checked too.
     *
     * @return the object, or null when it is missing or not an object (a fault when required or not an object)
     */
    InputNode knownObject(final InputNode node, final String where, final String name, final boolean required,
                                  final Set<String> known) {
        final InputNode value = object(node, where, name, required);
        if (value != null) {
            knownFields(value, path(where, name), known);
        }
        return value;
    }

    InputNode array(final InputNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, InputNode.Kind.LIST, "an array");
    }

    /** @return the field when it is of the given kind, else null (a fault when it is present or required) */
    InputNode container(final InputNode node, final String where, final String name, final boolean required,
                                final InputNode.Kind kind, final String described) {
        final InputNode value = field(node, where, name, required);
        if (value != null && value.kind() != kind) {
            fault(path(where, name), "expected " + described + ", found " + found(value));
            return null;
        }
        return value;
    }

    Long integer(final InputNode node, final String where, final String name, final long minimum, final long maximum) {
        final InputNode value = field(node, where, name, true);
        if (value == null) {
            return null;
        }
        final Long v = wholeNumber(value);
        if (v == null) {
            fault(path(where, name), "expected a whole number, found " + found(value));
            return null;
        }
        if (v < minimum || v > maximum) {
            fault(path(where, name), (maximum >= Integer.MAX_VALUE ? "must be >= " + minimum : "must be " + minimum + ".." + maximum)
                + ", was " + v);
            return null;
        }
        return v;
    }

    /** A finite number, {@code > 0} when {@code strictlyPositive}, else {@code >= 0}. */
    Double positiveNumber(final InputNode node, final String where, final String name, final boolean required,
                                  final boolean strictlyPositive) {
        final InputNode value = field(node, where, name, required);
        if (value == null) {
            return null;
        }
        if (!value.isNumber()) {
            fault(path(where, name), "expected a number, found " + found(value));
            return null;
        }
        final double v = value.doubleValue();
        if (!Double.isFinite(v)) {
            fault(path(where, name), "must be a finite number, was " + v);
            return null;
        }
        if (strictlyPositive ? v <= 0 : v < 0) {
            fault(path(where, name), "must be " + (strictlyPositive ? "> 0" : ">= 0") + ", was " + v);
            return null;
        }
        return v;
    }

    /** Reports a fault at the node its location names, or at the nearest enclosing one that exists (for a missing field). */
    void fault(final String location, final String reason) {
        faults.at(nodeAt(location), location, reason);
    }

    /**
     * @param location a key path as faults name it, e.g. {@code cells[3] (0-33/67-100, 256 B).histogram.counts[7]}
     * @return the deepest node of the document on that path (the root for {@code $})
     */
    InputNode nodeAt(final String location) {
        // The cell's name in parentheses is for the reader of the fault, not part of the path.
        final Matcher step = PATH_STEP.matcher(location.replaceAll(" \\([^)]*\\)", ""));
        InputNode node = root;
        while (step.find()) {
            final InputNode next;
            if (step.group(1) != null) {
                next = node.fields().get(step.group(1));
            } else {
                final int index = Integer.parseInt(step.group(2));
                next = index < node.items().size() ? node.items().get(index) : null;
            }
            if (next == null) {
                break;
            }
            node = next;
        }
        return node;
    }

    static String path(final String where, final String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    static boolean isObject(final InputNode node) {
        return node.kind() == InputNode.Kind.MAP;
    }

    static boolean isNull(final InputNode node) {
        return node.kind() == InputNode.Kind.NULL;
    }

    /** @return the value of an integer written without fraction or exponent that fits a long, else null */
    static Long wholeNumber(final InputNode node) {
        if (!node.isIntegral()) {
            return null;
        }
        try {
            return Long.parseLong(node.text());
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }

    /** What was found instead, with the value itself for a scalar: {@code string "ten"}, {@code null}, {@code array}. */
    static String found(final InputNode node) {
        final String value = switch (node.kind()) {
            case MAP -> "object";
            case LIST -> "array";
            case NULL, INVALID -> "null";
            case SCALAR -> switch (node.scalarType()) {
                // Quoted and escaped as JSON writes it, so the value reads as it stood in the file.
                case TEXT -> "string \"" + node.text().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
                case NUMBER -> "number " + node.text();
                case BOOLEAN -> "boolean " + node.text();
            };
        };
        return value.length() > 60 ? value.substring(0, 57) + "..." : value;
    }
}
