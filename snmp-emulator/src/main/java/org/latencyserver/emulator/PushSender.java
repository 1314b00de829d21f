package org.latencyserver.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thesis emulator's push mode: every 100 ms (10 Hz), one {@code PutMibUpdates} per scenario
 * connection with the client's and peer's CPU percent and the link's port percent in force at
 * that moment. A failed call is logged (once per outage, not ten times a second) and retried
 * on the next tick; it is never fatal.
 *
 * <p>Thread-safe: {@link #start()}/{@link #close()} from the owner; ticks run on one private thread.
 */
public final class PushSender implements AutoCloseable {
    /** The thesis's push rate: 10 Hz. */
    public static final long PUSH_PERIOD_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(PushSender.class);

    private final Scenario scenario;
    private final MibUpdateTarget target;
    private final LongSupplier elapsedMicros;
    /** The pushing agent's runner; null while not started. */
    private AgentRunner scheduler;
    private volatile boolean failing;
    private volatile long deliveredUpdates;
    private volatile long failedUpdates;

    /**
     * @param scenario the scenario whose connections are pushed
     * @param target where to deliver
     * @param elapsedMicros the emulator's clock, microseconds since start
     */
    public PushSender(Scenario scenario, MibUpdateTarget target, LongSupplier elapsedMicros) {
        this.scenario = scenario;
        this.target = target;
        this.elapsedMicros = elapsedMicros;
    }

    /**
     * The updates due at one instant, one per connection, in scenario order.
     *
     * @param nowMicros time since the emulator started
     */
    public List<IdlMibUpdates> updatesAt(long nowMicros) {
        List<IdlMibUpdates> updates = new ArrayList<>();
        for (ConnectionSpec c : scenario.connections()) {
            updates.add(new IdlMibUpdates((short) c.indexRef(),
                    (short) scenario.percentAt(c.client(), nowMicros),
                    (short) scenario.percentAt(c.peer(), nowMicros),
                    (short) scenario.percentAt(c.link(), nowMicros)));
        }
        return updates;
    }

    /** Sends one round of updates now; failures are counted and logged, never thrown. */
    public void pushOnce() {
        for (IdlMibUpdates u : updatesAt(elapsedMicros.getAsLong())) {
            try {
                target.put(u);
                deliveredUpdates++;
                if (failing) {
                    failing = false;
                    LOG.info("PutMibUpdates delivered again (index_ref {})", u.index_ref);
                }
            } catch (RuntimeException e) {
                failedUpdates++;
                if (!failing) {
                    failing = true;
                    LOG.warn("PutMibUpdates failed for index_ref {}: {}; retrying every {} ms",
                            u.index_ref, e.toString(), PUSH_PERIOD_MILLIS);
                }
            }
        }
    }

    /** Starts pushing at 10 Hz. */
    public synchronized void start() {
        scheduler = new AgentRunner(PeriodicAgent.named("push-mib-updates")
                .duty(PeriodicDeadline.Kind.FIXED_RATE, TimeUnit.MILLISECONDS.toNanos(PUSH_PERIOD_MILLIS), 0, this::pushOnce)
                .build(), NoIdleStrategy.INSTANCE);
        scheduler.start();
    }

    /** @return updates delivered so far */
    public long deliveredUpdates() {
        return deliveredUpdates;
    }

    /** @return updates that failed so far */
    public long failedUpdates() {
        return failedUpdates;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
    }
}
