package org.latencyserver.server.standby;

import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.LongSupplier;
import org.latencyserver.server.config.StandbySettings;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.UpdateEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server of a primary/standby pair: which of the two it is, and the replication that goes with
 * it. It joins the pair's {@link ReplicationChannel} before the server serves: alone it is the
 * primary; finding the other, it stands by — its {@link ReplicaApplier} keeps its table a copy of
 * the primary's, and it neither polls nor measures. When the primary leaves the view (killed,
 * hung, cut off), the standby, alone in the view, takes over: the applier hands the engine to the
 * takeover action, which starts what a primary runs (with a naming service: binds the name, waits
 * the fence of {@link PrimaryLease}, then serves).
 *
 * <p>A primary's {@link ReplicationSender} sends every change to the standby, the whole table
 * first when a standby joins (so an old primary that returns catches up), and
 * {@link #awaitReplicated} holds a write's answer until the standby holds it.
 *
 * <p>Two primaries that meet (the views merge after a cut): the one that is not the merged view's
 * coordinator steps down ({@link #onStepDown}'s action). A primary whose {@link PrimaryLease} ran
 * out (it could not confirm its name in the naming service for {@code server.standby.lease_millis})
 * steps down the same way. A server that stepped down joins the pair again as standby, without a
 * restart: it leaves the view and joins every {@value Rejoin#RETRY_MILLIS} ms until it finds the
 * other server (it never stays alone in a view, so it never meets the other as a second primary),
 * and is then sent the whole table, applied through its running update thread. A server that
 * finds itself alone at {@link #join} while another server that answers holds its name joins
 * again, and refuses to become a second primary.
 *
 * <p>This class is the pair's face to the server: it builds the parts and answers for them. Each
 * part has one job: {@link ReplicationChannel} (membership and messages), {@link ReplicationSender}
 * (the primary's records out), {@link ReplicaDispatch} and {@link ReplicaApplier} (the standby's
 * records in), {@link PairRole} (the role and its moves: takeover, step-down), {@link Rejoin} (a
 * stepped-down server finding the other), {@link LeaseWatch} and {@link PrimaryLease} (the lease).
 *
 * <p>Thread-safety: the view events come on JGroups' threads and are handled under
 * {@link PairRole}'s lock (never on the request path); the takeover runs on a thread of its own
 * ({@code standby-takeover}), once per standing-by term, after {@link #onTakeover} gave it its action,
 * and the step-down and the rejoin after it on {@code standby-step-down}; the lease is watched on
 * {@code standby-lease}. The role is volatile flags; the rest is each part's own.
 */
public final class HotStandby implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HotStandby.class);
    /** How many times a server alone in the pair while another holds its name joins before it gives up. */
    static final int JOIN_ATTEMPTS = 5;

    private final StandbySettings settings;
    private final ReplicationSender sender;
    private final ReplicaApplier applier;
    private final ReplicationChannel channel;
    private final PairRole role;
    /** The primary's lease on serving; in use only once {@link #useLease} said the server has a naming service. */
    private final PrimaryLease lease;
    /** Watches the lease; set once by {@link #useLease}, guarded by {@code this}. */
    private LeaseWatch leaseWatch;

    private HotStandby(final StandbySettings settings, final String clusterName, final UpdateEngine engine,
                       final int maxHistogramBins, final LongSupplier nanoClock, final long flushIntervalMillis,
                       final Profiles profiles) throws IOException {
        this.settings = settings;
        this.lease = new PrimaryLease(settings.leaseMillis(), System::nanoTime);
        final ReplicationChannel[] channelHolder = new ReplicationChannel[1];
        this.sender = new ReplicationSender(engine.table(), engine::learnedCells,
            (records, timeout) -> channelHolder[0].send(records, timeout), settings.ackTimeoutMillis(), flushIntervalMillis);
        profiles.loaded().forEach(profile -> sender.profileLoaded(profile, false));
        this.applier = new ReplicaApplier(engine, maxHistogramBins, nanoClock, profiles.limits(), profile -> {
            sender.profileLoaded(profile, false); // should this server become primary, a joining standby is sent it
            profiles.keeper().keep(profile);
        });
        final PairRole[] roleHolder = new PairRole[1];
        final ReplicaDispatch[] dispatchHolder = new ReplicaDispatch[1];
        this.channel = new ReplicationChannel(settings, clusterName, new ReplicationChannel.Handler() {
            @Override
            public void records(final byte[] message) {
                dispatchHolder[0].deliver(message);
            }

            @Override
            public void viewChanged(final boolean coordinator, final int members, final boolean newMembers) {
                roleHolder[0].onView(coordinator, members, newMembers);
            }
        });
        channelHolder[0] = channel;
        this.role = new PairRole(settings.peerHost() + ":" + settings.peerPort(), channel, sender, applier, lease);
        roleHolder[0] = role;
        dispatchHolder[0] = new ReplicaDispatch(role, applier, settings.ackTimeoutMillis());
        engine.addListener(sender);
    }

    /**
     * Joins the pair; returns once this server knows whether it is the primary (alone, or the oldest member) or the
     * standby. Call it before the engine's update thread starts: the engine is the standby's applier's until a takeover.
     *
     * @param settings            the pair's addresses
     * @param clusterName         the pair's name (both servers' registered name)
     * @param engine              this server's engine, restored from its own files
     * @param maxHistogramBins    the most bins a replicated histogram may have
     * @param nanoClock           monotonic time
     * @param flushIntervalMillis changes nobody waits for go to the standby at most this long after they happen
     * @param profiles            the profiles planners loaded into this server, and how a standby reads and keeps more
     * @param nameHeldElsewhere   whether another server that answers holds the server's name now: a server that finds
     *                            itself alone while that is so does not become a second primary (it joins again, and
     *                            after {@value #JOIN_ATTEMPTS} attempts gives up)
     * @return the member of the pair
     * @throws IOException when the channel cannot be built or connect, or when this server found itself alone
     *                     {@value #JOIN_ATTEMPTS} times while another server held its name
     */
    public static HotStandby join(final StandbySettings settings, final String clusterName, final UpdateEngine engine,
                                  final int maxHistogramBins, final LongSupplier nanoClock, final long flushIntervalMillis,
                                  final Profiles profiles, final BooleanSupplier nameHeldElsewhere) throws IOException {
        final HotStandby pair = new HotStandby(settings, clusterName, engine, maxHistogramBins, nanoClock, flushIntervalMillis,
            profiles);
        pair.sender.start();
        try {
            pair.channel.connect();
            for (int attempt = 1; pair.channel.coordinator() && pair.channel.members() == 1 && nameHeldElsewhere.getAsBoolean();
                 attempt++) {
                if (attempt == JOIN_ATTEMPTS) {
                    throw new IOException("the pair's other server does not answer at " + settings.peerHost() + ":"
                        + settings.peerPort() + ", but another server that answers holds this server's name: not starting a"
                        + " second primary (is the link between the two cut, or server.standby.peer wrong?)");
                }
                LOG.warn("alone in the pair, but another server that answers holds the name: joining again ({} of {})", attempt,
                    JOIN_ATTEMPTS - 1);
                pair.channel.rejoin();
            }
        } catch (IOException e) {
            pair.channel.close();
            pair.sender.close();
            pair.applier.close();
            throw e;
        }
        pair.role.decide();
        return pair;
    }

    /**
     * From now on the primary serves only while its lease holds: called once the server knows it has a naming service
     * (without one there is no third party to hold a lease with, and the pair behaves as without a lease). Starts the
     * {@code standby-lease} thread, which steps a serving primary down once its lease ran out.
     */
    public synchronized void useLease() {
        if (role.leaseInUse() || role.closed()) {
            return;
        }
        role.useLease();
        leaseWatch = new LeaseWatch(role, lease, settings.leaseMillis());
        leaseWatch.start();
    }

    /**
     * @param proxy the update thread's commands: a server that stepped down applies the primary's records with them
     */
    public void useLoopWhenStandingByAgain(final org.latencyserver.server.engine.EngineProxy proxy) {
        applier.useLoop(proxy);
    }

    /** @return the primary's lease; the name keeper confirms it */
    public PrimaryLease lease() {
        return lease;
    }

    /**
     * @return whether this server may acknowledge a write now: it serves as primary and, with a naming service, its lease
     *         holds. Checked just before a write is answered.
     */
    public boolean mayAcknowledge() {
        return role.serving() && (!role.leaseInUse() || lease.holds());
    }

    /** @return how long a standby that bound the name waits before it serves, ms */
    public long fenceMillis() {
        return role.leaseInUse() ? PrimaryLease.fenceMillis(settings.leaseMillis()) : 0;
    }

    /**
     * The takeover's action bound the names and waited out the fence: this server serves only if its own lease holds
     * (its name keeper confirmed the binding meanwhile). Called on the takeover thread.
     *
     * @return whether the lease holds (always, without a naming service)
     */
    public boolean leaseHoldsAfterFence() {
        return !role.leaseInUse() || lease.holds();
    }

    /** A takeover bound the server's names: a view with the other server in it no longer makes it give up. */
    public void namesTaken() {
        role.namesTaken();
    }

    /** @return how many times this server stepped down: a takeover begun before a step-down gives up once it changed */
    public long stepDowns() {
        return role.stepDowns();
    }

    /** @return whether the server joins the pair again after a step-down, looking for the other server */
    public boolean rejoining() {
        return role.rejoining();
    }

    /** @return the role as the metrics and ready file name it */
    public String role() {
        return role.name();
    }

    /**
     * Gives what stopping to serve takes (names, poller, requests) when two primaries meet and this one is not the
     * coordinator, or its lease ran out.
     */
    public void onStepDown(final Runnable action) {
        role.onStepDown(action);
    }

    /** Gives what to do once a server that stepped down stands by again (on {@code standby-step-down}). */
    public void onStandingByAgain(final Runnable action) {
        role.onStandingByAgain(action);
    }

    /** @return whether this server stepped down and has not yet joined the pair again as standby */
    public boolean steppedDown() {
        return role.steppedDown();
    }

    /**
     * Gives the action that makes this server a primary (starting the update thread, the poller, serving, binding its
     * names); run at most once per standing-by term, on its own thread, when the primary leaves — at once if it already
     * has.
     *
     * @param action takes the engine over; given the records that awaited a measurement, to apply with their request first;
     *               returns whether this server now serves (false: closed or stepped down while it waited for the names,
     *               or the takeover failed)
     */
    public void onTakeover(final Predicate<List<Command.RestoreConnection>> action) {
        role.onTakeover(action);
    }

    /**
     * The loaded profiles' part of the pair: those a planner loaded into this server before (restored from its files at
     * start), the limits a profile from the primary is read within, and where a standby keeps one for its next start.
     *
     * @param loaded  the profiles restored from this server's kept ones
     * @param limits  this server's profile limits
     * @param keeper  keeps a profile for this server's next start
     */
    public record Profiles(java.util.Collection<org.latencyserver.core.profile.Profile> loaded,
                           org.latencyserver.core.profile.ProfileLimits limits,
                           org.latencyserver.server.engine.ProfileInstaller.ProfileKeeper keeper) {
    }

    /**
     * A planner loaded a profile into this primary (before the write is answered): the standby is sent it before the
     * records that follow.
     */
    public void profileLoaded(final org.latencyserver.core.profile.Profile profile) {
        sender.profileLoaded(profile, true);
    }

    /** @return whether this server is the primary now (false while it stands by; true from the start of a takeover) */
    public boolean primary() {
        return role.primary();
    }

    /**
     * Waits until the standby holds every change published before the call (a primary's write, before it is answered).
     *
     * @param timeoutMillis how long at most
     * @return true when the standby holds it; false when none does (absent or too slow: the write is unprotected)
     */
    public boolean awaitReplicated(final long timeoutMillis) {
        return sender.awaitReplicated(Math.min(timeoutMillis, settings.ackTimeoutMillis()));
    }

    /**
     * Starts sending every change published before the call to the standby (a primary's write, while its own disk save
     * runs); {@link ReplicationSender.Replication#await} waits for the acknowledgement.
     *
     * @return the send under way
     */
    public ReplicationSender.Replication replicate() {
        return sender.replicate();
    }

    /** @return how long a write waits for the standby at most, ms ({@code server.standby.ack_timeout_millis}) */
    public long ackTimeoutMillis() {
        return settings.ackTimeoutMillis();
    }

    /** @return the pair as this server sees it now; its {@code primary} is whether it serves as primary */
    public StandbyCounters counters() {
        final boolean serving = role.serving();
        return new StandbyCounters(serving, serving && sender.protectedNow(), channel.members(), sender.recordsSent(),
            sender.sendsFailed(), sender.unprotectedWrites(), applier.recordsApplied(), role.takeovers(), role.name(),
            serving && role.leaseInUse() ? lease.remainingMillis() : 0, lease.lapses(), role.stepDowns(), role.rejoins());
    }

    /** Leaves the pair (the other member sees it go at once) and stops sending and applying. */
    @Override
    public void close() {
        role.close();
        final LeaseWatch watch;
        synchronized (this) {
            watch = leaseWatch;
        }
        if (watch != null) {
            watch.close();
        }
        channel.close();
        sender.close();
        applier.close();
    }

    /**
     * For tests: drops every message to and from the other member (true) as a cut link would, or lets them through
     * again (false).
     */
    public void isolateForTest(final boolean isolated) {
        channel.isolateForTest(isolated);
    }

    /** Stops as a crash would: no leave message; the other member finds it gone by failure detection. For tests. */
    public void closeAbruptly() {
        role.close();
        channel.closeAbruptly();
        sender.close();
        applier.close();
    }
}
