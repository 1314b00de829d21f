package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The operator guide's configuration table, rendered from {@link ServerOption}: one Markdown row per
 * option, in table order. The guide holds this text between {@link #BEGIN} and {@link #END}; a unit
 * test fails when the two differ, so the guide and the reader cannot drift apart.
 *
 * <p>Stateless and thread-safe.
 */
public final class OptionsMarkdown {

    /** The line before the table in the guide. */
    public static final String BEGIN = "<!-- options table: rendered from ServerOption; OptionsTableMatchesGuideTest fails when they differ -->";
    /** The line after the table in the guide. */
    public static final String END = "<!-- end of options table -->";
    /** The table's header and separator lines. */
    public static final List<String> HEADER = List.of("| key | default | allowed | unit | meaning |", "|---|---|---|---|---|");

    private OptionsMarkdown() {
    }

    /** @return the table's lines: the header, then one row per option */
    public static List<String> lines() {
        final List<String> lines = new ArrayList<>(HEADER);
        for (final ServerOption option : ServerOption.values()) {
            lines.add(row(option));
        }
        return lines;
    }

    /** @return the option's row: key path, default, allowed values, unit, meaning */
    public static String row(final ServerOption option) {
        return "| `" + option.path() + "` | " + cell(option.defaultText()) + " | " + cell(option.accepts().describe()) + " | "
            + cell(option.unit()) + " | " + cell(option.doc()) + " |";
    }

    /**
     * Compares a guide with the table row by row.
     *
     * @param guideName the guide's file name, for the messages
     * @param guide     the guide's lines
     * @return one message per difference, each {@code file:line: what differs}; empty when the guide's
     *         table is exactly {@link #lines()}
     */
    public static List<String> differences(final String guideName, final List<String> guide) {
        final int begin = guide.indexOf(BEGIN);
        final int end = guide.indexOf(END);
        if (begin < 0 || end < begin) {
            return List.of(guideName + ": no options table: it must stand between the lines '" + BEGIN + "' and '" + END + "'");
        }
        final List<String> expected = lines();
        final List<String> differences = new ArrayList<>();
        final int rows = end - begin - 1;
        for (int i = 0; i < Math.max(rows, expected.size()); i++) {
            final int lineNumber = begin + 2 + i;
            final String actual = i < rows ? guide.get(begin + 1 + i) : null;
            final String wanted = i < expected.size() ? expected.get(i) : null;
            if (wanted == null) {
                differences.add(guideName + ":" + lineNumber + ": a row the options table does not have: " + actual);
            } else if (actual == null) {
                differences.add(guideName + ":" + (begin + 2 + rows) + ": missing row: " + wanted);
            } else if (!actual.equals(wanted)) {
                differences.add(guideName + ":" + lineNumber + ": the guide says " + actual + " but the options table says "
                    + wanted);
            }
        }
        return differences;
    }

    /** A pipe inside a cell would end it; the table never has one, but a future doc line must not break a row silently. */
    private static String cell(final String text) {
        return text.replace("|", "\\|");
    }
}
