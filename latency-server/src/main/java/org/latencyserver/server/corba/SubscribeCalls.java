package org.latencyserver.server.corba;

import java.util.Optional;
import java.util.Set;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.security.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls that open and close subscriptions ({@code subscribe}, {@code subscribe_measurements},
 * {@code unsubscribe}): each counts its call, checks the listener, the connections and the caller, and hands the
 * subscription to {@link Subscriptions}, which owns delivery.
 *
 * <p>Thread-safe: holds no state of its own; called on the ORB's request threads.
 */
final class SubscribeCalls {

    /** The servant's logger, so that a subscription is logged under the same name as before it had a class of its own. */
    private static final Logger LOG = LoggerFactory.getLogger(LatencyServiceServant.class);

    private final Subscriptions subscriptions;
    private final ConnectionReads reads;
    private final WriteGuard guard;
    private final ServerMetrics metrics;
    private final Refusals refusals;

    SubscribeCalls(final Subscriptions subscriptions, final ConnectionReads reads, final WriteGuard guard,
                   final ServerMetrics metrics, final Refusals refusals) {
        this.subscriptions = subscriptions;
        this.reads = reads;
        this.guard = guard;
        this.metrics = metrics;
        this.refusals = refusals;
    }

    long subscribe(final EstimateListener listener, final short[] indexRefs) throws UnknownConnection, InvalidArgument {
        final Operation operation = Operation.SUBSCRIBE;
        metrics.called(operation);
        return subscribeTo(operation, "estimate", listener, indexRefs, (owner, refs) ->
            subscriptions.subscribeEstimates(owner, refs, listener::estimate_changed, listener::_non_existent));
    }

    void unsubscribe(final long subscriptionId) {
        metrics.called(Operation.UNSUBSCRIBE);
        subscriptions.unsubscribe(subscriptionId);
    }

    long subscribeMeasurements(final MeasurementListener listener, final short[] indexRefs)
        throws UnknownConnection, InvalidArgument, OperationDisabled {
        final Operation operation = Operation.SUBSCRIBE_MEASUREMENTS;
        metrics.called(operation);
        // Only agents measure: anyone else would only hold one of the hub's bounded places.
        final Optional<Refusal> denied = guard.anyAgent(operation);
        if (denied.isPresent()) {
            throw IdlRefusals.disabled(operation, refusals.record(operation, denied.get()));
        }
        // A subscription outlives the call: whether it sees tickets is decided by who subscribed.
        final Caller subscriber = guard.caller();
        return subscribeTo(operation, "measurement", listener, indexRefs, (owner, refs) -> subscriptions.subscribeMeasurements(owner,
            refs, request -> listener.measurement_requested(guard.policy().maySeeTicket(subscriber, request.client_node_name)
                ? request : IdlConversions.withoutTicket(request)), listener::_non_existent));
    }

    /** A subscribe call's id from {@code subscribe}, which is given the caller and the known connections. */
    @FunctionalInterface
    private interface Subscribe {
        long to(SubscriptionOwner owner, Set<Short> indexRefs) throws SubscriptionRefused;
    }

    private long subscribeTo(final Operation operation, final String kind, final Object listener, final short[] indexRefs,
                             final Subscribe subscribe) throws UnknownConnection, InvalidArgument {
        if (listener == null) {
            throw reads.badArgument(operation, kind + " listener is nil");
        }
        final Set<Short> refs = reads.known(operation, indexRefs);
        final SubscriptionOwner owner = SubscriptionOwner.of(guard.caller());
        final long id;
        try {
            id = subscribe.to(owner, refs);
        } catch (SubscriptionRefused e) {
            throw new InvalidArgument(refusals.record(operation, e.refusal()).message());
        }
        LOG.info("{} subscriber {} of {} for connections {}", kind, id, owner.description(), refs.isEmpty() ? "all" : refs);
        return id;
    }
}
