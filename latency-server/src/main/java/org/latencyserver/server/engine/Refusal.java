package org.latencyserver.server.engine;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.latencyserver.core.input.InputFault;

/**
 * The verdict of a check that refuses: of what kind, which field, the bad value, the limit it broke,
 * and the full message the caller is told (and the log shows). Every check of a client's input or
 * right to write gives one of these, or nothing when the input passes.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind    what kind of refusal, which also names its metric label
 * @param field   the refused field, e.g. {@code histogram}, {@code mean}; empty when the whole call is refused
 * @param value   the refused value as text; empty when not one value
 * @param limit   the limit or rule it broke as text, e.g. {@code 20000 (limits.max_histogram_bins)}; empty when none
 * @param message the reason as told to the caller, with the value and the limit
 * @param faults  for a refused document (a profile), every fault found in it, in the order found; else empty
 */
public record Refusal(Kind kind, String field, String value, String limit, String message, List<InputFault> faults) {

    /** Why a call was refused, as a bounded label for the {@code latency_server_refusals_total} counter. */
    public enum Kind {
        /** The caller lacks the role, or writes for another agent's connection. */
        NOT_PERMITTED,
        /** The call is switched off in the configuration. */
        DISABLED,
        /** No such connection. */
        UNKNOWN_CONNECTION,
        /** A value out of range, missing or inconsistent. */
        BAD_VALUE,
        /** Forged, replayed, late or missing ticket; no open request. */
        BAD_TICKET,
        /** A result outside the plausible range or far from the connection's history. */
        IMPLAUSIBLE,
        /** Over a size limit (histogram bins, profile bytes, name characters). */
        TOO_LARGE,
        /** The connection's load comes from SNMP, so an operator's reading would be overwritten and is refused. */
        POLLED_SOURCE,
        /** A profile that fails the checks start-up runs. */
        BAD_PROFILE,
        /** The caller already holds as much as one caller may (subscriptions: {@code limits.max_subscriptions_per_caller}). */
        CALLER_LIMIT;

        /** @return the {@code reason} label of {@code latency_server_refusals_total}, e.g. {@code not_permitted} */
        public String metricLabel() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @return whether the caller, not its input, is refused (the role, the node, or the call switched off) */
        public boolean refusesCaller() {
            return this == NOT_PERMITTED || this == DISABLED;
        }
    }

    /**
     * @throws NullPointerException when a part is missing (use empty text for none)
     */
    public Refusal {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(message, "message");
        faults = List.copyOf(faults);
    }

    /**
     * @param kind    what kind
     * @param message the reason as told to the caller
     * @return a refusal of the call as a whole: no field, value or limit of its own
     */
    public static Refusal of(final Kind kind, final String message) {
        return new Refusal(kind, "", "", "", message, List.of());
    }

    /**
     * @param kind    what kind
     * @param field   the refused field
     * @param value   its value
     * @param limit   the limit or rule it broke
     * @param message the reason as told to the caller
     * @return a refusal of one value
     */
    public static Refusal of(final Kind kind, final String field, final Object value, final String limit,
                             final String message) {
        return new Refusal(kind, field, String.valueOf(value), limit, message, List.of());
    }

    /**
     * @param prefix what the caller is told first, e.g. {@code "result for connection 3 refused: "}
     * @return this refusal, its message after the prefix
     */
    public Refusal prefixed(final String prefix) {
        return new Refusal(kind, field, value, limit, prefix + message, faults);
    }
}
