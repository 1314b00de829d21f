package org.latencyserver.server.config;

import java.util.List;

/**
 * How {@link ServerOption}'s table writes its entries: the accepted values ({@link #range},
 * {@link #interval}, {@link #words}, {@link #text}) and a default given by a description rather
 * than a value ({@link #described}, {@link #required}, {@link #none}), and the check that an
 * entry's default is one of its own values.
 *
 * <p>Stateless.
 */
final class OptionEntries {

    private OptionEntries() {
    }

    /** A default given by a description (derived, required or none) rather than a value. */
    record Described(String text) {
    }

    static Described described(final String text) {
        return new Described(text);
    }

    static Described required() {
        return described("required");
    }

    static Described none() {
        return described("its keys' defaults");
    }

    static OptionValues.Whole range(final long minimum, final long maximum) {
        return new OptionValues.Whole(minimum, maximum);
    }

    static OptionValues.Decimal interval(final double minimum, final boolean minimumOpen, final double maximum) {
        return new OptionValues.Decimal(minimum, minimumOpen, maximum);
    }

    static OptionValues.Words words(final String... words) {
        return new OptionValues.Words(List.of(words));
    }

    static OptionValues.Text text(final String what) {
        return new OptionValues.Text(what);
    }

    /** Refuses a table entry whose default is not one of its own allowed values: the table must not contradict itself. */
    static void checkDefault(final String path, final OptionValues values, final Object value) {
        final boolean fits;
        if (values instanceof OptionValues.Whole w) {
            fits = value instanceof Long l && w.contains(l);
        } else if (values instanceof OptionValues.Decimal d) {
            fits = value instanceof Double v && d.contains(v);
        } else if (values instanceof OptionValues.Flag) {
            fits = value instanceof Boolean;
        } else if (values instanceof OptionValues.Words w) {
            fits = value instanceof String s && w.words().contains(s);
        } else if (values instanceof OptionValues.Text) {
            fits = value instanceof String s && !s.isBlank();
        } else {
            fits = false; // a block or list has no value of its own
        }
        if (!fits) {
            throw new IllegalStateException(path + ": default " + value + " is not among its values " + values.describe());
        }
    }
}
