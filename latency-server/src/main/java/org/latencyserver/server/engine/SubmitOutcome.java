package org.latencyserver.server.engine;

/**
 * The answer to a submitted result: accepted, or refused with a {@link Refusal} (its kind is one of
 * {@link Refusal.Kind}: the same kinds the servant counts every refusal by).
 *
 * <p>Immutable and thread-safe.
 *
 * @param refusal why it was refused; null when accepted
 */
public record SubmitOutcome(Refusal refusal) {

    /** The one accepted outcome. */
    public static final SubmitOutcome ACCEPTED = new SubmitOutcome((Refusal) null);

    /**
     * @param kind   what kind of refusal
     * @param reason why
     */
    public SubmitOutcome(final Refusal.Kind kind, final String reason) {
        this(Refusal.of(kind, reason));
    }

    /**
     * @param reason why: no open request, wrong or expired ticket, no data provided
     * @return a refusal of kind {@link Refusal.Kind#BAD_TICKET}
     */
    public static SubmitOutcome refused(final String reason) {
        return new SubmitOutcome(Refusal.Kind.BAD_TICKET, reason);
    }

    /**
     * @param reason what was implausible, with the value and the limit
     * @return a refusal of the result's values, of kind {@link Refusal.Kind#IMPLAUSIBLE}
     */
    public static SubmitOutcome implausible(final String reason) {
        return new SubmitOutcome(Refusal.Kind.IMPLAUSIBLE, reason);
    }

    /** @return true when accepted */
    public boolean accepted() {
        return refusal == null;
    }

    /** @return the refusal's kind; null when accepted */
    public Refusal.Kind kind() {
        return refusal == null ? null : refusal.kind();
    }

    /** @return for a refusal, why; empty when accepted */
    public String reason() {
        return refusal == null ? "" : refusal.message();
    }
}
