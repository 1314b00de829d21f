package org.latencyserver.server.standby;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.latencyserver.launch.agent.TaskQueueAgent;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.persistence.LearnedCellsCodec;
import org.latencyserver.server.persistence.ReplicaRecords;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The primary's side of the pair: the changed connections' records to the standby, the same
 * changes the state store appends to its journal, each record whole.
 *
 * <p>Contract: when {@link #awaitReplicated} returns true, every change published before the call
 * is held by the standby (applied to its table). Callers waiting together share one send, as the
 * state store's writers share one append. Changes nobody waits for go with the next send, at most
 * one flush interval later. A standby that joins is sent the whole table first; until that is
 * acknowledged, and after a send failed, the primary is {@link #protectedNow() unprotected}.
 *
 * <p>A profile a planner loaded is sent before the records that follow it (whole, as its file holds
 * it), and again to every standby that joins. The profile cells learned from probes go after the
 * profiles and before the records: those that changed since the snapshot the standby last
 * acknowledged (a joining standby is sent them all).
 *
 * <p>Invariant that loses no change: a connection's mark is removed before its row is read, so a
 * change published after the read marks it again; a send that fails marks its connections again.
 *
 * <p>Thread-safety: {@link #rowChanged} from the update thread, which never waits (it only marks);
 * every send on the sender's own thread ({@code standby-sender}, a {@link TaskQueueAgent});
 * {@link #awaitReplicated}, the peer events and the counters from any thread.
 */
public final class ReplicationSender implements EngineListener, AutoCloseable {

    /** The most records one message carries; a whole table goes as several, each acknowledged. */
    static final int MAX_RECORDS_PER_MESSAGE = 256;
    /** Readings-only changes nobody waits for are sent at least this often, ms. */
    static final long READINGS_SEND_INTERVAL_MILLIS = 30_000;

    /** What carries the records to the standby. */
    public interface Link {
        /**
         * @return true when the standby acknowledged them; false when there is no other member to send to
         */
        boolean send(byte[] records, long timeoutMillis);
    }

    private final ConnectionTable table;
    private final Link link;
    private final long ackTimeoutMillis;
    private final Set<Short> marked = ConcurrentHashMap.newKeySet();
    /** Every profile loaded into this server (kept from a planner's load, or restored at start): a joining standby's. */
    private final Map<String, Profile> loadedProfiles = new ConcurrentHashMap<>();
    /** Loaded profiles not yet acknowledged by the standby, sent before the connections' records. */
    private final Map<String, Profile> profilesMarked = new ConcurrentHashMap<>();
    /** Connections whose record changed in its readings alone since it was last sent. */
    private final Set<Short> readingsMarked = ConcurrentHashMap.newKeySet();
    /** When readings-only changes were last sent, monotonic ns; the sender thread's. */
    private long lastReadingsSendNanos = System.nanoTime();
    /** The engine's learned profile cells, an immutable snapshot replaced on every change. */
    private final Supplier<Map<String, Map<LearnedProfiles.CellKey, LearnedCell>>> learnedCells;
    /** The learned cells' snapshot the standby last acknowledged (null: none yet); the sender thread's. */
    private Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedSent;
    private final TaskQueueAgent tasks;
    private final AgentRunner runner;
    private final LongAdder recordsSent = new LongAdder();
    private final LongAdder sendsFailed = new LongAdder();
    private final LongAdder unprotectedWrites = new LongAdder();
    /** Whether a standby is in the view; set by the channel's view thread. */
    private volatile boolean standbyPresent;
    /** Whether everything the standby was sent since it joined was acknowledged; the sender thread's verdict. */
    private volatile boolean inSync;

    /**
     * @param table            the primary's table
     * @param link             the channel's send
     * @param ackTimeoutMillis how long one send waits for the standby's acknowledgement
     * @param flushIntervalMillis changes nobody waits for are sent at most this long after they are published
     */
    public ReplicationSender(final ConnectionTable table, final Link link, final long ackTimeoutMillis,
                             final long flushIntervalMillis) {
        this(table, Map::of, link, ackTimeoutMillis, flushIntervalMillis);
    }

    /**
     * @param table            the primary's table
     * @param learnedCells     the engine's learned profile cells (an immutable snapshot, any thread)
     * @param link             the channel's send
     * @param ackTimeoutMillis how long one send waits for the standby's acknowledgement
     * @param flushIntervalMillis changes nobody waits for are sent at most this long after they are published
     */
    public ReplicationSender(final ConnectionTable table,
                             final Supplier<Map<String, Map<LearnedProfiles.CellKey, LearnedCell>>> learnedCells,
                             final Link link, final long ackTimeoutMillis, final long flushIntervalMillis) {
        this.table = table;
        this.learnedCells = learnedCells;
        this.link = link;
        this.ackTimeoutMillis = ackTimeoutMillis;
        this.tasks = TaskQueueAgent.named("standby-sender")
            .duty(PeriodicDeadline.Kind.FIXED_DELAY, TimeUnit.MILLISECONDS.toNanos(flushIntervalMillis), this::flush)
            .build();
        this.runner = new AgentRunner(tasks, NoIdleStrategy.INSTANCE, new DistinctErrorLog("standby-sender"), System::nanoTime,
            Duration.ofMillis(ackTimeoutMillis + 1000));
    }

    /** Starts the sender's thread. */
    public void start() {
        runner.start();
    }

    /** Update thread: marks the connection for the standby; never waits. */
    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        if (before != null && ReplicaRecords.sameRecordButReadings(before, after)) {
            readingsMarked.add(after.spec().indexRef());
        } else {
            marked.add(after.spec().indexRef());
        }
    }

    /** Sender thread's periodic duty: the changes that matter, and the readings-only ones when they are due. */
    private void flush() {
        sendMarked(System.nanoTime() - lastReadingsSendNanos >= TimeUnit.MILLISECONDS.toNanos(READINGS_SEND_INTERVAL_MILLIS));
    }

    /**
     * A profile was loaded into this server (a planner's {@code load_profile}, before the write is answered; or
     * restored at start, or applied from the primary while standing by): a standby is sent it before the records that
     * follow, and a standby that joins later is sent it too.
     *
     * @param profile the profile, as it serves
     * @param send    whether to send it to the standby now (false for one the standby has, or that only a joiner needs)
     */
    public void profileLoaded(final Profile profile, final boolean send) {
        loadedProfiles.put(profile.name(), profile);
        if (send) {
            profilesMarked.put(profile.name(), profile);
        }
    }

    /** A standby joined (any thread): the whole table is sent to it before anything else counts as protected. */
    public void standbyJoined() {
        inSync = false;
        standbyPresent = true;
        profilesMarked.putAll(loadedProfiles);
        for (final ConnectionRow row : table.rows()) {
            marked.add(row.spec().indexRef());
        }
        tasks.execute(() -> {
            learnedSent = null; // the joiner has none of them
            sendMarked(true);
        });
    }

    /** The standby left the view (any thread): writes are on this server's disk only from now on. */
    public void standbyLeft() {
        standbyPresent = false;
        inSync = false;
    }

    /**
     * Waits until the standby holds every change published before this call. Without a standby it
     * returns at once: the write is unprotected (counted).
     *
     * @param timeoutMillis how long to wait at most
     * @return true when the standby holds them; false when there is none, or it did not acknowledge in time
     */
    public boolean awaitReplicated(final long timeoutMillis) {
        return replicate().await(timeoutMillis);
    }

    /**
     * Starts sending every change published before this call, so that the caller can do other work (its own disk
     * save) while the standby acknowledges; {@link Replication#await} then waits for it.
     *
     * @return the send under way (or, without a standby, one that reports unprotected at once)
     */
    public Replication replicate() {
        if (!standbyPresent) {
            return new Replication(null);
        }
        try {
            return new Replication(tasks.submit(() -> sendMarked(true)));
        } catch (RejectedExecutionException e) {
            return new Replication(null);
        }
    }

    /** One caller's send to the standby, under way. Thread-safety: its caller's. */
    public final class Replication {

        private final java.util.concurrent.Future<Boolean> sent;

        private Replication(final java.util.concurrent.Future<Boolean> sent) {
            this.sent = sent;
        }

        /**
         * @param timeoutMillis how long to wait at most
         * @return true when the standby holds the changes; false when none does (counted as an unprotected write)
         */
        public boolean await(final long timeoutMillis) {
            if (sent != null) {
                try {
                    if (sent.get(timeoutMillis, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // counted below: answered without the standby
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            unprotectedWrites.increment();
            return false;
        }
    }

    /**
     * Sender thread: sends every marked connection's record, in messages of at most
     * {@value #MAX_RECORDS_PER_MESSAGE}.
     *
     * @param withReadings whether the connections changed in their readings alone are sent too
     * @return whether the standby holds them all (false without a standby: nothing was sent)
     */
    private boolean sendMarked(final boolean withReadings) {
        if (!standbyPresent) {
            return false;
        }
        if (withReadings) {
            lastReadingsSendNanos = System.nanoTime();
            for (final Iterator<Short> it = readingsMarked.iterator(); it.hasNext();) {
                final short indexRef = it.next();
                it.remove(); // before it is marked: a reading published after this marks it again
                marked.add(indexRef);
            }
        }
        for (final String name : List.copyOf(profilesMarked.keySet())) {
            final Profile profile = profilesMarked.remove(name); // before it is sent: a newer load marks it again
            if (profile != null && !link.send(ReplicaMessages.profile(profile), ackTimeoutMillis)) {
                profilesMarked.putIfAbsent(name, profile);
                sendsFailed.increment();
                inSync = false;
                return false;
            }
            if (profile != null && learnedSent != null && learnedSent.containsKey(name)) {
                // The standby dropped the profile's learned cells when it swapped the profile in: send them all again.
                final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> without = new java.util.HashMap<>(learnedSent);
                without.remove(name);
                learnedSent = Map.copyOf(without);
            }
        }
        while (!marked.isEmpty()) {
            final List<ConnectionRow> rows = takeMarked();
            if (rows.isEmpty()) {
                break;
            }
            if (!link.send(ReplicaMessages.records(rows), ackTimeoutMillis)) {
                rows.forEach(row -> marked.add(row.spec().indexRef()));
                sendsFailed.increment();
                inSync = false;
                return false;
            }
            recordsSent.add(rows.size());
        }
        // Learned cells after the records: a standby that refuses them (an older release, a message too large) still
        // holds every record, and the cells are tried again at the next round.
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned = learnedCells.get();
        final LearnedCellsCodec.Change change = learned == learnedSent ? null
            : LearnedCellsCodec.Change.between(learnedSent, learned);
        if (change != null && !change.isEmpty()) {
            if (!link.send(ReplicaMessages.learned(change), ackTimeoutMillis)) {
                sendsFailed.increment();
                inSync = false;
                return false;
            }
        }
        learnedSent = learned;
        inSync = standbyPresent;
        return inSync;
    }

    private List<ConnectionRow> takeMarked() {
        final List<ConnectionRow> rows = new ArrayList<>();
        for (final Iterator<Short> it = marked.iterator(); it.hasNext() && rows.size() < MAX_RECORDS_PER_MESSAGE;) {
            final short indexRef = it.next();
            it.remove(); // before the row is read: a change published after this marks it again
            readingsMarked.remove(indexRef); // its readings go in this record too
            final ConnectionRow row = table.row(indexRef);
            if (row != null) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** @return whether a standby holds every acknowledged write: present, sent the whole table, and no send failed since */
    public boolean protectedNow() {
        return standbyPresent && inSync;
    }

    /** @return records the standby acknowledged since start */
    public long recordsSent() {
        return recordsSent.sum();
    }

    /** @return sends the standby did not acknowledge (failed, timed out, or it left) */
    public long sendsFailed() {
        return sendsFailed.sum();
    }

    /** @return writes answered while no standby held them (none present, or it did not acknowledge in time) */
    public long unprotectedWrites() {
        return unprotectedWrites.sum();
    }

    /** Stops the sender's thread; what is still marked is not sent. */
    @Override
    public void close() {
        standbyPresent = false;
        runner.close();
    }
}
