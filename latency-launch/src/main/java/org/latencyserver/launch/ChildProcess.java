package org.latencyserver.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One process started by a {@link ProcessKit}: its output in a log file that failures quote, its
 * ready file (when its component writes one), and a stop that ends its descendants too (load drivers
 * fork workers; {@code taskset} execs the JVM).
 *
 * <p>Thread-safety: the methods may be called from any thread; {@link #stop} is idempotent.
 */
public final class ChildProcess implements AutoCloseable {

    /** How many lines of its log a failure quotes. */
    private static final int QUOTED_LOG_LINES = 20;

    private final String name;
    private final Process process;
    private final Path log;
    /** Its standard error when kept apart from the log ({@link ProcessKit.Launch#errorsApart}); else null. */
    private final Path errors;
    private final Path readyFile;

    ChildProcess(final String name, final Process process, final Path log, final Path errors, final Path readyFile) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.errors = errors;
        this.readyFile = readyFile;
    }

    /** @return the name it was started under (its log is {@code NAME.log}) */
    public String name() {
        return name;
    }

    /** @return the process id (under taskset, the JVM's: taskset execs it) */
    public long pid() {
        return process.pid();
    }

    /** @return whether it is running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return its log file */
    public Path logFile() {
        return log;
    }

    /** @return the ready file it was told to write, or null when its component writes none */
    public Path readyFile() {
        return readyFile;
    }

    /** @return its output so far (for failure messages and for tests of what it prints to people) */
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /**
     * @return its standard error so far when it was started with {@link ProcessKit.Launch#errorsApart},
     *     else "" (its standard error is in {@link #log()})
     */
    public String errors() {
        try {
            return errors != null && Files.exists(errors) ? Files.readString(errors) : "";
        } catch (IOException e) {
            return "(cannot read " + errors + ": " + e.getMessage() + ")";
        }
    }

    /**
     * Waits until it has written its ready file.
     *
     * @param timeout how long to wait
     * @return the ready file's content
     * @throws ReadinessException when it exits first or the time passes, quoting its log's end
     * @throws IllegalStateException when its component writes no ready file
     * @throws InterruptedException when interrupted
     */
    public ReadyFile awaitReady(final Duration timeout) throws InterruptedException {
        if (readyFile == null) {
            throw new IllegalStateException(name + " writes no ready file; wait for its exit instead");
        }
        try {
            return ReadyFile.await(readyFile, timeout, process::isAlive, this::logEnd);
        } catch (ReadinessException e) {
            throw new ReadinessException(name + ": " + e.getMessage(), e.getCause());
        }
    }

    /**
     * Waits for it to exit.
     *
     * @param timeout how long to wait
     * @return its exit code
     * @throws ReadinessException when it is still running after the timeout
     * @throws InterruptedException when interrupted
     */
    public int awaitExit(final Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new ReadinessException(name + " did not exit within " + timeout.toSeconds() + " s\n" + logEnd(), null);
        }
        return process.exitValue();
    }

    /**
     * Waits for a one-shot command to finish successfully.
     *
     * @param timeout how long to wait
     * @throws ReadinessException when it fails or runs past the timeout, quoting its log's end
     * @throws InterruptedException when interrupted
     */
    public void awaitSuccess(final Duration timeout) throws InterruptedException {
        final int exit = awaitExit(timeout);
        if (exit != 0) {
            throw new ReadinessException(name + " failed (exit " + exit + ")\n" + logEnd(), null);
        }
    }

    /** Kills it as {@code kill -9} would: no shutdown hooks, no last save (for crash tests). */
    public void kill() throws InterruptedException {
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * SIGTERM to it and its descendants, then SIGKILL to whatever is left after the grace period.
     *
     * @param grace how long it may take to stop cleanly
     * @return whether it and every descendant have ended (checked, not assumed)
     * @throws InterruptedException when interrupted
     */
    public boolean stop(final Duration grace) throws InterruptedException {
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        for (final ProcessHandle descendant : descendants) {
            if (descendant.isAlive()) {
                descendant.destroyForcibly();
                try {
                    descendant.onExit().get(5, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    // still alive: reported by the result
                }
            }
        }
        return !process.isAlive() && descendants.stream().noneMatch(ProcessHandle::isAlive);
    }

    /** Stops it with a 10 s grace period. */
    @Override
    public void close() throws InterruptedException {
        stop(Duration.ofSeconds(10));
    }

    /** @return "its log FILE ends:" and the last lines, for failure messages */
    public String logEnd() {
        final String end = "its log " + log + " ends:\n" + tail(log(), QUOTED_LOG_LINES);
        return errors == null ? end : end + "\nits standard error " + errors + " ends:\n" + tail(errors(), QUOTED_LOG_LINES);
    }

    private static String tail(final String text, final int lines) {
        final String[] all = text.split("\n");
        return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
