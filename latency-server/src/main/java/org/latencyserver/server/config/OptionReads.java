package org.latencyserver.server.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.latencyserver.core.input.InputMapping;

/**
 * What the server's configuration adds to {@link InputMapping}'s checks: reads whose key, default
 * and range come from the options table ({@link ServerOption}), and the rule that a secret is
 * never written in the file (its key is refused with the environment variable to use instead, and
 * its value is not repeated in the fault).
 *
 * <p>Stateless and thread-safe; the mappings it reads are not.
 */
final class OptionReads {

    /** Keys that would hold a secret, each with the whole reason of its fault: the key to use instead. */
    private static final Map<String, String> SECRET_KEYS = secretKeys(Map.of(
        "community", "community_env",
        "auth_password", "auth_password_env",
        "priv_password", "priv_password_env",
        "password", "auth_password_env and priv_password_env",
        "auth_key", "auth_password_env",
        "priv_key", "priv_password_env"));

    private OptionReads() {
    }

    private static Map<String, String> secretKeys(final Map<String, String> instead) {
        final Map<String, String> reasons = new LinkedHashMap<>();
        instead.forEach((key, use) -> reasons.put(key, "put secrets in the environment: use " + use
            + " (the name of an environment variable that holds it); the value is not repeated here"));
        return Map.copyOf(reasons);
    }

    /**
     * Reports every key not in {@code known}, as {@link InputMapping#allowOnly(Set, Map, Map)}, a
     * secret's key pointed to the environment.
     *
     * @param known     the keys the mapping may hold
     * @param elsewhere keys that are valid in other mappings, with where they belong
     */
    static void allowOnly(final InputMapping mapping, final Set<String> known, final Map<String, String> elsewhere) {
        mapping.allowOnly(known, elsewhere, SECRET_KEYS);
    }

    /** Reports every key that is not an option of the mapping at {@code parent} in the table; see {@link #allowOnly}. */
    static void allowOnlyOptionsOf(final InputMapping mapping, final String parent, final Map<String, String> elsewhere) {
        allowOnly(mapping, ServerOption.keysIn(parent), elsewhere);
    }

    /** @see #allowOnlyOptionsOf(InputMapping, String, Map) */
    static void allowOnlyOptionsOf(final InputMapping mapping, final String parent) {
        allowOnlyOptionsOf(mapping, parent, Map.of());
    }

    /** @return the option's whole number within its range; its default when absent; null when bad (reported) */
    static Long whole(final InputMapping mapping, final ServerOption option) {
        return whole(mapping, option, option.defaultWhole());
    }

    /** @return as {@link #whole(InputMapping, ServerOption)}, with a default the table can only describe (e.g. derived from another key) */
    static Long whole(final InputMapping mapping, final ServerOption option, final Long fallback) {
        final OptionValues.Whole range = option.whole();
        return mapping.integer(option.key(), fallback, range.minimum(), range.maximum());
    }

    /**
     * @param what what the key is for, in the fault when it is missing (the range is added)
     * @return the option's whole number within its range, or null when missing or bad (reported)
     */
    static Long requiredWhole(final InputMapping mapping, final ServerOption option, final String what) {
        final OptionValues.Whole range = option.whole();
        return mapping.requiredInteger(option.key(), range.minimum(), range.maximum(), what + ", " + range.describe());
    }

    /** @return the option's number within its interval; its default when absent; null when bad (reported) */
    static Double decimal(final InputMapping mapping, final ServerOption option) {
        return decimal(mapping, option, option.defaultDecimal());
    }

    /** @return as {@link #decimal(InputMapping, ServerOption)}, with the given default */
    static Double decimal(final InputMapping mapping, final ServerOption option, final Double fallback) {
        final OptionValues.Decimal range = option.decimal();
        return mapping.decimal(option.key(), fallback, range.minimum(), range.minimumOpen(), range.maximum());
    }

    /** @return the option's boolean; its default when absent or bad (reported) */
    static boolean flag(final InputMapping mapping, final ServerOption option) {
        return mapping.bool(option.key(), option.defaultFlag());
    }

    /** @return the option's text; its default when absent or bad (reported) */
    static String text(final InputMapping mapping, final ServerOption option) {
        return mapping.text(option.key(), option.defaultString());
    }
}
