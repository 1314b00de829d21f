package org.latencyserver.agent.client;

import org.latencyserver.idl.latency.MeasurementRequest;

/**
 * A measurement request as this agent received it: the server's request and its deadline on this
 * JVM's monotonic clock ({@link System#nanoTime()} in production), the receipt time plus the
 * request's {@code remaining_millis}. The server's {@code deadline_epoch_millis} is never read:
 * it is the server's wall clock, and the workstations' clocks need not agree with it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param request       the request as received
 * @param deadlineNanos when the server gives up on it, on this agent's monotonic clock
 */
record ReceivedRequest(MeasurementRequest request, long deadlineNanos) {

    /** The longest remaining time taken as it is (a century), so that the deadline never overflows. */
    private static final long MAX_REMAINING_MILLIS = 100L * 365 * 24 * 3600 * 1000;

    /**
     * @param request     the request
     * @param receiptNanos the monotonic clock when it arrived
     * @return the request with its local deadline; a negative remaining time counts as none
     */
    static ReceivedRequest receivedAt(final MeasurementRequest request, final long receiptNanos) {
        final long remainingMillis = Math.min(MAX_REMAINING_MILLIS, Math.max(0L, request.remaining_millis));
        return new ReceivedRequest(request, receiptNanos + remainingMillis * 1_000_000L);
    }

    /**
     * @param runStartNanos when the run starts (its warm-up round trips first), on this agent's monotonic clock
     * @return when the run should end by the request's {@code time_budget_millis}, never after the deadline less
     *         {@code marginNanos}; {@link Long#MAX_VALUE} when it has no time budget
     * @param marginNanos   kept free before the deadline for the submission
     */
    long timeBudgetEndNanos(final long runStartNanos, final long marginNanos) {
        if (request.time_budget_millis <= 0) {
            return Long.MAX_VALUE;
        }
        final long budgetNanos = Math.min(MAX_REMAINING_MILLIS, request.time_budget_millis) * 1_000_000L;
        return Math.min(deadlineNanos - marginNanos, runStartNanos + budgetNanos);
    }

    /**
     * @param nowNanos the monotonic clock now
     * @return whether the deadline has come (the server no longer accepts a result)
     */
    boolean expired(final long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    /**
     * @param nowNanos the monotonic clock now
     * @return the time left until the deadline, ms; negative once past
     */
    long remainingMillis(final long nowNanos) {
        return Math.floorDiv(deadlineNanos - nowNanos, 1_000_000L);
    }
}
