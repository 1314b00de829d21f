package org.latencyserver.server.corba;

import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The fan-out of engine events to CORBA subscribers: an estimate that changed (its value, its
 * update-required flag, its staleness or the load behind it) to {@code subscribe}'s listeners, a
 * new measurement request to {@code subscribe_measurements}' listeners.
 *
 * <p>Estimates are delivered {@link DeliveryPolicy#NEWEST_PER_CONNECTION} (in order per connection;
 * a listener that falls behind gets each connection's newest estimate, not the backlog), measurement
 * requests {@link DeliveryPolicy#EVERY_EVENT_IN_ORDER}; both on one {@link DeliveryPool}.
 *
 * <p>Thread-safety: the {@link EngineListener} methods run on the update thread and only offer
 * events to the subscribers' pending events (never blocking it on a listener); an event is converted
 * to IDL only when a subscriber wants it; subscribe and unsubscribe run on servant threads (see
 * {@link SubscriptionHub}).
 */
final class Subscriptions implements EngineListener {

    private final EngineQuery query;
    private final LongSupplier epochMillis;
    private final DeliveryPool pool = new DeliveryPool();
    private final SubscriptionHub<Estimate> estimates = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, pool);
    private final SubscriptionHub<MeasurementRequest> measurements = new SubscriptionHub<>(DeliveryPolicy.EVERY_EVENT_IN_ORDER, pool);

    /**
     * @param query       the published state (for the agents' warm-up count)
     * @param epochMillis wall clock for the requests' timestamps
     */
    Subscriptions(final EngineQuery query, final LongSupplier epochMillis) {
        this.query = query;
        this.epochMillis = epochMillis;
    }

    /**
     * @param indexRefs the connections, empty for all
     * @param delivery  called on a delivery thread with a changed estimate; with different connections'
     *                  estimates possibly at once, with one connection's one after the other
     * @return the subscription id
     * @throws IllegalStateException when the hub is full
     */
    long subscribeEstimates(final Set<Short> indexRefs, final Consumer<Estimate> delivery) {
        return estimates.subscribe(indexRefs, delivery);
    }

    /**
     * @param indexRefs the connections, empty for all
     * @param delivery  called on a delivery thread with each new request, one call at a time
     * @return the subscription id
     * @throws IllegalStateException when the hub is full
     */
    long subscribeMeasurements(final Set<Short> indexRefs, final Consumer<MeasurementRequest> delivery) {
        return measurements.subscribe(indexRefs, delivery);
    }

    /**
     * @param subscriptionId an id from either subscribe method
     * @return false when no subscription has it (already ended, or never existed)
     */
    boolean unsubscribe(final long subscriptionId) {
        return estimates.unsubscribe(subscriptionId) || measurements.unsubscribe(subscriptionId);
    }

    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        if (after.estimate() != null && (!Objects.equals(before.estimate(), after.estimate())
            || before.updateRequired() != after.updateRequired()
            || !before.staleInputs().equals(after.staleInputs())
            || !Objects.equals(before.load(), after.load()))) {
            estimates.publish(after.spec().indexRef(), () -> IdlConversions.estimate(after, after.estimate(), after.changedEpochMillis()));
        }
    }

    @Override
    public void measurementRequested(final ConnectionRow row) {
        measurements.publish(row.spec().indexRef(), () -> IdlConversions.request(row, row.spec().peerNodeName(),
            query.settings().warmupRoundTrips(), query.settings().pacing(), epochMillis.getAsLong()));
    }

    /** Stops delivery to every subscriber and the delivery threads. */
    void closeAll() {
        estimates.closeAll();
        measurements.closeAll();
        pool.shutdown();
    }
}
