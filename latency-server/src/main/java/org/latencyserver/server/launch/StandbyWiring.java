package org.latencyserver.server.launch;

import java.io.IOException;
import java.util.List;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.StandbySettings;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.snmp.SnmpPoller;
import org.latencyserver.server.standby.HotStandby;
import org.latencyserver.server.standby.ReplicationSender;
import org.latencyserver.server.standby.StandbyCounters;
import org.omg.PortableServer.POAManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's place in a primary/standby pair ({@code server.standby}), wired into its launch: joins
 * the pair before the update thread starts, holds a primary's writes until the standby has them,
 * and, on a standby, takes over — the engine's update thread, the SNMP poller, the servant and the
 * names — when the primary leaves. With a naming service the primary serves under a lease
 * ({@code server.standby.lease_millis}, {@link org.latencyserver.server.standby.PrimaryLease}): a
 * write is answered only while it holds (else {@code TRANSIENT}), and a takeover serves only a
 * fence (1.1 leases) after it bound the names.
 *
 * <p>Thread-safety: {@link #join} and {@link #stateSaver} on the launching thread; the takeover on
 * the pair's {@code standby-takeover} thread, once; {@link #close} from any thread.
 */
final class StandbyWiring implements AutoCloseable {

    /** Why a write is refused by a server that may not acknowledge writes now. */
    private static final String NOT_PRIMARY = "this server does not serve writes as the primary of its pair now (it waits out its"
        + " takeover's fence, its lease in the naming service ran out, or it stepped down): resolve the server's name again"
        + " and send the write to the primary";

    private static final Logger LOG = LoggerFactory.getLogger(StandbyWiring.class);

    /** The server's names, as a takeover needs them. */
    interface NameBinding {
        /**
         * @return whether the server's registered name is bound to another server that answers: the old primary still
         *         serves, seen from here, and this server must not take its name
         */
        boolean heldByAnotherLiveServer();

        /** Binds the names (and writes the ready file); a partition's claim may refuse while the old primary answers. */
        void bind() throws LaunchFailure;
    }

    /** How long a takeover waits before it tries the names again. */
    static final long NAME_RETRY_MILLIS = 1000;

    private final HotStandby pair;
    private final ServerConfiguration configuration;
    private final java.util.function.LongSupplier nanoClock;
    /** Started by a takeover; closed by {@link #close}. */
    private volatile SnmpPoller poller;
    private volatile boolean closed;
    /** Whether the update thread runs (a primary from the start, or after a first takeover); the takeover thread's. */
    private volatile boolean engineRunning;

    private StandbyWiring(final HotStandby pair, final ServerConfiguration configuration,
                          final java.util.function.LongSupplier nanoClock) {
        this.pair = pair;
        this.configuration = configuration;
        this.nanoClock = nanoClock;
    }

    /**
     * Joins the pair when the configuration has {@code server.standby}; sets the assembly's state saver so that a
     * primary's writes wait for the standby too, and registers the pair's metrics.
     *
     * @return the wiring, or null without {@code server.standby}
     * @throws LaunchFailure {@link LaunchFailure.Kind#CANNOT_LISTEN} when the pair's channel cannot listen or connect, or
     *                       it finds itself alone while another server that answers holds its name
     */
    static StandbyWiring join(final ServerAssembly parts) throws LaunchFailure {
        final StandbySettings settings = parts.configuration.server().standby();
        if (settings == null) {
            return null;
        }
        final HotStandby pair;
        try {
            pair = HotStandby.join(settings, "latency-" + parts.configuration.server().registeredName(), parts.engine,
                parts.configuration.limits().maxHistogramBins(), parts.context.nanoClock(), parts.context.stateFlushIntervalMillis(),
                new HotStandby.Profiles(parts.restoredProfiles.values(), parts.configuration.limits().profileLimits(),
                    parts.loadedProfiles::save),
                () -> heldByAnotherLiveServer(parts.orb, parts.context.namingReference(),
                    parts.configuration.server().registeredName(), null));
        } catch (IOException e) {
            throw new LaunchFailure(LaunchFailure.Kind.CANNOT_LISTEN, "server.standby: " + e.getMessage());
        }
        final StandbyWiring wiring = new StandbyWiring(pair, parts.configuration, parts.context.nanoClock());
        wiring.engineRunning = pair.primary(); // a primary's launch starts the update thread next
        pair.useLoopWhenStandingByAgain(new org.latencyserver.server.engine.EngineProxy(parts.loop));
        if (parts.context.namingReference() != null) {
            pair.useLease();
        }
        parts.metrics.registerStandby(pair::counters);
        final LatencyServiceServant.StateSaver disk = parts.store::awaitSaved;
        parts.profileKeeper = profile -> {
            if (pair.primary()) {
                pair.profileLoaded(profile); // sent before the records of the connections it recomputed are awaited
            }
            parts.loadedProfiles.save(profile);
        };
        parts.stateSaver = new LatencyServiceServant.StateSaver() {
            @Override
            public boolean awaitSaved(final long timeoutMillis) {
                // The standby's send and the disk's append run at once (two threads); the write waits for both.
                final long deadlineNanos = System.nanoTime() + Math.min(timeoutMillis, pair.ackTimeoutMillis()) * 1_000_000L;
                final ReplicationSender.Replication replication = pair.primary() ? pair.replicate() : null;
                final boolean saved = disk.awaitSaved(timeoutMillis);
                if (replication != null) {
                    // one wait for both: what is left of the standby's time after the disk's
                    replication.await(Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000L)); // false: unprotected, counted
                }
                if (!pair.mayAcknowledge()) {
                    // Checked last, just before the answer: a primary whose lease ran out meanwhile acknowledges nothing
                    // more. The write was applied here (and may be on the standby): COMPLETED_MAYBE.
                    throw new org.omg.CORBA.TRANSIENT(NOT_PRIMARY, 0, org.omg.CORBA.CompletionStatus.COMPLETED_MAYBE);
                }
                return saved;
            }

            @Override
            public void admitWrite() {
                if (!pair.mayAcknowledge()) {
                    throw new org.omg.CORBA.TRANSIENT(NOT_PRIMARY, 0, org.omg.CORBA.CompletionStatus.COMPLETED_NO);
                }
            }
        };
        return wiring;
    }

    /**
     * @param orb       the server's ORB
     * @param naming    the naming service's reference, or null without one
     * @param name      the server's registered name
     * @param ownServer this server's reference, or null before it has one
     * @return whether the name is bound to another server that answers; false without a naming service, when the name is
     *         unbound or bound to this server, or when the naming service cannot be asked
     */
    static boolean heldByAnotherLiveServer(final org.omg.CORBA.ORB orb, final String naming, final String name,
                                           final org.omg.CORBA.Object ownServer) {
        if (naming == null) {
            return false;
        }
        try {
            final org.omg.CORBA.Object bound = org.latencyserver.orb.References.resolve(orb, name, naming);
            return (ownServer == null || !bound._is_equivalent(ownServer)) && answersWithin(bound, ANSWER_WAIT_MILLIS);
        } catch (org.omg.CORBA.SystemException | org.latencyserver.orb.References.ReferenceException e) {
            return false;
        }
    }

    /** How long the check whether the name's holder answers waits: a holder cut off by a silent drop never does. */
    static final long ANSWER_WAIT_MILLIS = 2000;
    /** The check under way, at most one: a call to a cut-off holder may hang until TCP gives up. */
    private static final java.util.concurrent.atomic.AtomicReference<java.util.concurrent.Future<Boolean>> ANSWER_CHECK =
        new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * @return whether the object answered within the wait; false when it did not (or a check of an earlier call still
     *         hangs): with a naming service the lease makes a takeover safe even when the holder still serves
     */
    static boolean answersWithin(final org.omg.CORBA.Object object, final long waitMillis) {
        java.util.concurrent.Future<Boolean> check = ANSWER_CHECK.get();
        if (check != null && !check.isDone()) {
            return false;
        }
        final java.util.concurrent.FutureTask<Boolean> task =
            new java.util.concurrent.FutureTask<>(() -> org.latencyserver.orb.Partitions.answers(object));
        if (!ANSWER_CHECK.compareAndSet(check, task)) {
            return false;
        }
        final Thread thread = new Thread(task, "standby-answer-check");
        thread.setDaemon(true);
        thread.start();
        try {
            return task.get(waitMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return whether this server is the primary (it launches as today) rather than the standby */
    boolean primary() {
        return pair.primary();
    }

    /**
     * From now on a takeover may run. It first takes the server's names — waiting, and trying again every
     * {@value #NAME_RETRY_MILLIS} ms, while the name is held by another server that answers (the old primary, still
     * serving, seen from here) or the naming service refuses — then applies the records that awaited a measurement,
     * starts the update thread and lets requests in: reads are served at once from the copy of the table, writes are
     * answered {@code TRANSIENT} until the fence is over; then it starts the poller and acknowledges writes.
     */
    void takeOverWith(final UpdateEngine engine, final EngineLoop loop, final LatencyServiceServant servant,
                      final ServerMetrics metrics, final POAManager poaManager, final NameBinding names) {
        pair.onTakeover(awaiting -> {
            final long term = pair.stepDowns();
            final boolean bound = takeNames(names, term);
            if (bound) {
                pair.namesTaken();
            }
            if (closed) {
                return false;
            }
            try {
                startUpdateThread(engine, loop, servant, awaiting);
                if (bound && !closed && pair.stepDowns() == term) {
                    // Reads are served from here on, from the copy of the table; writes are answered TRANSIENT until the
                    // fence is over (mayAcknowledge holds only once the pair serves), so no two servers acknowledge at once.
                    poaManager.activate();
                }
            } catch (org.omg.PortableServer.POAManagerPackage.AdapterInactive | org.latencyserver.server.engine.EngineCallException
                     | RuntimeException e) {
                LOG.error("the takeover failed: {}; this server does not serve as primary", e.toString());
                return false;
            }
            if (!bound || !waitOutFence(term)) {
                return false; // stepping down discards requests again; the update thread goes on applying records
            }
            try {
                poller = ServerAssembly.startPoller(configuration, loop, metrics);
                LOG.warn("took over as primary: serving writes, polling and bound; {} connections ask again for the measurement"
                    + " the old primary awaited", awaiting.size());
                return true;
            } catch (LaunchFailure | IOException | RuntimeException e) {
                LOG.error("the takeover failed: {}; this server does not serve as primary", e.toString());
                return false;
            }
        });
    }

    /**
     * Starts the update thread, once, with the records that awaited a measurement applied (so their connections ask
     * again); a server that stepped down and stood by again already runs it, and has the records sent to it.
     */
    private void startUpdateThread(final UpdateEngine engine, final EngineLoop loop, final LatencyServiceServant servant,
                                   final java.util.List<Command.RestoreConnection> awaiting)
        throws org.latencyserver.server.engine.EngineCallException {
        if (engineRunning) {
            final org.latencyserver.server.engine.EngineProxy commands = new org.latencyserver.server.engine.EngineProxy(loop);
            for (final Command.RestoreConnection command : awaiting) {
                commands.call(command);
            }
            return;
        }
        engine.addListener(servant.engineListener());
        final long now = nanoClock.getAsLong();
        for (final Command.RestoreConnection command : awaiting) {
            command.applyTo(engine, now);
        }
        loop.start();
        engineRunning = true;
    }

    /**
     * The names are bound to this server: the old primary's lease, if it still runs, was last renewed by a check sent
     * before the bind, and ends within a lease of it. Waits {@link HotStandby#fenceMillis} (1.1 leases, or nothing without
     * a naming service), then serves only if this server's own lease holds (its name keeper found the name still its own).
     *
     * @return true when this server may serve now
     */
    private boolean waitOutFence(final long term) {
        final long fenceMillis = pair.fenceMillis();
        if (fenceMillis > 0) {
            LOG.warn("bound the server's names; waiting {} ms (1.1 x server.standby.lease_millis) before serving, so that an old"
                + " primary cut off from here has stopped acknowledging writes", fenceMillis);
            final long endNanos = System.nanoTime() + fenceMillis * 1_000_000L;
            long leftNanos;
            while (!closed && pair.stepDowns() == term && (leftNanos = endNanos - System.nanoTime()) > 0) {
                try {
                    Thread.sleep(Math.max(1, leftNanos / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        if (closed || pair.stepDowns() != term) {
            return false;
        }
        if (!pair.leaseHoldsAfterFence()) {
            LOG.error("after the fence this server's own lease does not hold (the name is bound elsewhere, or the naming"
                + " service cannot be reached): not serving");
            return false;
        }
        return true;
    }

    /** @return the name keeper's behaviour for this server: leave another server's binding alone, renew the lease */
    org.latencyserver.orb.NameKeeper.Yielding yielding() {
        return new org.latencyserver.orb.NameKeeper.Yielding(pair.lease()::confirmed);
    }

    /**
     * @param nameCheckIntervalMillis the server's name check interval
     * @return how often this server checks its name: often enough to renew its lease four times per lease
     */
    long nameCheckIntervalMillis(final long nameCheckIntervalMillis) {
        return Math.max(1, Math.min(nameCheckIntervalMillis, configuration.server().standby().leaseMillis() / 4));
    }

    /** @return the role, as the ready file says it */
    String role() {
        return pair.role();
    }

    /** @return true once the names are bound; false when the server was closed or stepped down first */
    private boolean takeNames(final NameBinding names, final long term) {
        boolean told = false;
        while (!closed && !pair.steppedDown() && pair.stepDowns() == term) {
            try {
                if (!names.heldByAnotherLiveServer()) {
                    names.bind();
                    return true;
                }
                if (!told) {
                    LOG.error("the old primary left the pair but still answers at the server's name: not taking over while it"
                        + " does (the link between the two is cut?); trying every {} ms", NAME_RETRY_MILLIS);
                }
            } catch (LaunchFailure e) {
                if (!told) {
                    LOG.error("taking over, the names cannot be bound: {}; trying every {} ms", e.getMessage(), NAME_RETRY_MILLIS);
                }
            }
            told = true;
            try {
                Thread.sleep(NAME_RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** @return whether this server stepped down (a merge, or its lease ran out) and has not stood by again yet */
    boolean steppedDown() {
        return pair.steppedDown() || pair.rejoining();
    }

    /** @return the pair as this server sees it now */
    StandbyCounters counters() {
        return pair.counters();
    }

    /** What to do once this server, after a step-down, stands by again (rewrite the ready file). */
    void standingByAgainWith(final Runnable told) {
        pair.onStandingByAgain(told);
    }

    /**
     * What stopping to serve takes when this primary steps down (its lease ran out, or it met a primary whose lease
     * holds): runs once per step-down, on the pair's {@code standby-step-down} thread.
     */
    void stepDownWith(final Runnable stopServing) {
        pair.onStepDown(() -> {
            stopServing.run();
            final SnmpPoller started = poller;
            if (started != null) {
                started.close();
            }
        });
    }

    /** For tests: cuts (true) or heals (false) the pair's link, as {@link HotStandby#isolateForTest}. */
    void isolateForTest(final boolean isolated) {
        pair.isolateForTest(isolated);
    }

    /** For tests: leaves the pair as a crash would (no leave message). */
    void crashChannel() {
        pair.closeAbruptly();
    }

    /** Leaves the pair and stops a poller a takeover started. */
    @Override
    public void close() {
        closed = true;
        pair.close();
        final SnmpPoller started = poller;
        if (started != null) {
            started.close();
        }
    }
}
