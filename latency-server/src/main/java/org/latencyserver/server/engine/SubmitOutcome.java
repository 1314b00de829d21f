package org.latencyserver.server.engine;

/**
 * The answer to a submitted result: accepted, or refused with the reason.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind   what happened
 * @param reason for a refusal, why; empty when accepted
 */
public record SubmitOutcome(Kind kind, String reason) {

    /** What happened to a submitted result. */
    public enum Kind {
        /** The result is now the connection's measurement. */
        ACCEPTED,
        /** No connection has the given {@code index_ref}. */
        UNKNOWN_CONNECTION,
        /** Refused: no open request, wrong or expired ticket. */
        REFUSED,
        /** Refused: the values are out of range or implausible for the connection. */
        IMPLAUSIBLE
    }

    /** The one accepted outcome. */
    public static final SubmitOutcome ACCEPTED = new SubmitOutcome(Kind.ACCEPTED, "");

    /**
     * @param reason why
     * @return a refusal
     */
    public static SubmitOutcome refused(final String reason) {
        return new SubmitOutcome(Kind.REFUSED, reason);
    }

    /**
     * @param reason what was implausible, with the value and the limit
     * @return a refusal of the result's values
     */
    public static SubmitOutcome implausible(final String reason) {
        return new SubmitOutcome(Kind.IMPLAUSIBLE, reason);
    }

    /** @return true when accepted */
    public boolean accepted() {
        return kind == Kind.ACCEPTED;
    }
}
