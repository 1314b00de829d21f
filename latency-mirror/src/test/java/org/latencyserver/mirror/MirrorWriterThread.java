package org.latencyserver.mirror;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The torn-read tests' writer: one thread rewriting slots {@code firstSlot …
 * firstSlot + slotCount − 1} round robin as fast as it can with {@link TornReadPattern} values of
 * one counter, heartbeating every 1024 writes. Started once; {@link #stop()} joins it.
 */
final class MirrorWriterThread implements AutoCloseable {

    private final EstimateMirrorWriter writer;
    private final int firstSlot;
    private final int slotCount;
    private final Thread thread;
    private final CountDownLatch everySlotWritten = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile long writes;
    private volatile Throwable failure;

    MirrorWriterThread(final EstimateMirrorWriter writer, final int firstSlot, final int slotCount) {
        this.writer = writer;
        this.firstSlot = firstSlot;
        this.slotCount = slotCount;
        this.thread = new Thread(this::run, "mirror-test-writer");
        thread.setDaemon(true);
    }

    /** Starts the thread and returns once every slot has been written once. */
    MirrorWriterThread start() throws InterruptedException {
        thread.start();
        if (!everySlotWritten.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the writer thread did not write its slots within 10 s");
        }
        return this;
    }

    private void run() {
        try {
            final MirrorRecord record = new MirrorRecord();
            long n = 0;
            while (running) {
                final int slot = firstSlot + (int) (n % slotCount);
                writer.write(TornReadPattern.fill(record, slot, n));
                n++;
                if (n == slotCount) {
                    everySlotWritten.countDown();
                }
                if ((n & 1023) == 0) {
                    writer.heartbeat(System.currentTimeMillis());
                    writes = n;
                }
            }
            writes = n;
        } catch (final Throwable t) {
            failure = t;
            everySlotWritten.countDown();
        }
    }

    /** Stops and joins the thread; rethrows what it failed with; returns how many writes it made. */
    long stop() throws InterruptedException {
        running = false;
        thread.join(10_000);
        if (failure != null) {
            throw new AssertionError("the writer thread failed", failure);
        }
        return writes;
    }

    @Override
    public void close() throws InterruptedException {
        if (thread.isAlive()) {
            stop();
        }
    }
}
