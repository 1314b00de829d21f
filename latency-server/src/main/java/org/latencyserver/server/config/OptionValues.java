package org.latencyserver.server.config;

import java.math.BigDecimal;
import java.util.List;

/**
 * What a configuration option accepts: the kind of value and, for numbers and words, the allowed
 * range. {@link #describe()} is the text the operator guide's table shows in its "allowed" column,
 * so the reader's check and the guide cannot say different things.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface OptionValues {

    /** @return the allowed values as the operator guide writes them, e.g. {@code 10..3600000} */
    String describe();

    /**
     * A whole number in {@code minimum..maximum}, both included.
     *
     * @param minimum the smallest allowed
     * @param maximum the largest allowed
     */
    record Whole(long minimum, long maximum) implements OptionValues {

        /** @throws IllegalArgumentException when the range is empty */
        public Whole {
            if (minimum > maximum) {
                throw new IllegalArgumentException("empty range " + minimum + ".." + maximum);
            }
        }

        /** @return whether {@code value} is in range */
        public boolean contains(final long value) {
            return value >= minimum && value <= maximum;
        }

        @Override
        public String describe() {
            return minimum == maximum ? Long.toString(minimum) : minimum + ".." + maximum;
        }
    }

    /**
     * A number in an interval whose lower end may be open; the upper end is always included.
     *
     * @param minimum     the lower end
     * @param minimumOpen whether the lower end itself is refused
     * @param maximum     the upper end, included
     */
    record Decimal(double minimum, boolean minimumOpen, double maximum) implements OptionValues {

        /** @return whether {@code value} is in the interval (NaN never is) */
        public boolean contains(final double value) {
            return (minimumOpen ? value > minimum : value >= minimum) && value <= maximum;
        }

        @Override
        public String describe() {
            return (minimumOpen ? "(" : "[") + plain(minimum) + ", " + plain(maximum) + "]";
        }
    }

    /** {@code true} or {@code false}. */
    record Flag() implements OptionValues {
        @Override
        public String describe() {
            return "true, false";
        }
    }

    /**
     * One of a fixed set of words, as written in the file.
     *
     * @param words the accepted words, in the order the guide lists them
     */
    record Words(List<String> words) implements OptionValues {

        /** Copies the list. */
        public Words {
            words = List.copyOf(words);
        }

        @Override
        public String describe() {
            return String.join(", ", words);
        }
    }

    /**
     * Any text that is not blank.
     *
     * @param what what the text names, e.g. {@code "a node's name"}
     */
    record Text(String what) implements OptionValues {
        @Override
        public String describe() {
            return what;
        }
    }

    /** A mapping of further keys (a block such as {@code server.metrics}). */
    record Block() implements OptionValues {
        @Override
        public String describe() {
            return "mapping";
        }
    }

    /**
     * A list.
     *
     * @param ofWhat what each item is
     */
    record Items(String ofWhat) implements OptionValues {
        @Override
        public String describe() {
            return "list of " + ofWhat;
        }
    }

    /** @return the number without a trailing {@code .0} or exponent, e.g. {@code 1000000000000} */
    static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
