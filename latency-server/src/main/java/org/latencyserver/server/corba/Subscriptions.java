package org.latencyserver.server.corba;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.metrics.SubscriberCounts;
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
 * <p>Each subscription counts against its {@link SubscriptionOwner}, who may hold at most a cap of
 * them (both kinds together). Every check interval (from the first subscription on) a timer thread
 * hands each subscriber a liveness check, made on the delivery pool, at most
 * {@value #MAX_CHECKS_IN_FLIGHT} at once, so that a listener that is gone is dropped even when
 * nothing is pushed to it (see {@link Subscriber} for when one is dropped).
 *
 * <p>Thread-safety: the {@link EngineListener} methods run on the update thread and only offer
 * events to the subscribers' pending events (never blocking it on a listener); an event is converted
 * to IDL only when a subscriber wants it; subscribe and unsubscribe run on servant threads (see
 * {@link SubscriptionHub}); the timer thread only hands checks to the pool, waiting for a permit.
 */
final class Subscriptions implements EngineListener {

    /** How often every subscriber's listener is asked whether it still exists, by default. */
    static final long DEFAULT_CHECK_INTERVAL_MILLIS = 30_000;
    /**
     * Liveness checks under way at once, at most: each holds a delivery thread for up to the reply
     * time-out, so 1000 unreachable listeners take 16 threads, not 1000, and a round takes up to
     * 1000 / 16 × the time-out (the next round starts an interval after it ends).
     */
    static final int MAX_CHECKS_IN_FLIGHT = 16;

    private final EngineQuery query;
    private final LongSupplier epochMillis;
    private final long checkIntervalMillis;
    private final DeliveryPool pool = new DeliveryPool();
    private final Semaphore checksInFlight = new Semaphore(MAX_CHECKS_IN_FLIGHT);
    private final Map<ReapReason, LongAdder> reaped = new EnumMap<>(ReapReason.class);
    private final SubscriptionHub<Estimate> estimates;
    private final SubscriptionHub<MeasurementRequest> measurements;
    private ScheduledExecutorService livenessTimer;
    private boolean closed;

    /**
     * @param query               the published state (for the agents' warm-up count)
     * @param epochMillis         wall clock for the requests' timestamps
     * @param maxPerCaller        the most subscriptions one owner may hold, {@code >= 1}
     * @param checkIntervalMillis how often each listener is asked whether it still exists, ms, {@code >= 1}
     */
    Subscriptions(final EngineQuery query, final LongSupplier epochMillis, final int maxPerCaller, final long checkIntervalMillis) {
        if (checkIntervalMillis < 1) {
            throw new IllegalArgumentException("the subscriber check interval must be >= 1 ms, was " + checkIntervalMillis);
        }
        this.query = query;
        this.epochMillis = epochMillis;
        this.checkIntervalMillis = checkIntervalMillis;
        for (final ReapReason reason : ReapReason.values()) {
            reaped.put(reason, new LongAdder());
        }
        final SubscriptionOwners owners = new SubscriptionOwners(maxPerCaller);
        final Consumer<ReapReason> count = reason -> reaped.get(reason).increment();
        this.estimates = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, pool, owners, count);
        this.measurements = new SubscriptionHub<>(DeliveryPolicy.EVERY_EVENT_IN_ORDER, pool, owners, count);
    }

    /**
     * @param owner       whom it counts against
     * @param indexRefs   the connections, empty for all
     * @param delivery    called on a delivery thread with a changed estimate; with different connections'
     *                    estimates possibly at once, with one connection's one after the other
     * @param nonExistent the listener's {@code _non_existent()}, called on a delivery thread
     * @return the subscription id
     * @throws SubscriptionRefused when the hub is full or the owner holds its cap
     */
    long subscribeEstimates(final SubscriptionOwner owner, final Set<Short> indexRefs, final Consumer<Estimate> delivery,
                            final BooleanSupplier nonExistent) throws SubscriptionRefused {
        final long id = estimates.subscribe(owner, indexRefs, delivery, nonExistent);
        startLivenessChecks();
        return id;
    }

    /**
     * @param owner       whom it counts against
     * @param indexRefs   the connections, empty for all
     * @param delivery    called on a delivery thread with each new request, one call at a time
     * @param nonExistent the listener's {@code _non_existent()}, called on a delivery thread
     * @return the subscription id
     * @throws SubscriptionRefused when the hub is full or the owner holds its cap
     */
    long subscribeMeasurements(final SubscriptionOwner owner, final Set<Short> indexRefs,
                               final Consumer<MeasurementRequest> delivery, final BooleanSupplier nonExistent)
        throws SubscriptionRefused {
        final long id = measurements.subscribe(owner, indexRefs, delivery, nonExistent);
        startLivenessChecks();
        return id;
    }

    /** @return the subscribers now and those dropped by the server since start */
    SubscriberCounts counts() {
        final Map<String, Long> byReason = new LinkedHashMap<>();
        reaped.forEach((reason, count) -> byReason.put(reason.label(), count.sum()));
        return new SubscriberCounts(estimates.size(), measurements.size(), byReason);
    }

    private synchronized void startLivenessChecks() {
        if (livenessTimer != null || closed) {
            return;
        }
        livenessTimer = Executors.newSingleThreadScheduledExecutor(task -> {
            final Thread thread = new Thread(task, "subscriber-liveness");
            thread.setDaemon(true);
            return thread;
        });
        livenessTimer.scheduleWithFixedDelay(() -> {
            try {
                estimates.checkLiveness(checksInFlight);
                measurements.checkLiveness(checksInFlight);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();    // closing: the timer stops
            }
        }, checkIntervalMillis, checkIntervalMillis, TimeUnit.MILLISECONDS);
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

    /** Stops the liveness checks, delivery to every subscriber and the delivery threads. */
    void closeAll() {
        synchronized (this) {
            closed = true;
            if (livenessTimer != null) {
                livenessTimer.shutdownNow();
            }
        }
        estimates.closeAll();
        measurements.closeAll();
        pool.shutdown();
    }
}
