package org.latencyserver.server.standby;

import java.util.List;
import java.util.function.Predicate;
import org.latencyserver.server.engine.Command;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of the pair this server is, and its moves from one role to the next: primary or standby as
 * decided from the view once connected ({@link #decide}); a standby alone in the view takes over
 * (once per standing-by term, on {@code standby-takeover}, after {@link #onTakeover} gave the
 * action); a primary steps down when two primaries meet after a cut and the other keeps serving,
 * or when its lease ran out, and then joins the pair again as standby ({@link Rejoin}, on
 * {@code standby-step-down}).
 *
 * <p>Thread-safety: the view events come on JGroups' threads and every move is made under this
 * object's lock (never on the request path); the role flags are volatile for readers on any thread.
 */
final class PairRole {

    private static final Logger LOG = LoggerFactory.getLogger(PairRole.class);

    private final String peer;
    private final ReplicationChannel channel;
    private final ReplicationSender sender;
    private final ReplicaApplier applier;
    private final PrimaryLease lease;
    private final Rejoin rejoin;
    private volatile boolean primary;
    /** Whether this server serves as primary: from the start as primary, or once a takeover is done; not after a step-down. */
    private volatile boolean serving;
    private volatile boolean closed;
    /** Set once the primary left while this server stood by; guarded by {@code this}. */
    private boolean takeoverDue;
    /** The takeover's action, once the server gave it; guarded by {@code this}. */
    private Predicate<List<Command.RestoreConnection>> takeover;
    /** Whether the takeover of this standing-by term started; guarded by {@code this}. */
    private boolean takenOver;
    /** Whether {@link #decide} decided the role; views before that are the join's own. Guarded by {@code this}. */
    private boolean joined;
    private volatile long takeovers;
    /** Set once when this server stopped serving as primary, until it stands by again; written under {@code this}. */
    private volatile boolean steppedDown;
    /** What stepping down does; guarded by {@code this}. */
    private Runnable stepDownAction;
    /** Told once a server that stepped down stands by again (the ready file says so); guarded by {@code this}. */
    private Runnable rejoinedAction;
    /** Whether the primary serves only while its lease holds (the server has a naming service). */
    private volatile boolean leaseInUse;
    /** Set once a takeover bound the server's names (from then on it goes on to serve after the fence). */
    private volatile boolean namesTaken;
    /** Set while a server that stepped down looks for the other server to stand by for it. */
    private volatile boolean rejoining;
    private volatile long rejoins;
    private volatile long stepDowns;

    /**
     * @param peer    the other server's replication address, for the log
     * @param channel the pair's channel
     * @param sender  the primary's sending of records
     * @param applier the standby's applying of records
     * @param lease   the primary's lease
     */
    PairRole(final String peer, final ReplicationChannel channel, final ReplicationSender sender, final ReplicaApplier applier,
             final PrimaryLease lease) {
        this.peer = peer;
        this.channel = channel;
        this.sender = sender;
        this.applier = applier;
        this.lease = lease;
        this.rejoin = new Rejoin(this, channel, peer);
    }

    /** Once connected: the view's coordinator is the primary, the other member stands by. */
    synchronized void decide() {
        joined = true;
        if (channel.coordinator()) {
            primary = true;
            serving = true;
            applier.handOver();
            if (channel.members() > 1) {
                sender.standbyJoined();
            }
            LOG.info("primary of the pair ({} member(s); the peer is {})", channel.members(), peer);
        } else {
            LOG.info("standing by for the primary at {}: its table is copied here; no polling, no measurements", peer);
        }
    }

    /** JGroups' view thread. */
    synchronized void onView(final boolean coordinator, final int members, final boolean newMembers) {
        if (closed || !joined || rejoining) {
            return; // the role is decided once connected, from the view then; a rejoin decides from its own connect
        }
        if (steppedDown) {
            return;
        }
        if (primary && !serving && members > 1 && !namesTaken) {
            // Taking over, the names not yet bound, and the other server is back in the view: it still serves (or will
            // step down on its own lease); this one stands by again.
            stepDown("the other server is back in the pair's view before this one bound the name", true);
            return;
        }
        if (primary) {
            if (!coordinator && members > 1 && serving && !(leaseInUse && lease.holds())) {
                // Two primaries met after a cut. With a naming service the one whose lease holds (its name is bound to it)
                // stays whether or not it is the coordinator; without one, the coordinator stays.
                stepDown("two primaries met after a cut and the other one is the pair's coordinator", true);
                return;
            }
            if (members > 1 && newMembers) {
                LOG.info("a standby joined: sending it the whole table");
                sender.standbyJoined();
            } else if (members == 1) {
                LOG.warn("the standby left: acknowledged writes are on this server's disk only (unprotected)");
                sender.standbyLeft();
            }
            return;
        }
        if (coordinator && members == 1) {
            takeoverDue = true;
            startTakeoverWhenReady();
        }
    }

    /** The lease watch found a serving primary's lease run out: it steps down (unless it no longer serves). */
    synchronized void leaseLapsed(final String why) {
        if (serving && !closed) {
            stepDown(why, false);
        }
    }

    /**
     * Stops serving as primary, once per serving term: two primaries met (the views merged after a cut) and the other
     * stays, or this one's lease ran out, or its takeover failed. Then, on a thread of its own ({@code standby-step-down}),
     * runs the step-down action and joins the pair again as standby. Guarded by {@code this}.
     *
     * @param why    what the log says happened
     * @param merged whether the other server is in this one's view (a merge): it stands by at once, without joining again
     */
    private void stepDown(final String why, final boolean merged) {
        if (steppedDown) {
            return;
        }
        steppedDown = true;
        primary = false;
        serving = false;
        stepDowns++;
        namesTaken = false;
        lease.revoke();
        sender.standbyLeft();
        rejoining = true; // from now on the primary's records are taken, through the update thread
        applier.resumeThroughLoop();
        LOG.error("{}: this server stops serving as primary (no names, no polling, requests discarded) and joins the pair"
            + " again as standby; what it acknowledged alone since the cut is not in the other's table", why);
        final Runnable action = stepDownAction;
        final Thread thread = new Thread(() -> {
            if (action != null) {
                action.run();
            }
            rejoin.run(merged);
        }, "standby-step-down");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * A server that stepped down found the other server and stands by for it ({@link Rejoin}'s thread).
     *
     * @return what to tell (the server's action, possibly null); null as well when closed meanwhile
     */
    synchronized Runnable standingByAgain() {
        primary = false;
        serving = false;
        takeoverDue = false;
        takenOver = false;
        steppedDown = false;
        rejoining = false;
        rejoins++;
        return rejoinedAction;
    }

    /** Guarded by {@code this}. */
    private void startTakeoverWhenReady() {
        if (!takeoverDue || takeover == null || takenOver || closed) {
            return;
        }
        takenOver = true;
        final Predicate<List<Command.RestoreConnection>> action = takeover;
        final Thread thread = new Thread(() -> {
            LOG.warn("the primary left the pair: taking over");
            final List<Command.RestoreConnection> awaiting = applier.handOver();
            primary = true; // before the action: the ready file it writes says so, and no record is applied any more
            takeovers++;
            final long term = stepDowns;
            final boolean serves = action.test(awaiting);
            synchronized (PairRole.this) {
                if (closed || stepDowns != term) {
                    return; // closed, or stepped down meanwhile (and on its way back to standing by)
                }
                if (serves) {
                    serving = true;
                } else {
                    stepDown("the takeover did not complete", false);
                }
            }
        }, "standby-takeover");
        thread.setDaemon(true);
        thread.start();
    }

    /** @see HotStandby#onTakeover */
    synchronized void onTakeover(final Predicate<List<Command.RestoreConnection>> action) {
        this.takeover = action;
        startTakeoverWhenReady();
    }

    /** @see HotStandby#onStepDown */
    synchronized void onStepDown(final Runnable action) {
        this.stepDownAction = action;
    }

    /** @see HotStandby#onStandingByAgain */
    synchronized void onStandingByAgain(final Runnable action) {
        this.rejoinedAction = action;
    }

    /** From now on the primary serves only while its lease holds. */
    void useLease() {
        leaseInUse = true;
    }

    /** @return whether the primary serves only while its lease holds */
    boolean leaseInUse() {
        return leaseInUse;
    }

    /** A takeover bound the server's names: a view with the other server in it no longer makes it give up. */
    void namesTaken() {
        namesTaken = true;
    }

    /** Stops every move: views, takeovers and rejoins after this do nothing. */
    void close() {
        closed = true;
    }

    boolean closed() {
        return closed;
    }

    boolean primary() {
        return primary;
    }

    boolean serving() {
        return serving;
    }

    boolean steppedDown() {
        return steppedDown;
    }

    boolean rejoining() {
        return rejoining;
    }

    long takeovers() {
        return takeovers;
    }

    long stepDowns() {
        return stepDowns;
    }

    long rejoins() {
        return rejoins;
    }

    /** @return the role as the metrics and ready file name it */
    String name() {
        if (serving) {
            return "primary";
        }
        if (steppedDown || rejoining) {
            return "stepped_down";
        }
        return primary ? "taking_over" : "standing_by";
    }
}
