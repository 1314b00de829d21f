package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/** The console's event streams: bounded, one stuck or broken reader never holds up the others. */
class EventStreamsTest {

    /** Long enough never to be due in these tests. */
    private static final long NO_KEEP_ALIVE = 600_000;

    @Test
    void opensAtMostTheMaximum() {
        try (EventStreams streams = new EventStreams(2, NO_KEEP_ALIVE, 10_000)) {
            assertTrue(streams.open(new RecordingSink()));
            assertTrue(streams.open(new RecordingSink()));
            assertFalse(streams.open(new RecordingSink()), "a third stream beyond the maximum of 2");
            assertEquals(2, streams.openStreams());
        }
    }

    @Test
    void aNewStreamGetsTheNewestEventAndThenEachNewOne() throws Exception {
        try (EventStreams streams = new EventStreams(4, NO_KEEP_ALIVE, 10_000)) {
            streams.publish("{\"n\":1}");
            streams.publish("{\"n\":2}");
            final RecordingSink sink = new RecordingSink();
            streams.open(sink);
            assertEquals("data: {\"n\":2}\n\n", sink.writes.take(), "only the newest, no backlog");
            streams.publish("{\"n\":3}");
            assertEquals("data: {\"n\":3}\n\n", sink.writes.take());
        }
    }

    @Test
    void aStreamWhoseWriteFailsIsDroppedAndClosed() throws Exception {
        try (EventStreams streams = new EventStreams(4, NO_KEEP_ALIVE, 10_000)) {
            final RecordingSink broken = writingBy(() -> {
                throw new IOException("Broken pipe");
            });
            final RecordingSink healthy = new RecordingSink();
            streams.open(broken);
            streams.open(healthy);
            streams.publish("{}");
            broken.closed.await();
            assertEquals("data: {}\n\n", healthy.writes.take());
            assertEquals(1, streams.openStreams());
        }
    }

    @Test
    void aWriteBlockedBeyondTheStallLimitIsInterruptedItsStreamDroppedAndTheOthersStillServed() throws Exception {
        try (EventStreams streams = new EventStreams(4, NO_KEEP_ALIVE, 100)) {
            final RecordingSink stuck = writingBy(() -> {
                // A reader that stopped reading: the write blocks until the watchdog interrupts it, as a
                // blocked socket channel write does (the channel then closes).
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("interrupted in a blocked write");
                }
            });
            final RecordingSink healthy = new RecordingSink();
            streams.open(stuck); // first: the broadcaster writes it before the healthy one
            streams.open(healthy);
            streams.publish("{\"n\":1}");
            stuck.closed.await();
            assertEquals("data: {\"n\":1}\n\n", healthy.writes.take());
            assertEquals(1, streams.openStreams());
            // The interrupt meant for the stuck write did not outlive it: the next write goes through.
            streams.publish("{\"n\":2}");
            assertEquals("data: {\"n\":2}\n\n", healthy.writes.take());
            assertEquals(1, streams.openStreams());
        }
    }

    /** What a misbehaving reader's write does instead of taking the bytes. */
    @FunctionalInterface
    private interface FailingWrite {
        void write() throws IOException;
    }

    /** @return a sink whose every write does {@code write} instead of recording, and whose close is recorded */
    private static RecordingSink writingBy(final FailingWrite write) {
        return new RecordingSink() {
            @Override
            public void write(final byte[] bytes) throws IOException {
                write.write();
            }
        };
    }

    /**
     * Records what it is sent. Like a socket channel, it refuses to write on an interrupted thread,
     * so an interrupt that leaked past the write it was meant for would show.
     */
    private static class RecordingSink implements EventStreams.Sink {
        final BlockingQueue<String> writes = new LinkedBlockingQueue<>();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void write(final byte[] bytes) throws IOException {
            if (Thread.currentThread().isInterrupted()) {
                throw new IOException("ClosedByInterruptException: the writing thread was interrupted");
            }
            writes.add(new String(bytes, StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }
}
