package org.latencyserver.server.corba;

import java.util.Objects;
import java.util.Optional;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;

/**
 * The writes of the thesis's {@code Latserv} interface, {@code UpdateResponse} and {@code PutMibUpdates},
 * as {@link WriteCall}s. The struct's {@code index_ref} must match the call's {@code client_ref}, and
 * the connection must exist. An agent's {@code UpdateResponse} is checked against its connection's
 * client node; an operator's {@code PutMibUpdates} is checked for its role first, then for a connection
 * whose load SNMP polls, then for its values.
 *
 * <p>Immutable and thread-safe; the calls it makes run on the ORB's request threads.
 */
final class ThesisWrites {

    private final EngineQuery query;
    private final WriteGuard guard;

    /**
     * @param query the published state: connections
     * @param guard who may write what
     */
    ThesisWrites(final EngineQuery query, final WriteGuard guard) {
        this.query = Objects.requireNonNull(query, "query");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * @param baseline  the agent's result, possibly null
     * @param clientRef the connection the call names
     * @return the {@code UpdateResponse} write
     */
    WriteCall<IdlBaselineMeasurements, SubmitOutcome> updateResponse(final IdlBaselineMeasurements baseline,
                                                                     final short clientRef) {
        return WriteCall.of(Operation.UPDATE_RESPONSE, () -> admitResponse(baseline, clientRef),
            (engine, in) -> engine.submitThesisResponse(clientRef, in.latency_avg, in.latency_bound, in.upper_bound_estimate,
                in.lower_bound_estimate, in.latency_data_provided),
            (in, outcome) -> outcome.accepted() ? Optional.empty()
                : Optional.of(outcome.refusal().prefixed("UpdateResponse for connection " + clientRef + " refused: ")));
    }

    /**
     * @param updates   the operator's reading, possibly null
     * @param clientRef the connection the call names
     * @return the {@code PutMibUpdates} write; its answer says whether the connection still existed
     */
    WriteCall<MibReading, Boolean> mibUpdates(final IdlMibUpdates updates, final short clientRef) {
        // A connection with a polled end takes the push for its pushed ends only (the poll owns the
        // rest): merged on the update thread, against the latest reading there.
        final PolledSources partlyPolled = guard.polled(clientRef);
        return WriteCall.of(Operation.PUT_MIB_UPDATES, () -> admitMib(updates, clientRef),
            (engine, pushed) -> engine.applyMib(clientRef, partlyPolled == null ? MibUpdate.all(pushed) : partlyPolled.pushed(pushed)),
            (pushed, known) -> known ? Optional.empty() : Optional.of(noConnection(Operation.PUT_MIB_UPDATES, clientRef)));
    }

    private Checked<IdlBaselineMeasurements> admitResponse(final IdlBaselineMeasurements baseline, final short clientRef) {
        if (baseline == null || baseline.index_ref != clientRef) {
            return Checked.refused(mismatch(Operation.UPDATE_RESPONSE, "baseline_status.index_ref",
                baseline == null ? "missing" : String.valueOf(baseline.index_ref), clientRef));
        }
        final ConnectionRow target = query.row(clientRef);
        if (target == null) {
            return Checked.refused(noConnection(Operation.UPDATE_RESPONSE, clientRef));
        }
        return Checked.unless(guard.agent(Operation.UPDATE_RESPONSE, target.spec().clientNodeName()), baseline);
    }

    private Checked<MibReading> admitMib(final IdlMibUpdates updates, final short clientRef) {
        final Optional<Refusal> denied = guard.operator(Operation.PUT_MIB_UPDATES);
        if (denied.isPresent()) {
            return Checked.refused(denied.get());
        }
        if (updates == null || updates.index_ref != clientRef) {
            return Checked.refused(mismatch(Operation.PUT_MIB_UPDATES, "mib_updates.index_ref",
                updates == null ? "missing" : String.valueOf(updates.index_ref), clientRef));
        }
        if (query.row(clientRef) == null) {
            return Checked.refused(noConnection(Operation.PUT_MIB_UPDATES, clientRef));
        }
        return Checked.unless(guard.pushedReading(clientRef), updates).then(checked -> reading(checked, clientRef));
    }

    private static Checked<MibReading> reading(final IdlMibUpdates updates, final short clientRef) {
        final String where = Operation.PUT_MIB_UPDATES.label() + " for connection " + clientRef + ": ";
        if (updates.latest_mib_port > 100) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "latest_mib_port", updates.latest_mib_port,
                "0..100 % (or -1 for unknown)", where + "port utilisation must be 0..100 % (or -1 for unknown), was "
                    + updates.latest_mib_port));
        }
        try {
            return Checked.passed(new MibReading(updates.latest_client_mib_cpu, updates.latest_peer_mib_cpu, updates.latest_mib_port));
        } catch (IllegalArgumentException e) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "mib_updates", "", "", where + e.getMessage()));
        }
    }

    private static Refusal mismatch(final Operation operation, final String field, final String value, final short clientRef) {
        return Refusal.of(Refusal.Kind.BAD_VALUE, field, value, "client_ref " + clientRef,
            operation.label() + ": " + field + " " + value + " does not match client_ref " + clientRef);
    }

    private static Refusal noConnection(final Operation operation, final short clientRef) {
        return Refusal.of(Refusal.Kind.UNKNOWN_CONNECTION, "client_ref", clientRef, "",
            operation.label() + ": no connection " + clientRef);
    }
}
