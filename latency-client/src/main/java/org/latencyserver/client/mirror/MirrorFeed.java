package org.latencyserver.client.mirror;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.orb.Backoff;
import org.latencyserver.orb.References;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirror's CORBA side: finds the server, reads every followed connection once, subscribes to
 * their estimate changes (pushes go straight to the writer), and re-reads them all every refresh
 * period — often ({@code pollMillis}) when the server refused the subscription or serves no
 * estimate for one of them (its state changes are not pushed), rarely ({@code refreshMillis}) as a
 * safety net while pushed. When the server stops answering it tells the
 * writer (records turn stale, reason "server lost"), looks the server up again with back-off, and
 * subscribes anew.
 *
 * <p>Threads: one feed thread makes every call; ORB threads deliver pushes to the writer's queue.
 */
final class MirrorFeed implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorFeed.class);
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** What the feed learned at its first contact with the server. */
    enum FirstContact { PENDING, OK, UNKNOWN_CONNECTIONS }

    private final Supplier<LatencyService> resolver;
    private final EstimateListener listener;
    private final Set<Short> followed;
    private final long pollMillis;
    private final long refreshMillis;
    private final Consumer<MirrorCommand> writer;
    private final LongSupplier epochMillis;
    private final Semaphore wake = new Semaphore(0);
    private final AgentRunner thread;
    private volatile FirstContact firstContact = FirstContact.PENDING;
    private volatile String firstContactProblem = "";
    private volatile int followedCount;
    private LatencyService service;
    private long subscriptionId;
    private volatile int link = -1;
    /** Whether the last refresh found a followed connection the server serves no estimate for (feed thread). */
    private boolean anyUnserved;

    /**
     * @param resolver      looks the server up (each call may resolve anew)
     * @param listener      this mirror's listener reference, for the subscription
     * @param followed      the index_refs to mirror; empty means every connection of the server
     * @param pollMillis    re-read period while not pushed, and the first back-off, ms
     * @param refreshMillis re-read period while pushed, ms
     * @param writer        where records go (the writer loop's queue)
     * @param epochMillis   this host's wall clock
     */
    MirrorFeed(final Supplier<LatencyService> resolver, final EstimateListener listener, final Set<Short> followed,
               final long pollMillis, final long refreshMillis, final Consumer<MirrorCommand> writer,
               final LongSupplier epochMillis) {
        this.resolver = resolver;
        this.listener = listener;
        this.followed = Set.copyOf(followed);
        this.pollMillis = pollMillis;
        this.refreshMillis = refreshMillis;
        this.writer = writer;
        this.epochMillis = epochMillis;
        this.thread = new AgentRunner(new FeedAgent(), NoIdleStrategy.INSTANCE, new DistinctErrorLog("mirror-feed"),
            System::nanoTime, Duration.ofSeconds(5));
    }

    void start() {
        thread.start();
    }

    /** @return whether the first contact with the server found every followed connection (any thread) */
    FirstContact firstContact() {
        return firstContact;
    }

    /** @return what was wrong at the first contact, when {@link #firstContact()} is UNKNOWN_CONNECTIONS */
    String firstContactProblem() {
        return firstContactProblem;
    }

    /** @return how many connections are mirrored (after the first contact) */
    int followedCount() {
        return followedCount;
    }

    /** Makes the feed re-read everything now (a push arrived for a connection it has not seen, say). */
    void poke() {
        wake.release();
    }

    /** The feed's duty cycle: each round reads the server once, then waits its period (or for a poke). */
    private final class FeedAgent implements Agent {

        private final Backoff backoff = new Backoff(pollMillis, MAX_BACKOFF_MILLIS);

        @Override
        public int doWork(final long nowNanos) throws InterruptedException {
            final boolean ok = refresh();
            final long waitMillis;
            if (ok) {
                backoff.reset();
                // A connection without an estimate is never pushed (a push carries an estimate), so
                // while one is followed its state is polled like everything else.
                waitMillis = link == MirrorLayout.SERVER_LINK_PUSH && !anyUnserved ? refreshMillis : pollMillis;
            } else {
                waitMillis = backoff.nextDelayMillis();
            }
            if (thread.running() && wake.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                wake.drainPermits();
            }
            return 1;
        }

        /** Cancels the subscription, on the feed's own thread, which owns it. */
        @Override
        public void onClose() {
            unsubscribe();
        }

        @Override
        public String roleName() {
            return "mirror-feed";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends the wait between reads
        }
    }

    /** @return whether the server answered */
    private boolean refresh() {
        try {
            if (service == null) {
                service = resolver.get();
            }
            final List<ConnectionInfo> mirrored = mirrored(service.list_connections());
            if (mirrored == null) {
                return true;
            }
            anyUnserved = false;
            for (final ConnectionInfo info : mirrored) {
                try {
                    writer.accept(new MirrorCommand.Served(service.current_estimate(info.index_ref), System.nanoTime()));
                } catch (EstimateUnavailable e) {
                    anyUnserved = true;
                    writer.accept(new MirrorCommand.NotServed(info.index_ref, info.quality, info.cpu_state, info.port_state,
                        epochMillis.getAsLong()));
                } catch (UnknownConnection e) {
                    poke();    // the server's configuration changed under us: list again
                }
            }
            if (subscriptionId == 0) {
                subscribe(mirrored);
            }
            setLink(subscriptionId != 0 ? MirrorLayout.SERVER_LINK_PUSH : MirrorLayout.SERVER_LINK_POLLING);
            return true;
        } catch (SystemException | References.ReferenceException e) {
            if (link != MirrorLayout.SERVER_LINK_LOST) {
                LOG.warn("mirror: the server does not answer ({}); records are marked stale, retrying", e.toString());
            }
            service = null;
            subscriptionId = 0;
            setLink(MirrorLayout.SERVER_LINK_LOST);
            return false;
        }
    }

    /** @return the followed connections the server has, or null when the first contact found some missing */
    private List<ConnectionInfo> mirrored(final ConnectionInfo[] all) {
        final List<ConnectionInfo> mirrored = new ArrayList<>();
        final java.util.Set<Short> missing = new java.util.TreeSet<>(followed);
        for (final ConnectionInfo info : all) {
            missing.remove(info.index_ref);
            if (followed.isEmpty() || followed.contains(info.index_ref)) {
                mirrored.add(info);
            }
        }
        if (!missing.isEmpty()) {
            final String problem = "the server has no connection " + missing + " (it has " + all.length + ")";
            if (firstContact == FirstContact.PENDING) {
                firstContactProblem = problem;
                firstContact = FirstContact.UNKNOWN_CONNECTIONS;
                thread.requestStop();
                return null;
            }
            LOG.warn("mirror: {}; mirroring the others", problem);
            for (final short indexRef : missing) {
                writer.accept(new MirrorCommand.NotServed(indexRef, (short) 0, (short) 0, (short) -1, epochMillis.getAsLong()));
            }
        }
        followedCount = mirrored.size();
        firstContact = FirstContact.OK;
        return mirrored;
    }

    private void subscribe(final List<ConnectionInfo> mirrored) {
        final short[] refs = new short[followed.isEmpty() ? 0 : mirrored.size()];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = mirrored.get(i).index_ref;
        }
        try {
            subscriptionId = service.subscribe(listener, refs);
            LOG.info("mirror: subscribed to {} connection(s); pushes are written at once", followed.isEmpty() ? "all" : refs.length);
        } catch (InvalidArgument | UnknownConnection e) {
            // E.g. the server's subscription cap: poll instead (the file says so: server_link = polling).
            LOG.warn("mirror: the server refused the subscription ({}); polling every {} ms", reason(e), pollMillis);
        } catch (org.omg.CORBA.NO_IMPLEMENT | org.omg.CORBA.BAD_OPERATION e) {
            LOG.warn("mirror: the server has no subscriptions ({}); polling every {} ms", e.toString(), pollMillis);
        }
    }

    private static String reason(final Exception e) {
        if (e instanceof InvalidArgument invalid) {
            return invalid.reason;
        }
        return e.toString();
    }

    private void setLink(final int code) {
        link = code;
        writer.accept(new MirrorCommand.Link(code, code == MirrorLayout.SERVER_LINK_LOST ? 0 : epochMillis.getAsLong()));
    }

    /** @return the current link code (feed thread's last view; any thread may read it for display) */
    int link() {
        return link;
    }

    @Override
    public void close() {
        thread.close();
    }

    private void unsubscribe() {
        final LatencyService current = service;
        if (current != null && subscriptionId != 0) {
            try {
                current.unsubscribe(subscriptionId);
            } catch (SystemException e) {
                LOG.debug("mirror: unsubscribe failed: {}", e.toString());
            }
        }
    }
}
