package org.latencyserver.client.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;

/** The mirror's writer thread, read back through the file as an application reads it. */
class MirrorWriterLoopTest {

    @TempDir
    Path directory;

    private final AtomicLong clockMillis = new AtomicLong(1_700_000_000_000L);
    private MirrorWriterLoop loop;
    private EstimateMirror reader;
    private final MirrorRecord record = new MirrorRecord();

    @BeforeEach
    void start() throws Exception {
        final Path file = directory.resolve("test.mirror");
        loop = new MirrorWriterLoop(EstimateMirrorWriter.create(file, 20), 20, clockMillis::get);
        loop.start();
        reader = EstimateMirror.open(file);
    }

    @AfterEach
    void stop() throws Exception {
        reader.close();
        loop.close();
    }

    private static Estimate estimate(final int indexRef, final double valueMillis, final long computedEpochMillis, final short cpuState,
                                     final boolean stale) {
        return new Estimate((short) indexRef, (short) 4, EstimateKind.BOUND, valueMillis, 96.0,
            new ConfidenceInterval(93.5, 97.9, 0.95, "percent", "Wilson score"), new ConfidenceInterval[0], true, stale,
            stale ? "SNMP agent of ws1 silent" : "", false, "measurement ticket 7", new String[0], computedEpochMillis,
            valueMillis, "", "measurement", computedEpochMillis, cpuState, (short) 95, new PathHop[0], "", 0.0, 0.0,
            "any traffic");
    }

    private void await(final int indexRef, final Predicate<MirrorRecord> condition) throws InterruptedException {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (reader.read(indexRef, record, clockMillis.get()) == ReadStatus.OK && condition.test(record)) {
                return;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("record " + indexRef + " never matched; last " + record);
    }

    @Test
    void aServedEstimateIsWrittenWithEveryFieldTheLayoutHas() throws Exception {
        loop.submit(new MirrorCommand.Served(estimate(6, 2.5, 1000, (short) 23, false), System.nanoTime()));
        await(6, MirrorRecord::hasEstimate);
        assertEquals(4, record.qos());
        assertEquals(MirrorLayout.KIND_BOUND, record.kind());
        assertEquals(2.5, record.valueMillis());
        assertEquals(96.0, record.boundPercent());
        assertEquals(93.5, record.intervalLower());
        assertEquals(97.9, record.intervalUpper());
        assertEquals(0.95, record.confidenceLevel());
        assertEquals(23, record.cpuState());
        assertEquals(95, record.portState());
        assertTrue(record.updatePending());
        assertFalse(record.stale());
        assertEquals(1000, record.computedEpochMillis());
        assertEquals(clockMillis.get(), record.mirroredEpochMillis());
    }

    @Test
    void anOlderEstimateThanTheOneMirroredIsDropped() throws Exception {
        loop.submit(new MirrorCommand.Served(estimate(6, 3.0, 2000, (short) 33, false), System.nanoTime()));
        // A refresh answer read before the push above, arriving after it.
        loop.submit(new MirrorCommand.Served(estimate(6, 1.0, 1500, (short) 11, false), System.nanoTime()));
        loop.submit(new MirrorCommand.Served(estimate(5, 9.0, 1, (short) 11, false), System.nanoTime()));
        await(5, MirrorRecord::hasEstimate);    // the writer has taken all three by now (one queue, in order)
        assertEquals(ReadStatus.OK, reader.read(6, record, clockMillis.get()));
        assertEquals(3.0, record.valueMillis());
        assertEquals(33, record.cpuState());
    }

    @Test
    void losingTheServerMarksEveryRecordStaleWithItsLastValuesAndTheLinkSaysSo() throws Exception {
        loop.submit(new MirrorCommand.Link(MirrorLayout.SERVER_LINK_PUSH, clockMillis.get()));
        loop.submit(new MirrorCommand.Served(estimate(6, 3.0, 2000, (short) 33, false), System.nanoTime()));
        loop.submit(new MirrorCommand.Served(estimate(2, 4.0, 2000, (short) 22, true), System.nanoTime()));
        await(2, r -> r.stale() && r.staleReason() == MirrorLayout.STALE_REASON_INPUT_SILENT);
        final long contact = clockMillis.get();
        clockMillis.addAndGet(5);
        loop.submit(new MirrorCommand.Link(MirrorLayout.SERVER_LINK_LOST, 0));
        await(6, r -> r.staleReason() == MirrorLayout.STALE_REASON_SERVER_LOST);
        assertEquals(3.0, record.valueMillis());
        assertTrue(record.hasEstimate());
        await(2, r -> r.staleReason() == MirrorLayout.STALE_REASON_SERVER_LOST);
        assertEquals(4.0, record.valueMillis());
        assertEquals(MirrorLayout.SERVER_LINK_LOST, reader.serverLink());
        assertEquals(contact, reader.serverContactEpochMillis(), "a lost server keeps the time it last answered");

        // Back: a served estimate, even an equally old one, replaces the lost mark.
        loop.submit(new MirrorCommand.Link(MirrorLayout.SERVER_LINK_PUSH, clockMillis.get()));
        loop.submit(new MirrorCommand.Served(estimate(6, 3.0, 2000, (short) 33, false), System.nanoTime()));
        await(6, r -> !r.stale());
    }

    @Test
    void aConnectionWithoutAnEstimateShowsItsStateAndWhy() throws Exception {
        loop.submit(new MirrorCommand.NotServed((short) 4, (short) 3, (short) 12, (short) 0, clockMillis.get()));
        await(4, r -> r.staleReason() == MirrorLayout.STALE_REASON_NO_ESTIMATE);
        assertFalse(record.hasEstimate());
        assertEquals(3, record.qos());
        assertEquals(12, record.cpuState());
    }

    @Test
    void theHeartbeatIsWrittenWhileNothingChanges() throws Exception {
        final long jumpedTo = clockMillis.addAndGet(1_000);
        // The clock keeps moving (10 ms per look), as a real one does, whenever the loop thread gets to run.
        final long deadline = System.nanoTime() + 10_000_000_000L;
        long beatMillis = clockMillis.get() - reader.heartbeatAgeMillis(clockMillis.get());
        while (beatMillis < jumpedTo && System.nanoTime() < deadline) {
            Thread.sleep(5);
            final long now = clockMillis.addAndGet(10);
            beatMillis = now - reader.heartbeatAgeMillis(now);
        }
        assertTrue(beatMillis >= jumpedTo, "a heartbeat after the clock moved on, with no command: last beat " + beatMillis
            + ", clock jumped to " + jumpedTo);
        assertTrue(reader.alive(beatMillis));
    }

    @Test
    void aWriterWhoseFileIsTruncatedUnderItDiesAndSaysWhyInsteadOfFaultingUnnoticed() throws Exception {
        final Path file = directory.resolve("test.mirror");
        loop.submit(new MirrorCommand.Served(estimate(6, 2.5, 1000, (short) 23, false), System.nanoTime()));
        await(6, MirrorRecord::hasEstimate);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        loop.submit(new MirrorCommand.Served(estimate(7, 2.5, 1000, (short) 23, false), System.nanoTime()));
        final String why = loop.death().get(10, TimeUnit.SECONDS);
        assertTrue(why.contains(file.toString()) && why.contains("0 bytes"), why);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!loop.stopped() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(loop.stopped(), "the writer thread ended");
    }
}
