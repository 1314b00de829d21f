package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What an application pays to read one connection's estimate from the host's estimate mirror
 * ({@code docs/mirror-layout.md}): {@link EstimateMirror#read(int, MirrorRecord)} into a reused
 * holder, a seqlock read of one 128-byte record of a memory-mapped file, no call and no allocation.
 *
 * <ul>
 *   <li>{@code readStable}: a mirror written once with 6 records; the default read, which judges
 *       the heartbeat against {@link System#currentTimeMillis()}.
 *   <li>{@code readStableNowGiven}: the same with the caller's clock reading passed in.
 *   <li>{@code whileWritten}: one thread reads the record another thread rewrites as fast as it
 *       can (the worst case: the writer keeps the record's cache line moving; a real mirror writes
 *       a record when the server publishes an estimate, a few times a second). JMH reports the
 *       reader ({@code whileWritten:read}) and the writer ({@code whileWritten:write}).
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar MirrorReadBenchmark}
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Sampled reads of a few nanoseconds: two-second iterations gather enough samples for the tail.
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 2)
public class MirrorReadBenchmark extends JmhProtocol {

    /** The six connections the mirror follows. */
    private static final int[] INDEX_REFS = {0, 1, 2, 3, 7, 12345};
    private static final int READ_INDEX_REF = 3;

    private Path directory;
    private EstimateMirrorWriter writer;
    private EstimateMirror mirror;

    /** One reader's or writer's reused holder. */
    @State(Scope.Thread)
    public static class Holder {
        final MirrorRecord record = new MirrorRecord();
        long counter;
    }

    /** Creates the mirror in a temporary directory, writes its six records and opens a reader. */
    @Setup
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("mirror-benchmark");
        // An hour's interval: the benchmark never heartbeats, and a read must stay OK throughout.
        writer = EstimateMirrorWriter.create(directory.resolve("mirror"), 3_600_000);
        final MirrorRecord record = new MirrorRecord();
        for (final int indexRef : INDEX_REFS) {
            writer.write(fill(record, indexRef, indexRef + 1));
        }
        writer.heartbeat(System.currentTimeMillis());
        mirror = EstimateMirror.open(directory.resolve("mirror"));
        if (mirror.read(READ_INDEX_REF, record) != ReadStatus.OK) {
            throw new IllegalStateException("record " + READ_INDEX_REF + " does not read OK");
        }
    }

    private static MirrorRecord fill(final MirrorRecord record, final int indexRef, final long n) {
        return record.indexRef(indexRef).qos(4).kind(MirrorLayout.KIND_BOUND).hasEstimate(true)
            .cpuState(23).portState(95).valueMillis(2.5 + (n & 1023)).intervalLower(95.1).intervalUpper(96.8)
            .boundPercent(96.0).confidenceLevel(0.95).computedEpochMillis(n).mirroredEpochMillis(n);
    }

    /** Unmaps and deletes the mirror. */
    @TearDown
    public void tearDown() throws IOException {
        mirror.close();
        writer.close();
        Files.deleteIfExists(directory.resolve("mirror"));
        Files.deleteIfExists(directory);
    }

    /** @return the status of a read of an unchanging record, the clock read inside */
    @Benchmark
    public ReadStatus readStable(final Holder holder) {
        return mirror.read(READ_INDEX_REF, holder.record);
    }

    /** @return the status of a read of an unchanging record, the caller's clock reading passed in */
    @Benchmark
    public ReadStatus readStableNowGiven(final Holder holder) {
        return mirror.read(READ_INDEX_REF, holder.record, 1L);
    }

    /** @return the status of a read of the record {@link #write} rewrites meanwhile */
    @Benchmark
    @Group("whileWritten")
    @GroupThreads(1)
    public ReadStatus read(final Holder holder) {
        return mirror.read(READ_INDEX_REF, holder.record);
    }

    /** Rewrites the record {@link #read} reads, as fast as JMH calls it (the mirror's one writer thread). */
    @Benchmark
    @Group("whileWritten")
    @GroupThreads(1)
    public void write(final Holder holder) {
        writer.write(fill(holder.record, READ_INDEX_REF, ++holder.counter));
    }
}
