package org.latencyserver.server.table;

import org.latencyserver.core.state.ConnectionLoadState;

/**
 * An open measurement request of a QoS 3/4 connection. Only a result carrying {@code ticket}
 * and arriving before {@code deadlineNanos} is accepted; after that the request is re-issued with
 * a new ticket.
 *
 * <p>Immutable and thread-safe.
 *
 * @param ticket              random, unguessable, never 0
 * @param roundTrips          how many round trips to measure
 * @param issuedNanos         monotonic time of issue
 * @param deadlineNanos       monotonic time after which the result is refused
 * @param issuedEpochMillis   wall-clock time of issue, for display
 * @param deadlineEpochMillis wall-clock deadline, for the agents
 * @param attempt             1 for the first issue, 2.. after time-outs
 * @param reason              why it was asked for (a state change, drift, a restart)
 * @param issuedIn            the connection's load state when it was issued; null when not known
 */
public record PendingMeasurement(long ticket, int roundTrips, long issuedNanos, long deadlineNanos,
                                 long issuedEpochMillis, long deadlineEpochMillis, int attempt, String reason,
                                 ConnectionLoadState issuedIn) {

    /** A request whose issuing load state is not recorded. */
    public PendingMeasurement(final long ticket, final int roundTrips, final long issuedNanos, final long deadlineNanos,
                              final long issuedEpochMillis, final long deadlineEpochMillis, final int attempt, final String reason) {
        this(ticket, roundTrips, issuedNanos, deadlineNanos, issuedEpochMillis, deadlineEpochMillis, attempt, reason, null);
    }
}
