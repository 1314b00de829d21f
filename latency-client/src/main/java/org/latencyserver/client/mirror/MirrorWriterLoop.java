package org.latencyserver.client.mirror;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;

/**
 * The one thread that writes the mirror file: it takes {@link MirrorCommand}s from a queue, writes
 * each into its record under the seqlock, and beats the heartbeat at least every heartbeat
 * interval (also while idle, so readers can tell a live mirror from a dead one).
 *
 * <p>It keeps the last record written per connection so that losing the server marks every
 * record stale (reason {@code STALE_REASON_SERVER_LOST}) with its last served values, and so that an
 * estimate older than the one already mirrored (a refresh answer overtaken by a push) is dropped.
 *
 * <p>An {@link Agent}: each round waits for a command at most until the next beat is due, writes it,
 * then beats when due. A command that fails is counted once per distinct error by the runner; the
 * next round beats at once when the beat is due, so a bad command never stops the heartbeat (readers
 * would take the mirror for dead). A file truncated under the writer (its length is measured each
 * round before the mapping is touched) or an {@link Error} in a round kills the writer: the loop
 * ends and completes {@link #death()}, so that its owner can stop the process. The file is closed
 * by the loop's own thread as it ends.
 *
 * <p>Threads: {@link #submit} from any thread; everything else on the loop's own thread.
 */
final class MirrorWriterLoop implements AutoCloseable {

    /** How long close waits for the loop's thread. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final EstimateMirrorWriter writer;
    private final int heartbeatIntervalMillis;
    private final LongSupplier epochMillis;
    private final BlockingQueue<MirrorCommand> commands = new LinkedBlockingQueue<>();
    private final AgentRunner thread;
    private final CompletableFuture<String> death = new CompletableFuture<>();
    /** Last record written per index_ref (loop thread only); null where never written. */
    private final MirrorRecord[] written = new MirrorRecord[MirrorLayout.RECORD_COUNT];
    private volatile long writes;
    private int link = -1;
    private long contactEpochMillis;

    /**
     * @param writer                  the mapped file, owned by this loop from now on
     * @param heartbeatIntervalMillis how often the heartbeat is written, ms (the file promises it)
     * @param epochMillis             this host's wall clock, ms since 1970
     */
    MirrorWriterLoop(final EstimateMirrorWriter writer, final int heartbeatIntervalMillis, final LongSupplier epochMillis) {
        this.writer = writer;
        this.heartbeatIntervalMillis = heartbeatIntervalMillis;
        this.epochMillis = epochMillis;
        this.thread = new AgentRunner(new WriterAgent(), NoIdleStrategy.INSTANCE, new DistinctErrorLog("mirror-writer"),
            System::nanoTime, CLOSE_WAIT);
    }

    void start() {
        writer.heartbeat(epochMillis.getAsLong());
        thread.start();
    }

    /** @param command what to write; never blocks (the queue is unbounded, and fed at the server's change rate) */
    void submit(final MirrorCommand command) {
        commands.add(command);
    }

    /** @return how many records were written so far (any thread) */
    long writes() {
        return writes;
    }

    /** @return the commands that failed to be written, by distinct error (any thread) */
    DistinctErrorLog errors() {
        return thread.errors();
    }

    /** The writer's duty cycle. */
    private final class WriterAgent implements Agent {

        /** When the heartbeat is next due, wall-clock ms (the file's clock). */
        private long nextBeatMillis;

        @Override
        public void onStart() {
            nextBeatMillis = epochMillis.getAsLong() + heartbeatIntervalMillis;
        }

        @Override
        public int doWork(final long nowNanos) throws InterruptedException {
            try {
                return writeOrBeat();
            } catch (final IOException | Error e) {
                die(writer.path() + ": the mirror's writer failed and stops: " + e);
                return 0;
            }
        }

        private int writeOrBeat() throws InterruptedException, IOException {
            final long waitMillis = Math.max(0, nextBeatMillis - epochMillis.getAsLong());
            final MirrorCommand command = commands.poll(waitMillis, TimeUnit.MILLISECONDS);
            final long lengthBytes = writer.fileLengthBytes();
            if (lengthBytes < MirrorLayout.FILE_LENGTH) {
                die(writer.path() + ": the mirror file was truncated under its writer: it is " + lengthBytes
                    + " bytes, expected " + MirrorLayout.FILE_LENGTH + "; the mirror stops");
                return 0;
            }
            if (command != null) {
                apply(command);
            }
            final long now = epochMillis.getAsLong();
            if (now >= nextBeatMillis) {
                writer.heartbeat(now);
                nextBeatMillis = now + heartbeatIntervalMillis;
            }
            return command == null ? 0 : 1;
        }

        @Override
        public void onClose() {
            writer.close();
        }

        @Override
        public String roleName() {
            return "mirror-writer";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends the wait for a command; the mapped file is not an interruptible channel
        }
    }

    private void die(final String why) {
        death.complete(why);
        thread.requestStop();
    }

    private void apply(final MirrorCommand command) {
        if (command instanceof MirrorCommand.Served served) {
            write(served.estimate());
        } else if (command instanceof MirrorCommand.NotServed notServed) {
            final MirrorRecord previous = written[notServed.indexRef()];
            final MirrorRecord record = EstimateRecords.notServed(notServed, previous);
            put(record);
        } else if (command instanceof MirrorCommand.Link changed) {
            if (changed.contactEpochMillis() != 0) {
                contactEpochMillis = changed.contactEpochMillis();    // LOST keeps the last contact
            }
            final boolean lost = changed.linkCode() == MirrorLayout.SERVER_LINK_LOST && link != MirrorLayout.SERVER_LINK_LOST;
            link = changed.linkCode();
            // The header first: a reader that finds a record marked "server lost" finds the link lost too.
            writer.serverLink(link, contactEpochMillis);
            if (lost) {
                markAllLost();
            }
        }
    }

    private void write(final Estimate estimate) {
        final MirrorRecord previous = written[estimate.index_ref];
        if (previous != null && previous.hasEstimate() && previous.staleReason() != MirrorLayout.STALE_REASON_SERVER_LOST
            && estimate.computed_epoch_millis < previous.computedEpochMillis()) {
            return;    // an answer to a refresh that a newer push overtook
        }
        put(EstimateRecords.served(estimate, epochMillis.getAsLong()));
    }

    private void markAllLost() {
        final long now = epochMillis.getAsLong();
        for (final MirrorRecord record : written) {
            if (record != null) {
                put(EstimateRecords.lost(record, now));
            }
        }
    }

    private void put(final MirrorRecord record) {
        writer.write(record);
        written[record.indexRef()] = record;
        writes++;
    }

    /**
     * @return completed, with why, when the writer died: the file was truncated under it (checked
     *     before every round touches the mapping) or a round failed with an {@link Error} (a faulting
     *     mapped store); the loop's thread then stops and the file's heartbeat with it
     */
    CompletableFuture<String> death() {
        return death;
    }

    /** @return whether the loop's thread has ended */
    boolean stopped() {
        return thread.closed();
    }

    @Override
    public void close() {
        thread.close();
    }
}
