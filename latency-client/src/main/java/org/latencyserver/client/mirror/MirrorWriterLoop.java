package org.latencyserver.client.mirror;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.launch.WorkerThread;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes the mirror file: it takes {@link MirrorCommand}s from a queue, writes
 * each into its record under the seqlock, and beats the heartbeat at least every heartbeat
 * interval (also while idle, so readers can tell a live mirror from a dead one).
 *
 * <p>It keeps the last record written per connection so that losing the server marks every
 * record stale (reason {@code STALE_REASON_SERVER_LOST}) with its last served values, and so that an
 * estimate older than the one already mirrored (a refresh answer overtaken by a push) is dropped.
 *
 * <p>Threads: {@link #submit} from any thread; everything else on the loop's own thread.
 */
final class MirrorWriterLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorWriterLoop.class);

    private final EstimateMirrorWriter writer;
    private final int heartbeatIntervalMillis;
    private final LongSupplier epochMillis;
    private final BlockingQueue<MirrorCommand> commands = new LinkedBlockingQueue<>();
    private final WorkerThread thread;
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
        this.thread = new WorkerThread("mirror-writer", this::run);
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

    private void run() {
        long nextBeatMillis = epochMillis.getAsLong() + heartbeatIntervalMillis;
        while (thread.running()) {
            try {
                final long waitMillis = Math.max(0, nextBeatMillis - epochMillis.getAsLong());
                final MirrorCommand command = commands.poll(waitMillis, TimeUnit.MILLISECONDS);
                if (command != null) {
                    apply(command);
                }
                final long now = epochMillis.getAsLong();
                if (now >= nextBeatMillis) {
                    writer.heartbeat(now);
                    nextBeatMillis = now + heartbeatIntervalMillis;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // A bad command must not stop the heartbeat: readers would take the mirror for dead.
                LOG.warn("mirror: could not write a record: {}", e.toString());
            }
        }
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

    @Override
    public void close() throws InterruptedException {
        thread.stop(Duration.ofSeconds(5));
        writer.close();
    }
}
