package org.latencyserver.server.engine;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The update thread: it alone touches the {@link UpdateEngine}. Other threads (CORBA servant
 * threads, SNMP callbacks) hand it commands through {@link #call} (waiting for the result) or
 * {@link #post} (not waiting); between commands it runs the engine's periodic duty every
 * {@code tickIntervalNanos}.
 *
 * <p>Like an agent's duty cycle: a failing command is logged and counted, and the loop carries on
 * with the last good table.
 *
 * <p>Thread-safety: {@link #call} and {@link #post} may be used from any thread; {@link #start}/{@link #close} once.
 */
public final class EngineLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);

    private final UpdateEngine engine;
    private final LongSupplier nanoClock;
    private final long tickIntervalNanos;
    private final BlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    private final AtomicLong commandErrors = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param engine            the engine this loop owns
     * @param nanoClock         monotonic time, e.g. {@code System::nanoTime}
     * @param tickIntervalNanos period of the engine's duty (time-outs, deferred requests)
     */
    public EngineLoop(final UpdateEngine engine, final LongSupplier nanoClock, final long tickIntervalNanos) {
        this.engine = engine;
        this.nanoClock = nanoClock;
        this.tickIntervalNanos = tickIntervalNanos;
        this.thread = new Thread(this::run, "latency-update");
        this.thread.setDaemon(true);
    }

    /** Starts the update thread. */
    public void start() {
        thread.start();
    }

    /**
     * Runs {@code command} on the update thread and waits for its result.
     *
     * @param command      work on the engine; gets the monotonic time of its run
     * @param timeoutMillis how long to wait
     * @param <T>          the result type
     * @return the command's result
     * @throws IllegalStateException when the loop is stopped, the command failed or timed out
     */
    public <T> T call(final Function<Long, T> command, final long timeoutMillis) {
        if (!running) {
            throw new IllegalStateException("the update thread is stopped");
        }
        final CompletableFuture<T> result = new CompletableFuture<>();
        commands.add(() -> {
            try {
                result.complete(command.apply(nanoClock.getAsLong()));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
                throw e;
            }
        });
        try {
            return result.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the update thread", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the update failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the update thread did not answer within " + timeoutMillis + " ms", e);
        }
    }

    /**
     * Queues {@code command} for the update thread and returns at once (for producers that must
     * never wait, such as the SNMP poller). A failing command is logged and counted like any other.
     *
     * @param command work on the engine; gets the monotonic time of its run
     * @return false when the loop is stopped and the command was dropped
     */
    public boolean post(final Consumer<Long> command) {
        if (!running) {
            return false;
        }
        commands.add(() -> command.accept(nanoClock.getAsLong()));
        return true;
    }

    /** @return the engine; read-only use from other threads (table, profiles) */
    public UpdateEngine engine() {
        return engine;
    }

    /** @return commands that threw since start */
    public long commandErrors() {
        return commandErrors.get();
    }

    private void run() {
        long nextTickNanos = nanoClock.getAsLong();
        while (running) {
            try {
                final long waitNanos = Math.max(0, nextTickNanos - nanoClock.getAsLong());
                final Runnable command = commands.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (command != null) {
                    runCounted(command);
                }
                // The duty runs on time even while commands keep arriving.
                final long now = nanoClock.getAsLong();
                if (now - nextTickNanos >= 0) {
                    runCounted(() -> engine.tick(now));
                    nextTickNanos = now + tickIntervalNanos;
                }
            } catch (InterruptedException e) {
                if (!running) {
                    return;
                }
            }
        }
    }

    private void runCounted(final Runnable command) {
        try {
            command.run();
        } catch (RuntimeException e) {
            commandErrors.incrementAndGet();
            LOG.error("update command failed; the table keeps its last good state", e);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
