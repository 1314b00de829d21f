package org.latencyserver.benchmarks.accuracy;

import org.latencyserver.demo.DemoReady;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ./latency demo} as a child process of the harness: started from the repository root (it
 * builds what is missing on first use), known to be running once its {@code --ready-file} appears,
 * and stopped with everything it started. Its output goes to a log file that is only quoted, never
 * parsed.
 */
public final class DemoProcess {

    private final Process process;
    private final Path readyFile;
    private final Path log;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile DemoReady ready;

    private DemoProcess(final Process process, final Path readyFile, final Path log) {
        this.process = process;
        this.readyFile = readyFile;
        this.log = log;
    }

    /**
     * @param root            the repository root (holds {@code ./latency})
     * @param durationSeconds the demo's own {@code --duration}: a backstop, the harness stops it earlier
     * @param directory       where its work directory, ready file and log go
     * @param noBuild         skip the launcher's build check (the caller has just built)
     * @return the started demo, not yet ready
     * @throws IOException when it cannot be started
     */
    public static DemoProcess start(final Path root, final long durationSeconds, final Path directory, final boolean noBuild)
        throws IOException {
        final Path work = directory.resolve("demo-work");
        final Path readyFile = directory.resolve("ready.json");
        final Path log = directory.resolve("demo.log");
        Files.createDirectories(work);
        Files.deleteIfExists(readyFile);
        final ProcessBuilder builder = new ProcessBuilder(root.resolve("latency").toString(), "demo", "--duration",
            Long.toString(durationSeconds), "--console-port", "0", "--work-dir", work.toString(), "--ready-file", readyFile.toString())
            .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        if (noBuild) {
            builder.environment().put("LATENCY_NO_BUILD", "1");
        }
        return new DemoProcess(builder.start(), readyFile, log);
    }

    /**
     * @param timeout how long building and starting may take
     * @return the ready file's content
     * @throws IOException when the demo stops first, or does not get ready in time (its log's end quoted)
     */
    public DemoReady awaitReady(final Duration timeout) throws IOException, InterruptedException {
        try {
            ready = DemoReady.of(ReadyFile.await(readyFile, timeout, process::isAlive, () -> log + " ends:\n" + logTail()));
            return ready;
        } catch (ReadinessException e) {
            throw new IOException("the demo: " + e.getMessage(), e);
        }
    }

    /** @return whether {@link #stop} has been called */
    public boolean stopped() {
        return stopped.get();
    }

    /** @return whether the demo is still running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the demo's output */
    public Path log() {
        return log;
    }

    /**
     * Stops the demo as Ctrl-C would (SIGTERM: its shutdown hook stops every part), then makes sure:
     * whatever of it is still alive after the grace period — its descendants, the processes the ready
     * file names — is killed. Safe to call twice (end of run and shutdown hook): a second caller waits
     * for the first to finish, so the JVM never exits half-way through stopping.
     *
     * @return the processes that had to be killed (empty after a clean stop)
     */
    public synchronized List<ProcessHandle> stop(final Duration grace) throws InterruptedException {
        if (!stopped.compareAndSet(false, true)) {
            return List.of();
        }
        final List<ProcessHandle> everything = new ArrayList<>(process.descendants().toList());
        if (ready != null) {
            ready.pids().values().forEach(pid -> ProcessHandle.of(pid).ifPresent(handle -> {
                if (!everything.contains(handle)) {
                    everything.add(handle);
                }
            }));
        }
        process.destroy();
        process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        final List<ProcessHandle> killed = new ArrayList<>();
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
            killed.add(process.toHandle());
        }
        for (final ProcessHandle handle : everything) {
            if (handle.isAlive()) {
                handle.destroyForcibly();
                killed.add(handle);
            }
        }
        return killed;
    }

    private String logTail() {
        try {
            final List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e.getMessage() + ")";
        }
    }
}
