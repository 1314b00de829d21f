package org.latencyserver.core.input;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Typed, fault-reporting access to one mapping of an input: each getter returns the value, or the
 * fallback when the key is absent, or reports a fault naming the key path, the place and the bad
 * value (and then returns the fallback or null, so that checking goes on and every fault is found
 * in one pass). These are the common checks of every reader: unknown keys (with the closest known
 * key suggested), required keys, numbers in a range, a word from a fixed set.
 *
 * <p>Not thread-safe: one reader, one thread.
 */
public final class InputMapping {

    /** Decimal numbers only: YAML 1.1 would read 010 as octal and 0x1F as hex. */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(0|[1-9][0-9_]*)(\\.[0-9_]*)?([eE][-+]?[0-9]+)?"
        + "|[-+]?\\.[0-9][0-9_]*([eE][-+]?[0-9]+)?");

    private final InputNode map;
    private final String path;
    private final InputFaults faults;

    /**
     * @param map    a {@link InputNode.Kind#MAP} node
     * @param path   its key path, {@code ""} for the root
     * @param faults where faults are reported
     * @throws IllegalArgumentException when {@code map} is not a mapping
     */
    public InputMapping(final InputNode map, final String path, final InputFaults faults) {
        if (map.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("expected a mapping node, was " + map.describe());
        }
        this.map = map;
        this.path = path;
        this.faults = faults;
    }

    /**
     * @param root   a document's root
     * @param what   what the document is, for the fault when it is not a mapping (e.g. "a scenario")
     * @param faults where faults are reported
     * @return the root as a mapping, or null when it is not one (reported, unless already reported as invalid)
     */
    public static InputMapping root(final InputNode root, final String what, final InputFaults faults) {
        if (root.kind() == InputNode.Kind.MAP) {
            return new InputMapping(root, "", faults);
        }
        if (root.kind() != InputNode.Kind.INVALID) {
            faults.at(root, "file", root.kind() == InputNode.Kind.NULL ? "the file is empty; expected " + what
                : "expected " + what + " (a mapping of keys to values), was " + root.describe());
        }
        return null;
    }

    /** @return the mapping's node (its line is that of its first key in a YAML block mapping) */
    public InputNode node() {
        return map;
    }

    /** @return this mapping's key path, e.g. {@code nodes[0].snmp} */
    public String path() {
        return path;
    }

    /** @return the key path of {@code key} in this mapping */
    public String pathOf(final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** @return the faults this mapping reports to */
    public InputFaults faults() {
        return faults;
    }

    /** @return whether the key is present with a value other than an explicit null */
    public boolean has(final String key) {
        final InputNode node = map.fields().get(key);
        return node != null && node.kind() != InputNode.Kind.NULL;
    }

    /** @return the key's value node, or null */
    public InputNode value(final String key) {
        return map.fields().get(key);
    }

    /** Reports a fault at the key's value (or at the mapping when the key is absent). */
    public void fault(final String key, final String reason) {
        final InputNode node = map.fields().get(key);
        faults.at(node == null ? map : node, pathOf(key), reason);
    }

    /** Reports a fault at the key itself (not its value); the key must be present. */
    public void faultAtKey(final String key, final String reason) {
        final int[] at = map.keyLocation(key);
        faults.add(at[0], at[1], pathOf(key), reason);
    }

    /**
     * Reports every key not in {@code known}: keys that belong elsewhere with {@code elsewhere}'s
     * explanation, others with the closest known key, or the list of known keys when none is close.
     *
     * @param known     the keys this mapping may hold
     * @param elsewhere keys that are valid in other mappings, with where they belong
     */
    public void allowOnly(final Set<String> known, final Map<String, String> elsewhere) {
        allowOnly(known, elsewhere, Map.of());
    }

    /**
     * As {@link #allowOnly(Set, Map)}, and a key in {@code refused} is reported with its reason as
     * given, whatever else it is (e.g. a secret, whose value must not be repeated). Refused keys are
     * never suggested for a misspelt one.
     *
     * @param known     the keys this mapping may hold
     * @param elsewhere keys that are valid in other mappings, with where they belong
     * @param refused   keys that are never accepted here, each with the whole reason of its fault
     */
    public void allowOnly(final Set<String> known, final Map<String, String> elsewhere, final Map<String, String> refused) {
        for (final String key : map.fields().keySet()) {
            if (known.contains(key)) {
                continue;
            }
            final String reason;
            if (refused.containsKey(key)) {
                reason = refused.get(key);
            } else if (elsewhere.containsKey(key)) {
                reason = "'" + key + "' does not belong here: " + elsewhere.get(key);
            } else {
                final String suggestion = KeySuggestion.closest(key, known);
                reason = "unknown key '" + key + "'" + (suggestion != null ? " - did you mean '" + suggestion + "'?"
                    : "; the keys here are " + String.join(", ", new TreeSet<>(known)));
            }
            faultAtKey(key, reason);
        }
    }

    /** @see #allowOnly(Set, Map) */
    public void allowOnly(final Set<String> known) {
        allowOnly(known, Map.of());
    }

    /** @return the nested mapping, or null when absent, null-valued or not a mapping (reported) */
    public InputMapping section(final String key) {
        final InputNode node = valueOfKind(key, InputNode.Kind.MAP, "a mapping of keys to values");
        return node == null ? null : new InputMapping(node, pathOf(key), faults);
    }

    /** @return the items of the nested list; empty when absent or not a list (reported) */
    public List<InputNode> list(final String key) {
        final InputNode node = valueOfKind(key, InputNode.Kind.LIST, "a list (items starting with '- ')");
        return node == null ? List.of() : node.items();
    }

    /** @return the items of a list of mappings, one each; items that are not mappings are reported */
    public List<InputMapping> sections(final String key) {
        final List<InputMapping> sections = new ArrayList<>();
        final List<InputNode> items = list(key);
        for (int i = 0; i < items.size(); i++) {
            final InputNode item = items.get(i);
            final String itemPath = pathOf(key) + "[" + i + "]";
            if (item.kind() == InputNode.Kind.MAP) {
                sections.add(new InputMapping(item, itemPath, faults));
            } else if (item.kind() != InputNode.Kind.INVALID) {
                faults.at(item, itemPath, "expected a mapping of keys to values, was " + item.describe());
            }
        }
        return sections;
    }

    /**
     * Checks that a required key has a value; when not, reports it at this mapping's place
     * (unless the value was already reported as invalid).
     *
     * @param what what the key is for, in the fault
     * @return whether the key has a value
     */
    public boolean require(final String key, final String what) {
        if (has(key)) {
            return true;
        }
        if (!isInvalid(key)) {
            faults.at(map, pathOf(key), "missing: " + what);
        }
        return false;
    }

    /**
     * @return the text, or {@code fallback} when absent or bad (reported); any scalar is taken as
     *         written, so {@code name: 123} is the text "123"
     */
    public String text(final String key, final String fallback) {
        final InputNode node = valueOfKind(key, InputNode.Kind.SCALAR, "a text");
        if (node == null) {
            return fallback;
        }
        if (node.text().isBlank()) {
            faults.at(node, pathOf(key), "must not be empty, was '" + node.text() + "'");
            return fallback;
        }
        return node.text();
    }

    /** @return the text, or null when missing or bad (reported); {@code what} says what the key is for */
    public String requiredText(final String key, final String what) {
        return require(key, what) ? text(key, null) : null;
    }

    /** @return the boolean, or {@code fallback} when absent or bad (reported) */
    public boolean bool(final String key, final boolean fallback) {
        final InputNode node = map.fields().get(key);
        if (isAbsent(node)) {
            return fallback;
        }
        if (node.kind() != InputNode.Kind.SCALAR || node.scalarType() != InputNode.ScalarType.BOOLEAN) {
            faults.at(node, pathOf(key), "expected true or false, was " + node.describe());
            return fallback;
        }
        return node.booleanValue();
    }

    /**
     * @return the whole number within {@code minimum..maximum}, {@code fallback} when absent, or
     *         null when bad (reported)
     */
    public Long integer(final String key, final Long fallback, final long minimum, final long maximum) {
        final InputNode node = map.fields().get(key);
        if (isAbsent(node)) {
            return isInvalid(key) ? null : fallback;
        }
        return integerIn(node, pathOf(key), minimum, maximum);
    }

    /** @return the whole number, or null when missing or bad (reported) */
    public Long requiredInteger(final String key, final long minimum, final long maximum, final String what) {
        return require(key, what) ? integer(key, null, minimum, maximum) : null;
    }

    /**
     * Checks any node (a mapping's value, a list's item) as a whole number in decimal.
     *
     * @param node    the node
     * @param where   its key path, for the fault
     * @return the whole number within {@code minimum..maximum}, or null when bad (reported)
     */
    public static Long integerIn(final InputNode node, final String where, final long minimum, final long maximum,
                                 final InputFaults faults) {
        final BigDecimal value = number(node, where, "a whole number", faults);
        if (value == null) {
            return null;
        }
        if (value.stripTrailingZeros().scale() > 0) {
            faults.at(node, where, "expected a whole number, was '" + node.text() + "'");
            return null;
        }
        if (value.compareTo(BigDecimal.valueOf(minimum)) < 0 || value.compareTo(BigDecimal.valueOf(maximum)) > 0) {
            faults.at(node, where, "must be " + minimum + ".." + maximum + ", was " + node.text());
            return null;
        }
        return value.longValueExact();
    }

    private Long integerIn(final InputNode node, final String where, final long minimum, final long maximum) {
        return integerIn(node, where, minimum, maximum, faults);
    }

    /**
     * @return the number within {@code minimum..maximum} (the lower end open or closed as said),
     *         {@code fallback} when absent, or null when bad (reported)
     */
    public Double decimal(final String key, final Double fallback, final double minimum, final boolean minimumOpen,
                          final double maximum) {
        final InputNode node = map.fields().get(key);
        if (isAbsent(node)) {
            return isInvalid(key) ? null : fallback;
        }
        final BigDecimal value = number(node, pathOf(key), "a number", faults);
        if (value == null) {
            return null;
        }
        final double v = value.doubleValue();
        final boolean aboveMinimum = minimumOpen ? v > minimum : v >= minimum;
        if (!aboveMinimum || !(v <= maximum)) {
            faults.at(node, pathOf(key), "must be in " + (minimumOpen ? "(" : "[") + plain(minimum) + ", " + plain(maximum)
                + "], was " + node.text());
            return null;
        }
        return v;
    }

    /**
     * @param words the accepted words, lower case, and what each stands for
     * @return the chosen value, {@code fallback} when absent, or null when bad (reported)
     */
    public <E> E choice(final String key, final E fallback, final Map<String, E> words) {
        final InputNode node = map.fields().get(key);
        if (isAbsent(node)) {
            return isInvalid(key) ? null : fallback;
        }
        if (node.kind() == InputNode.Kind.SCALAR) {
            final E value = words.get(node.text().toLowerCase(Locale.ROOT));
            if (value != null) {
                return value;
            }
        }
        faults.at(node, pathOf(key), "must be one of " + String.join(" | ", new TreeSet<>(words.keySet())) + ", was "
            + node.describe());
        return null;
    }

    /**
     * @param what the expected kind in words, for the fault
     * @return the key's value when it is of {@code kind}; null when absent, null-valued or already
     *         reported as invalid, or of another kind (reported as "expected {@code what}, was ...")
     */
    private InputNode valueOfKind(final String key, final InputNode.Kind kind, final String what) {
        final InputNode node = map.fields().get(key);
        if (isAbsent(node)) {
            return null;
        }
        if (node.kind() != kind) {
            faults.at(node, pathOf(key), "expected " + what + ", was " + node.describe());
            return null;
        }
        return node;
    }

    private static boolean isAbsent(final InputNode node) {
        return node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID;
    }

    private boolean isInvalid(final String key) {
        final InputNode node = map.fields().get(key);
        return node != null && node.kind() == InputNode.Kind.INVALID;
    }

    private static BigDecimal number(final InputNode node, final String where, final String what, final InputFaults faults) {
        if (node.kind() != InputNode.Kind.SCALAR) {
            faults.at(node, where, "expected " + what + ", was " + node.describe());
            return null;
        }
        final String text = node.text().trim();
        if (node.scalarType() == InputNode.ScalarType.TEXT) {
            faults.at(node, where, "expected " + what + ", was the text '" + node.text() + "'"
                + (DECIMAL.matcher(text).matches() ? " (remove the quotes)" : ""));
            return null;
        }
        if (!DECIMAL.matcher(text).matches()) {
            faults.at(node, where, "expected " + what + " written in decimal, was '" + node.text() + "'"
                + (text.matches("[-+]?0[0-9_]+") ? " (YAML reads a leading 0 as octal: drop it)" : ""));
            return null;
        }
        return new BigDecimal(text.replace("_", ""));
    }

    private static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
