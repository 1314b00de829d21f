package org.latencyserver.server.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.input.KeySuggestion;

/**
 * Typed, fault-reporting access to one YAML mapping of the configuration: each getter either
 * returns the value, or the default when the key is absent, or reports a fault naming the key
 * path, the line and the bad value (and then returns the default, so that checking goes on and
 * every fault is found in one pass).
 *
 * <p>Not thread-safe: one loader, one thread.
 */
final class Section {

    /** Keys that would hold a secret, and the key to use instead. */
    private static final Map<String, String> SECRET_KEYS = Map.of(
        "community", "community_env",
        "auth_password", "auth_password_env",
        "priv_password", "priv_password_env",
        "password", "auth_password_env and priv_password_env",
        "auth_key", "auth_password_env",
        "priv_key", "priv_password_env");

    /** Decimal numbers only: YAML 1.1 would read 010 as octal and 0x1F as hex. */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(0|[1-9][0-9_]*)(\\.[0-9_]*)?([eE][-+]?[0-9]+)?"
        + "|[-+]?\\.[0-9][0-9_]*([eE][-+]?[0-9]+)?");

    private final InputNode map;
    private final String path;
    private final InputFaults faults;

    Section(final InputNode map, final String path, final InputFaults faults) {
        this.map = map;
        this.path = path;
        this.faults = faults;
    }

    /** @return the mapping's node (its line is that of its first key) */
    InputNode node() {
        return map;
    }

    /** @return this mapping's key path, e.g. {@code nodes[0].snmp} */
    String path() {
        return path;
    }

    /** @return the key path of {@code key} in this mapping */
    String pathOf(final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** @return whether the key is present with a value other than an explicit null */
    boolean has(final String key) {
        final InputNode node = map.fields().get(key);
        return node != null && node.kind() != InputNode.Kind.NULL;
    }

    /** @return the key's value node, or null */
    InputNode value(final String key) {
        return map.fields().get(key);
    }

    /** Reports a fault at the key's value (or at the mapping when the key is absent). */
    void fault(final String key, final String reason) {
        final InputNode node = map.fields().get(key);
        faults.at(node == null ? map : node, pathOf(key), reason);
    }

    /**
     * Reports every key not in {@code known}: secrets with where to put them instead (the value is
     * never repeated), keys that belong elsewhere with {@code elsewhere}'s explanation, others with
     * the closest known key.
     *
     * @param known     the keys this mapping may hold
     * @param elsewhere keys that are valid in other mappings, with where they belong
     */
    void allowOnly(final Set<String> known, final Map<String, String> elsewhere) {
        for (final String key : map.fields().keySet()) {
            if (known.contains(key)) {
                continue;
            }
            final int[] at = map.keyLocation(key);
            final String reason;
            if (SECRET_KEYS.containsKey(key)) {
                reason = "put secrets in the environment: use " + SECRET_KEYS.get(key)
                    + " (the name of an environment variable that holds it); the value is not repeated here";
            } else if (elsewhere.containsKey(key)) {
                reason = "'" + key + "' does not belong here: " + elsewhere.get(key);
            } else {
                final String suggestion = KeySuggestion.closest(key, known);
                reason = "unknown key '" + key + "'" + (suggestion != null ? " - did you mean '" + suggestion + "'?"
                    : "; the keys here are " + String.join(", ", new TreeSet<>(known)));
            }
            faults.add(at[0], at[1], pathOf(key), reason);
        }
    }

    /** @see #allowOnly(Set, Map) */
    void allowOnly(final Set<String> known) {
        allowOnly(known, Map.of());
    }

    /**
     * @return the nested mapping, or null when absent, null-valued or not a mapping (reported)
     */
    Section section(final String key) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return null;
        }
        if (node.kind() != InputNode.Kind.MAP) {
            faults.at(node, pathOf(key), "expected a mapping of keys to values, was " + node.describe());
            return null;
        }
        return new Section(node, pathOf(key), faults);
    }

    /**
     * @return the items of the nested list; empty when absent or not a list (reported)
     */
    List<InputNode> list(final String key) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return List.of();
        }
        if (node.kind() != InputNode.Kind.LIST) {
            faults.at(node, pathOf(key), "expected a list (items starting with '- '), was " + node.describe());
            return List.of();
        }
        return node.items();
    }

    /** @return the items of a list of mappings, one section each; items that are not mappings are reported */
    List<Section> sections(final String key) {
        final List<Section> sections = new ArrayList<>();
        final List<InputNode> items = list(key);
        for (int i = 0; i < items.size(); i++) {
            final InputNode item = items.get(i);
            final String itemPath = pathOf(key) + "[" + i + "]";
            if (item.kind() == InputNode.Kind.MAP) {
                sections.add(new Section(item, itemPath, faults));
            } else if (item.kind() != InputNode.Kind.INVALID) {
                faults.at(item, itemPath, "expected a mapping of keys to values, was " + item.describe());
            }
        }
        return sections;
    }

    /**
     * Checks that a required key has a value; when not, reports it at this mapping's first line
     * (unless the value was already reported as invalid).
     *
     * @param what what the key is for, in the fault
     * @return whether the key has a value
     */
    boolean require(final String key, final String what) {
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
    String text(final String key, final String fallback) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return fallback;
        }
        if (node.kind() != InputNode.Kind.SCALAR) {
            faults.at(node, pathOf(key), "expected a text, was " + node.describe());
            return fallback;
        }
        if (node.text().isBlank()) {
            faults.at(node, pathOf(key), "must not be empty, was '" + node.text() + "'");
            return fallback;
        }
        return node.text();
    }

    /** @return the text, or null when missing or bad (reported); {@code what} says what the key is for */
    String requiredText(final String key, final String what) {
        return require(key, what) ? text(key, null) : null;
    }

    /** @return the boolean, or {@code fallback} when absent or bad (reported) */
    boolean bool(final String key, final boolean fallback) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
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
    Long integer(final String key, final Long fallback, final long minimum, final long maximum) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return node != null && node.kind() == InputNode.Kind.INVALID ? null : fallback;
        }
        final BigDecimal value = number(node, key, "a whole number");
        if (value == null) {
            return null;
        }
        if (value.stripTrailingZeros().scale() > 0) {
            faults.at(node, pathOf(key), "expected a whole number, was '" + node.text() + "'");
            return null;
        }
        if (value.compareTo(BigDecimal.valueOf(minimum)) < 0 || value.compareTo(BigDecimal.valueOf(maximum)) > 0) {
            faults.at(node, pathOf(key), "must be " + minimum + ".." + maximum + ", was " + node.text());
            return null;
        }
        return value.longValueExact();
    }

    /** @return the whole number, or null when missing or bad (reported) */
    Long requiredInteger(final String key, final long minimum, final long maximum, final String what) {
        return require(key, what) ? integer(key, null, minimum, maximum) : null;
    }

    /**
     * @return the number within {@code minimum..maximum} (each end open or closed as said),
     *         {@code fallback} when absent, or null when bad (reported)
     */
    Double decimal(final String key, final Double fallback, final double minimum, final boolean minimumOpen,
                   final double maximum) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return node != null && node.kind() == InputNode.Kind.INVALID ? null : fallback;
        }
        final BigDecimal value = number(node, key, "a number");
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
    <E> E choice(final String key, final E fallback, final Map<String, E> words) {
        final InputNode node = map.fields().get(key);
        if (node == null || node.kind() == InputNode.Kind.NULL || node.kind() == InputNode.Kind.INVALID) {
            return node != null && node.kind() == InputNode.Kind.INVALID ? null : fallback;
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

    // ---- reads driven by the options table: key, default and range all come from the ServerOption ----

    /** @return the option's whole number within its range; its default when absent; null when bad (reported) */
    Long integer(final ServerOption option) {
        return integer(option, option.defaultWhole());
    }

    /** @return as {@link #integer(ServerOption)}, with a default the table can only describe (e.g. derived from another key) */
    Long integer(final ServerOption option, final Long fallback) {
        final OptionValues.Whole range = option.whole();
        return integer(option.key(), fallback, range.minimum(), range.maximum());
    }

    /** @return the option's number within its interval; its default when absent; null when bad (reported) */
    Double decimal(final ServerOption option) {
        return decimal(option, option.defaultDecimal());
    }

    /** @return as {@link #decimal(ServerOption)}, with the given default */
    Double decimal(final ServerOption option, final Double fallback) {
        final OptionValues.Decimal range = option.decimal();
        return decimal(option.key(), fallback, range.minimum(), range.minimumOpen(), range.maximum());
    }

    /** @return the option's boolean; its default when absent or bad (reported) */
    boolean bool(final ServerOption option) {
        return bool(option.key(), option.defaultFlag());
    }

    /** @return the option's text; its default when absent or bad (reported) */
    String text(final ServerOption option) {
        return text(option.key(), option.defaultString());
    }

    /** Reports every key that is not an option of the mapping at {@code parent} in the table; see {@link #allowOnly(Set, Map)}. */
    void allowOnlyOptionsOf(final String parent, final Map<String, String> elsewhere) {
        allowOnly(ServerOption.keysIn(parent), elsewhere);
    }

    /** @see #allowOnlyOptionsOf(String, Map) */
    void allowOnlyOptionsOf(final String parent) {
        allowOnly(ServerOption.keysIn(parent), Map.of());
    }

    private boolean isInvalid(final String key) {
        final InputNode node = map.fields().get(key);
        return node != null && node.kind() == InputNode.Kind.INVALID;
    }

    private BigDecimal number(final InputNode node, final String key, final String what) {
        if (node.kind() != InputNode.Kind.SCALAR) {
            faults.at(node, pathOf(key), "expected " + what + ", was " + node.describe());
            return null;
        }
        final String text = node.text().trim();
        if (node.scalarType() == InputNode.ScalarType.TEXT) {
            faults.at(node, pathOf(key), "expected " + what + ", was the text '" + node.text() + "'"
                + (DECIMAL.matcher(text).matches() ? " (remove the quotes)" : ""));
            return null;
        }
        if (!DECIMAL.matcher(text).matches()) {
            faults.at(node, pathOf(key), "expected " + what + " written in decimal, was '" + node.text() + "'"
                + (text.matches("[-+]?0[0-9_]+") ? " (YAML reads a leading 0 as octal: drop it)" : ""));
            return null;
        }
        return new BigDecimal(text.replace("_", ""));
    }

    private static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
