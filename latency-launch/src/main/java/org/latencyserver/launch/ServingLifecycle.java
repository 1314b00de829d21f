package org.latencyserver.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The life of a serving component's process, as its {@code main} leads it: delete a stale ready file
 * at start, write the ready file once serving, wait for a stop (Ctrl-C, {@code kill}, or
 * {@link #requestStop()}), delete the ready file, and let the JVM exit only after the component has
 * stopped what it started.
 *
 * <pre>
 * try (ServingLifecycle life = ServingLifecycle.begin(Component.PEER_AGENT, readyFile);
 *      PeerAgent peer = PeerAgent.launch(context)) {
 *     life.ready(peer.readyFile());
 *     life.awaitStop();
 * }                                  // the peer agent closes first, then the hook lets the JVM go
 * </pre>
 *
 * <p>Why the shutdown hook waits: the JVM halts once its hooks return, and the main thread, which
 * closes the component and deletes the ready file, would be cut short. The hook waits for
 * {@link #close()} at most {@value #CLEANUP_MILLIS} ms, so a component that cannot stop does not keep
 * the JVM alive.
 *
 * <p>Exit status: the JVM, not the main, decides it after a signal. Stopped by SIGTERM, the process
 * closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C (SIGINT) likewise
 * exits 130. A supervisor counts 143 as a clean stop (the systemd units' {@code SuccessExitStatus=143}).
 *
 * <p>Thread-safe.
 */
public final class ServingLifecycle implements AutoCloseable {

    /** How long a shutdown waits for the main thread to stop the component, in milliseconds. */
    public static final long CLEANUP_MILLIS = 10_000;

    private final Component component;
    private final Path readyFile;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private final Thread hook;
    /** Held while the ready file is written or deleted, so that a rewrite never follows the deletion of a stop. */
    private final Object readyFileLock = new Object();
    /** Guarded by readyFileLock: whether a stop deleted the ready file. */
    private boolean readyFileDeleted;

    private ServingLifecycle(final Component component, final Path readyFile) {
        this.component = component;
        this.readyFile = readyFile;
        this.hook = new Thread(this::stopOnShutdown, component.command() + "-shutdown");
    }

    /**
     * Deletes a ready file an earlier run left (it would say "ready" before this run is) and registers
     * the shutdown hook.
     *
     * @param component the component this process runs
     * @param readyFile its {@code --ready-file}, or null when none was given
     * @return the lifecycle; close it when the component has stopped
     */
    public static ServingLifecycle begin(final Component component, final Path readyFile) {
        ReadyFile.deleteQuietly(readyFile);
        final ServingLifecycle life = new ServingLifecycle(component, readyFile);
        Runtime.getRuntime().addShutdownHook(life.hook);
        return life;
    }

    /**
     * Writes the ready file (when one was asked for): call it exactly where the component serves.
     *
     * @param ready what the component reports
     * @throws IOException naming the file when it cannot be written
     */
    public void ready(final ReadyFile.Builder ready) throws IOException {
        if (readyFile == null) {
            return;
        }
        synchronized (readyFileLock) {
            try {
                ready.writeTo(readyFile);
            } catch (IOException e) {
                throw new IOException("cannot write the ready file " + readyFile + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Writes the ready file again with what changed while serving (a renewed certificate's expiry), unless a
     * stop has deleted it: a stopping component's ready file stays deleted.
     *
     * @param ready what the component reports now
     * @throws IOException naming the file when it cannot be written
     */
    public void readyAgain(final ReadyFile.Builder ready) throws IOException {
        synchronized (readyFileLock) {
            if (!readyFileDeleted) {
                ready(ready);
            }
        }
    }

    /** Deletes the ready file for good: no {@link #readyAgain} writes it after this. */
    private void deleteReadyFile() {
        synchronized (readyFileLock) {
            readyFileDeleted = true;
            ReadyFile.deleteQuietly(readyFile);
        }
    }

    /** Asks the process to stop, as Ctrl-C does; {@link #awaitStop()} returns. */
    public void requestStop() {
        stopRequested.countDown();
    }

    /**
     * Waits until a stop is asked for, then deletes the ready file: a stopping component no longer serves.
     *
     * @throws InterruptedException when interrupted
     */
    public void awaitStop() throws InterruptedException {
        stopRequested.await();
        deleteReadyFile();
    }

    /**
     * As {@link #awaitStop()}, but for at most a while (a run with {@code --duration}).
     *
     * @param most the longest wait
     * @throws InterruptedException when interrupted
     */
    public void awaitStop(final Duration most) throws InterruptedException {
        stopRequested.await(most.toNanos(), TimeUnit.NANOSECONDS);
        deleteReadyFile();
    }

    /** @return the component this process runs */
    public Component component() {
        return component;
    }

    /**
     * Deletes the ready file, lets a shutdown in progress finish and unregisters the hook otherwise.
     * Call it after the component has stopped; a second call does nothing more.
     */
    @Override
    public void close() {
        deleteReadyFile();
        cleanedUp.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting through the hook, which now returns
        }
    }

    private void stopOnShutdown() {
        stopRequested.countDown();
        try {
            cleanedUp.await(CLEANUP_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
