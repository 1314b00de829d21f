package org.latencyserver.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicAgent;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's open server-sent-event streams, at most a fixed number of them, all served by one
 * broadcaster thread: it writes the newest published event to every stream that has not had it yet
 * (a slow stream skips intermediate events, it never gets a backlog), and a keep-alive comment to a
 * stream that has had nothing for the keep-alive period. A stream whose write fails is dropped; so
 * is one whose write blocks longer than the stall limit (its reader stopped reading): a watchdog
 * interrupts the broadcaster in that write, which closes the blocked socket, so one stuck browser
 * delays the others by at most the stall limit and never stops the broadcast.
 *
 * <p>Threads: exactly two agents, however many streams are open ({@value #BROADCASTER_THREAD}, one
 * round per batch of writes, and {@value #WATCHDOG_THREAD}, a {@link PeriodicAgent}). {@link #open}, {@link #publish} and {@link #close} are thread-safe;
 * only the broadcaster writes to a stream once it is open. The watchdog interrupts the broadcaster
 * only while holding the streams' lock and only while the broadcaster is inside the stalled write; the
 * broadcaster clears its interrupt status under the same lock after every write, so an interrupt
 * meant for one stream never closes another.
 */
final class EventStreams implements AutoCloseable {

    /** Name of the thread that writes every stream. */
    static final String BROADCASTER_THREAD = "console-events";
    /** Name of the thread that finds writes stalled beyond the limit. */
    static final String WATCHDOG_THREAD = "console-events-watchdog";

    private static final Logger LOG = LoggerFactory.getLogger(EventStreams.class);
    /** How long close waits for the broadcaster. */
    private static final java.time.Duration CLOSE_WAIT = java.time.Duration.ofSeconds(5);
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

    /** One open stream: where its bytes go. Written only by the broadcaster. */
    interface Sink {
        /**
         * Writes and flushes the bytes; may block while the reader is behind.
         *
         * @param bytes the bytes
         * @throws IOException when the stream is gone (also when the write was interrupted)
         */
        void write(byte[] bytes) throws IOException;

        /** Ends the stream; must not block on an unread stream whose write failed. */
        void close();
    }

    /** A stream's state; its fields are the broadcaster's alone once it is in {@link #streams}. */
    private static final class Stream {
        private final Sink sink;
        private long sentVersion = -1;
        private long lastWriteNanos;

        private Stream(final Sink sink, final long nowNanos) {
            this.sink = sink;
            this.lastWriteNanos = nowNanos;
        }
    }

    private final int maxStreams;
    private final long keepAliveNanos;
    private final long stallNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AgentRunner broadcaster;
    private final AgentRunner watchdog;
    /** The broadcaster's thread, for the watchdog's interrupt; set by the broadcaster as it starts. */
    private volatile Thread broadcasterThread;
    // Guarded by lock.
    private final List<Stream> streams = new ArrayList<>();
    private byte[] latestEvent;
    private long latestVersion;
    private boolean streamAdded;
    private boolean closed;
    private Stream writing;
    private long writeStartedNanos;
    private boolean writeInterrupted;

    /**
     * Starts the broadcaster and the watchdog.
     *
     * @param maxStreams      the most streams open at once; at least 1
     * @param keepAliveMillis a stream that has had nothing for this long gets a keep-alive comment
     * @param stallMillis     a write blocked this long drops its stream
     */
    EventStreams(final int maxStreams, final long keepAliveMillis, final long stallMillis) {
        if (maxStreams < 1) {
            throw new IllegalArgumentException("the most event streams must be at least 1, was " + maxStreams);
        }
        this.maxStreams = maxStreams;
        this.keepAliveNanos = TimeUnit.MILLISECONDS.toNanos(keepAliveMillis);
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        this.broadcaster = new AgentRunner(new BroadcastAgent(), NoIdleStrategy.INSTANCE,
            new DistinctErrorLog(BROADCASTER_THREAD), System::nanoTime, CLOSE_WAIT);
        final long checkNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, stallMillis / 4));
        this.watchdog = new AgentRunner(PeriodicAgent.named(WATCHDOG_THREAD)
            .duty(PeriodicDeadline.Kind.FIXED_DELAY, checkNanos, checkNanos, this::interruptStalledWrite).build(),
            NoIdleStrategy.INSTANCE);
        watchdog.start();
        broadcaster.start();
    }

    /** @return the most streams open at once */
    int maxStreams() {
        return maxStreams;
    }

    /** @return the streams open now */
    int openStreams() {
        lock.lock();
        try {
            return streams.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds a stream if fewer than the maximum are open; it gets the newest event first.
     *
     * @param sink the stream's output, its response headers already sent
     * @return false, the sink untouched, when the maximum are open (or the streams are closed)
     */
    boolean open(final Sink sink) {
        lock.lock();
        try {
            if (closed || streams.size() >= maxStreams) {
                return false;
            }
            streams.add(new Stream(sink, System.nanoTime()));
            streamAdded = true;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes {@code data} the newest event; every open stream gets it (or a newer one) soon. Never
     * blocks on a stream.
     *
     * @param data the event's data, one line (JSON)
     */
    void publish(final String data) {
        final byte[] event = ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            latestEvent = event;
            latestVersion++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The broadcaster's duty cycle: each round waits (under the lock) until an event, a new stream or
     * a keep-alive is due, then writes the round outside the lock.
     */
    private final class BroadcastAgent implements Agent {

        @Override
        public void onStart() {
            broadcasterThread = Thread.currentThread();
        }

        @Override
        public int doWork(final long roundNanos) {
            final List<Stream> round;
            final byte[] event;
            final long version;
            lock.lock();
            try {
                long waitNanos = keepAliveNanos;
                while (!closed && !streamAdded && (waitNanos = untilKeepAliveDue()) > 0 && !behind()) {
                    try {
                        changed.awaitNanos(waitNanos);
                    } catch (InterruptedException e) {
                        // Only close() interrupts outside a write; the loop condition sees closed.
                        Thread.interrupted();
                    }
                }
                if (closed) {
                    return 0;
                }
                streamAdded = false;
                round = List.copyOf(streams);
                event = latestEvent;
                version = latestVersion;
            } finally {
                lock.unlock();
            }
            for (final Stream stream : round) {
                final long nowNanos = System.nanoTime();
                if (event != null && stream.sentVersion != version) {
                    stream.sentVersion = version;
                    send(stream, event, nowNanos);
                } else if (nowNanos - stream.lastWriteNanos >= keepAliveNanos) {
                    send(stream, KEEP_ALIVE, nowNanos);
                }
            }
            return round.size();
        }

        @Override
        public String roleName() {
            return BROADCASTER_THREAD;
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // also ends a write blocked at shutdown
        }
    }

    /** @return whether some stream has not had the newest event; under lock */
    private boolean behind() {
        if (latestEvent == null) {
            return false;
        }
        for (final Stream stream : streams) {
            if (stream.sentVersion != latestVersion) {
                return true;
            }
        }
        return false;
    }

    /** @return nanoseconds until the first stream is due a keep-alive (0 or less: due now); under lock */
    private long untilKeepAliveDue() {
        final long nowNanos = System.nanoTime();
        long earliest = keepAliveNanos;
        for (final Stream stream : streams) {
            earliest = Math.min(earliest, stream.lastWriteNanos + keepAliveNanos - nowNanos);
        }
        return earliest;
    }

    private void send(final Stream stream, final byte[] bytes, final long nowNanos) {
        lock.lock();
        try {
            writing = stream;
            writeStartedNanos = nowNanos;
            writeInterrupted = false;
        } finally {
            lock.unlock();
        }
        IOException failure = null;
        boolean stalled;
        try {
            stream.sink.write(bytes);
            stream.lastWriteNanos = System.nanoTime();
        } catch (IOException e) {
            failure = e;
        } finally {
            lock.lock();
            try {
                writing = null;
                stalled = writeInterrupted;
                Thread.interrupted(); // an interrupt for this write must not reach the next one
            } finally {
                lock.unlock();
            }
        }
        if (failure != null) {
            drop(stream, failure, stalled);
        }
    }

    private void drop(final Stream stream, final IOException failure, final boolean stalled) {
        lock.lock();
        try {
            streams.remove(stream);
        } finally {
            lock.unlock();
        }
        if (stalled) {
            LOG.info("a console page stopped reading its event stream for {} ms; its stream is dropped",
                TimeUnit.NANOSECONDS.toMillis(stallNanos));
        } else {
            LOG.debug("an event stream closed: {}", failure.toString());
        }
        stream.sink.close();
    }

    /** The watchdog's check: a write blocked beyond the stall limit is interrupted (its socket closes). */
    private void interruptStalledWrite() {
        lock.lock();
        try {
            if (writing != null && !writeInterrupted && System.nanoTime() - writeStartedNanos >= stallNanos) {
                writeInterrupted = true; // one interrupt per stalled write
                broadcasterThread.interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops both threads and ends every open stream. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        AgentRunner.closeAll(watchdog, broadcaster); // interrupts the broadcaster: also ends a write blocked at shutdown
        final List<Stream> open;
        lock.lock();
        try {
            open = List.copyOf(streams);
            streams.clear();
        } finally {
            lock.unlock();
        }
        for (final Stream stream : open) {
            stream.sink.close();
        }
    }
}
