package org.latencyserver.console;

import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.References;
import org.latencyserver.orb.ServerRoute;
import org.omg.CORBA.ORB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every partition of a partitioned deployment, kept current for {@code console --all-partitions}:
 * the partitions are the object bindings under the root name in the naming service (see
 * {@link Partitions}), listed at start and again every {@link #DIRECTORY_REFRESH_MILLIS} (a partition
 * registered later appears); each has its own {@link ServerFeed} (its own subscription, its own
 * refresh and back-off), so a partition that is down shows as down while the others stay live.
 *
 * <p>Thread-safety: thread-safe. Each feed refreshes on its own thread; a new combined snapshot is
 * made and handed to the observers under this object's lock, so they see them in order.
 */
final class PartitionFeeds implements SnapshotSource<PartitionsSnapshot>, AutoCloseable {

    /** How often the naming service is asked for the partitions again, ms. */
    static final long DIRECTORY_REFRESH_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(PartitionFeeds.class);

    private final ORB orb;
    private final ServerRoute route;
    private final String naming;
    private final String root;
    private final long refreshMillis;
    /** Whether each feed serves a callback object and subscribes; false for a console that reads once. */
    private final boolean pushed;
    private final Map<String, ServerFeed> feeds = new ConcurrentSkipListMap<>();
    private final List<Consumer<PartitionsSnapshot>> observers = new CopyOnWriteArrayList<>();
    private final AgentRunner directory;
    private volatile boolean started;
    private volatile String problem = "";
    private PartitionsSnapshot latest;

    /**
     * @param orb           the console's ORB (serves the feeds' callback objects)
     * @param route         how calls reach the servers (plain or TLS)
     * @param naming        the naming service's reference
     * @param root          the deployment's name, e.g. {@code LatencyServer}
     * @param refreshMillis each feed's refresh period, ms
     * @param pushed        whether the feeds serve callback objects and subscribe (false: only {@link #refreshOnce()})
     */
    PartitionFeeds(final ORB orb, final ServerRoute route, final String naming, final String root, final long refreshMillis,
                   final boolean pushed) {
        this.orb = orb;
        this.pushed = pushed;
        this.route = route;
        this.naming = naming;
        this.root = root;
        this.refreshMillis = refreshMillis;
        this.latest = PartitionsSnapshot.of(root, naming, "listing the partitions", List.of());
        final long refreshNanos = TimeUnit.MILLISECONDS.toNanos(DIRECTORY_REFRESH_MILLIS);
        this.directory = new AgentRunner(PeriodicAgent.named("console-partitions")
            .duty(PeriodicDeadline.Kind.FIXED_DELAY, refreshNanos, refreshNanos, this::relist).build(), NoIdleStrategy.INSTANCE);
    }

    /** Lists the partitions and starts every feed, and the thread that lists them again. */
    void start() {
        relist();
        started = true; // from now on a partition listed later is started as it is found
        for (final ServerFeed feed : feeds.values()) {
            feed.start();
        }
        directory.start();
    }

    /**
     * Lists the partitions and reads each once, on the caller's thread (for {@code --once}).
     *
     * @return the snapshot
     */
    PartitionsSnapshot refreshOnce() {
        relist();
        for (final ServerFeed feed : feeds.values()) {
            feed.refreshOnce();
        }
        return publish();
    }

    @Override
    public synchronized PartitionsSnapshot snapshot() {
        return latest;
    }

    @Override
    public void observe(final Consumer<PartitionsSnapshot> observer) {
        observers.add(observer);
    }


    /** Asks the naming service for the partitions; a new one gets its feed (started when this is). */
    private void relist() {
        final Map<String, String> listed;
        try {
            listed = Partitions.list(orb, naming, root);
        } catch (References.ReferenceException | org.omg.CORBA.SystemException e) {
            if (problem.isEmpty()) {
                LOG.warn("cannot list the partitions under {}: {}", root, e.getMessage());
            }
            problem = "cannot list the partitions: " + e.getMessage();
            publish();
            return;
        }
        problem = "";
        for (final Map.Entry<String, String> partition : listed.entrySet()) {
            if (feeds.containsKey(partition.getKey())) {
                continue;
            }
            final ServerFeed feed = newFeed(partition.getKey(), partition.getValue());
            feeds.put(partition.getKey(), feed);
            if (started) {
                feed.start();
            }
        }
        publish();
    }

    private ServerFeed newFeed(final String partition, final String name) {
        final FeedPoker poker = new FeedPoker();
        final EstimateListener listener = !pushed ? null : EstimateListenerHelper.narrow(
            OrbSupport.serveOnRootPoa(orb, poker, "the console's ORB cannot serve a callback object"));
        final Supplier<LatencyService> resolver = () -> LatencyServiceHelper.narrow(route.reach(References.resolve(orb, name, naming)));
        final ServerFeed feed = new ServerFeed(label(partition, name), resolver, listener, refreshMillis, System::currentTimeMillis);
        poker.feed(feed);
        feed.observe(snapshot -> publish());
        return feed;
    }

    /** @return how a partition's table is headed: {@code partition p1 (LatencyServer/p1)} */
    static String label(final String partition, final String name) {
        return "partition " + partition + " (" + name + ")";
    }

    private synchronized PartitionsSnapshot publish() {
        final List<PartitionsSnapshot.PartitionView> views = new ArrayList<>();
        for (final Map.Entry<String, ServerFeed> entry : feeds.entrySet()) {
            final ConsoleSnapshot table = entry.getValue().snapshot();
            views.add(new PartitionsSnapshot.PartitionView(entry.getKey(), Partitions.partitionName(root, entry.getKey()),
                table.reachable(), table.updatedEpochMillis() > 0, table));
        }
        latest = PartitionsSnapshot.of(root, naming, problem, views);
        for (final Consumer<PartitionsSnapshot> observer : observers) {
            observer.accept(latest);
        }
        return latest;
    }

    /** Stops listing and every feed. */
    @Override
    public void close() {
        directory.close();
        for (final ServerFeed feed : feeds.values()) {
            feed.close();
        }
    }
}
