package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seqlock under load in one JVM: a writer thread rewrites 4 records as fast as it can while 2
 * reader threads read them; every accepted copy must be one write's values (all fields agree with
 * one counter, {@link TornReadPattern}) and the sequences read of each record must never go back.
 */
class TornReadTest {

    private static final int FIRST_SLOT = 1;
    private static final int SLOT_COUNT = 4;
    private static final int READERS = 2;
    /** Each reader stops after this many accepted reads or {@link #READ_TIME_LIMIT_NANOS}, whichever first. */
    private static final long ACCEPTED_TARGET_PER_READER = 10_000_000;
    private static final long READ_TIME_LIMIT_NANOS = 5_000_000_000L;
    /** What two readers sharing 2 busy cores with the writer (and other builds) reach with a wide margin. */
    private static final long ACCEPTED_FLOOR = 2_000_000;

    @TempDir
    Path directory;

    @Test
    void everyAcceptedReadUnderAFastWriterIsOneWritesValuesAndSequencesNeverGoBack() throws Exception {
        final Path path = directory.resolve("mirror");
        final AtomicReference<String> firstInconsistency = new AtomicReference<>();
        final long[] accepted = new long[READERS];
        final long[] busy = new long[READERS];
        final long[] changedSinceLastRead = new long[READERS];
        final long[] other = new long[READERS];
        final long writes;
        final long elapsedNanos;
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(path, 60_000);
             EstimateMirror mirror = EstimateMirror.open(path);
             MirrorWriterThread writing = new MirrorWriterThread(writer, FIRST_SLOT, SLOT_COUNT).start()) {
            final Thread[] readers = new Thread[READERS];
            final long startNanos = System.nanoTime();
            for (int r = 0; r < READERS; r++) {
                final int reader = r;
                readers[r] = new Thread(() -> {
                    final MirrorRecord record = new MirrorRecord();
                    final MirrorRecord scratch = new MirrorRecord();
                    final long[] lastSequence = new long[SLOT_COUNT];
                    final long[] lastCounter = new long[SLOT_COUNT];
                    long reads = 0;
                    while (accepted[reader] < ACCEPTED_TARGET_PER_READER && firstInconsistency.get() == null) {
                        if ((reads & 4095) == 0 && System.nanoTime() - startNanos > READ_TIME_LIMIT_NANOS) {
                            break;
                        }
                        final int i = (int) (reads++ % SLOT_COUNT);
                        final int slot = FIRST_SLOT + i;
                        final ReadStatus status = mirror.read(slot, record);
                        if (status == ReadStatus.BUSY) {
                            busy[reader]++;
                            continue;
                        }
                        if (status != ReadStatus.OK) {
                            other[reader]++;
                            firstInconsistency.compareAndSet(null, "slot " + slot + " read " + status);
                            break;
                        }
                        accepted[reader]++;
                        final String inconsistency = TornReadPattern.inconsistency(record, slot, scratch);
                        final long sequence = record.sequence();
                        final long counter = (long) record.valueMillis();
                        if (inconsistency != null) {
                            firstInconsistency.compareAndSet(null, inconsistency);
                        } else if ((sequence & 1) != 0 || sequence < lastSequence[i] || counter < lastCounter[i]) {
                            firstInconsistency.compareAndSet(null, "slot " + slot + ": sequence " + sequence + " (counter "
                                + counter + ") read after sequence " + lastSequence[i] + " (counter " + lastCounter[i] + ")");
                        }
                        if (sequence != lastSequence[i]) {
                            changedSinceLastRead[reader]++;
                        }
                        lastSequence[i] = sequence;
                        lastCounter[i] = counter;
                    }
                }, "mirror-test-reader-" + r);
                readers[r].start();
            }
            for (final Thread reader : readers) {
                reader.join(30_000);
            }
            elapsedNanos = System.nanoTime() - startNanos;
            writes = writing.stop();
        }
        final long acceptedTotal = accepted[0] + accepted[1];
        final long changedTotal = changedSinceLastRead[0] + changedSinceLastRead[1];
        System.out.printf("torn-read test: %d writes, %d accepted reads (%d, %d), %d of them a newer write than the reader's"
                + " previous read of the record, %d BUSY, in %d ms%n", writes, acceptedTotal, accepted[0], accepted[1],
            changedTotal, busy[0] + busy[1], elapsedNanos / 1_000_000);
        assertNull(firstInconsistency.get());
        assertEquals(0, other[0] + other[1]);
        assertTrue(acceptedTotal >= ACCEPTED_FLOOR, "only " + acceptedTotal + " accepted reads, floor " + ACCEPTED_FLOOR);
        assertTrue(changedTotal >= 1000, "the readers saw only " + changedTotal + " new writes: the writer was not racing them");
    }
}
