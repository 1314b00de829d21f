package org.latencyserver.server.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A value of the configuration chosen by a word: an enum whose constant is written as its name in
 * lower case with {@code -} for {@code _} ({@code READ_ONLY} is {@code read-only}), so that the
 * enum and the words the reader accepts cannot drift apart.
 *
 * <p>Implemented by enums only; stateless and thread-safe.
 */
public interface ConfigWord {

    /** @return the constant's name (supplied by {@link Enum#name()}) */
    String name();

    /** @return the word used in the configuration file */
    default String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param type an enum of configuration words
     * @return each constant by its word, in declaration order
     */
    static <E extends Enum<E> & ConfigWord> Map<String, E> byWord(final Class<E> type) {
        final Map<String, E> words = new LinkedHashMap<>();
        for (final E value : type.getEnumConstants()) {
            words.put(value.configName(), value);
        }
        return Map.copyOf(words);
    }
}
