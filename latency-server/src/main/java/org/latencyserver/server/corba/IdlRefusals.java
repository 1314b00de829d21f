package org.latencyserver.server.corba;

import org.latencyserver.core.input.InputFault;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.SystemException;

/**
 * A {@link Refusal} as the IDL exception its operation declares. The thesis's operations declare none,
 * so they answer with a CORBA system exception (completed: no), whose text the log also holds; the
 * extended interface has an exception per kind. Stateless and thread-safe.
 */
final class IdlRefusals {

    private IdlRefusals() {
    }

    /**
     * @param refusal a refused thesis call
     * @return {@code NO_PERMISSION} for a refused caller, else {@code BAD_PARAM}
     */
    static SystemException thesis(final Refusal refusal) {
        return refusal.kind().refusesCaller()
            ? new NO_PERMISSION(refusal.message(), 0, CompletionStatus.COMPLETED_NO)
            : new BAD_PARAM(refusal.message(), 0, CompletionStatus.COMPLETED_NO);
    }

    /**
     * @param operation the refused call
     * @param refusal   a refusal of the caller
     * @return the extended interface's exception for it
     */
    static OperationDisabled disabled(final Operation operation, final Refusal refusal) {
        return new OperationDisabled(operation.label(), refusal.message());
    }

    /**
     * A refused result or probe report.
     *
     * @param operation {@code submit_measurement} or {@code submit_probe}
     * @param refusal   why
     * @param indexRef  the connection the report names (0 when there is no report)
     * @param ticket    the ticket it carries (0 for a probe report)
     * @throws UnknownConnection for an unknown connection
     * @throws OperationDisabled for a refused caller
     * @throws ResultRefused     otherwise
     */
    static void throwForResult(final Operation operation, final Refusal refusal, final short indexRef, final long ticket)
        throws UnknownConnection, ResultRefused, OperationDisabled {
        if (refusal.kind() == Refusal.Kind.UNKNOWN_CONNECTION) {
            throw new UnknownConnection(indexRef, refusal.message());
        }
        if (refusal.kind().refusesCaller()) {
            throw disabled(operation, refusal);
        }
        throw new ResultRefused(indexRef, ticket, refusal.message());
    }

    /**
     * A refused profile load.
     *
     * @param refusal why
     * @throws OperationDisabled for a refused caller
     * @throws ProfileRejected   otherwise, with every fault of the profile
     */
    static void throwForProfile(final Refusal refusal) throws ProfileRejected, OperationDisabled {
        if (refusal.kind().refusesCaller()) {
            throw disabled(Operation.LOAD_PROFILE, refusal);
        }
        throw new ProfileRejected(refusal.message(), refusal.faults().stream().map(InputFault::toString).toArray(String[]::new));
    }
}
