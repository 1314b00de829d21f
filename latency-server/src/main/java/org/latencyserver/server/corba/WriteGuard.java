package org.latencyserver.server.corba;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.security.AccessPolicy;
import org.latencyserver.server.security.Caller;
import org.latencyserver.server.security.Role;

/**
 * What the servant asks before it lets a write through: is the call switched on, does the caller
 * hold the role (and for an agent, is the connection its own), and for {@code PutMibUpdates}, is
 * the connection's load not already polled by SNMP.
 *
 * <p>Immutable and thread-safe; called on ORB request threads.
 */
public final class WriteGuard {

    private final AccessPolicy policy;
    private final Supplier<Caller> callers;
    private final boolean operatorCallsEnabled;
    private final boolean plannerCallsEnabled;
    private final Map<Short, PolledSources> polledSources;

    /**
     * @param policy               who may write
     * @param callers              the caller of the request on the current thread
     * @param operatorCallsEnabled {@code server.operator_calls_enabled}: {@code PutMibUpdates} and {@code RequestTableStatus}
     * @param plannerCallsEnabled  {@code server.planner_calls_enabled}: {@code load_profile}
     * @param polledSources        per connection with a source polled by SNMP, which
     */
    public WriteGuard(final AccessPolicy policy, final Supplier<Caller> callers, final boolean operatorCallsEnabled,
                      final boolean plannerCallsEnabled, final Map<Short, PolledSources> polledSources) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.callers = Objects.requireNonNull(callers, "callers");
        this.operatorCallsEnabled = operatorCallsEnabled;
        this.plannerCallsEnabled = plannerCallsEnabled;
        this.polledSources = Map.copyOf(polledSources);
    }

    /** @return the guard of a server without a {@code security} section, nothing polled, every call switched on */
    public static WriteGuard open() {
        return new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, true, true, Map.of());
    }

    /**
     * @param operation the operator call
     * @return empty when allowed, else why not
     */
    Optional<Refusal> operator(final Operation operation) {
        if (!operatorCallsEnabled) {
            return Optional.of(Refusal.of(Refusal.Kind.DISABLED, operation.label() + " is switched off in this server's"
                + " configuration (server.operator_calls_enabled: false)"));
        }
        return role(Role.OPERATOR, operation, null);
    }

    /**
     * @param indexRef the connection an operator pushes a reading for
     * @return empty when some of its load is pushed, else (every source polled by SNMP) why the reading is refused
     */
    Optional<Refusal> pushedReading(final short indexRef) {
        final PolledSources polled = polledSources.get(indexRef);
        if (polled == null || !polled.all()) {
            return Optional.empty();
        }
        return Optional.of(Refusal.of(Refusal.Kind.POLLED_SOURCE, "mib_source", "snmp", "", Operation.PUT_MIB_UPDATES.label()
            + " for connection " + indexRef + " refused: its " + polled.describe() + (polled.describe().contains(" and ") ? " are" : " is")
            + " polled by SNMP (mib_source: snmp); a pushed reading would be overwritten by the next poll"));
    }

    /**
     * @param indexRef a connection
     * @return which of its sources are polled (their pushed values are not taken), or null when none
     */
    PolledSources polled(final short indexRef) {
        return polledSources.get(indexRef);
    }

    /** @return empty when the caller may load profiles, else why not */
    Optional<Refusal> planner() {
        if (!plannerCallsEnabled) {
            return Optional.of(Refusal.of(Refusal.Kind.DISABLED, Operation.LOAD_PROFILE.label() + " is switched off in this"
                + " server's configuration (server.planner_calls_enabled: false)"));
        }
        return role(Role.PLANNER, Operation.LOAD_PROFILE, null);
    }

    /**
     * @param operation  the agent's call
     * @param clientNode the client node of the connection written to
     * @return empty when the caller is that node's agent (or the server is open), else why not
     */
    Optional<Refusal> agent(final Operation operation, final String clientNode) {
        return role(Role.AGENT, operation, clientNode);
    }

    /**
     * @param operation a call only agents make, whatever their node (subscribing to measurement requests)
     * @return empty when the caller is an agent (or the server is open), else why not
     */
    Optional<Refusal> anyAgent(final Operation operation) {
        return policy.refusalOfRole(callers.get(), Role.AGENT, operation.label());
    }

    /**
     * @param clientNode the client node of a pending request
     * @return whether the current caller may see the request's ticket
     */
    boolean maySeeTicket(final String clientNode) {
        return policy.maySeeTicket(callers.get(), clientNode);
    }

    /** @return the current request's caller */
    Caller caller() {
        return callers.get();
    }

    /** @return the policy (for subscriptions, which outlive the request) */
    AccessPolicy policy() {
        return policy;
    }

    private Optional<Refusal> role(final Role role, final Operation operation, final String clientNode) {
        return policy.refusal(callers.get(), role, operation.label(), clientNode);
    }
}
