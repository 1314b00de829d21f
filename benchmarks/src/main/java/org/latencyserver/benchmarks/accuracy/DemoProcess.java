package org.latencyserver.benchmarks.accuracy;

import org.latencyserver.demo.DemoReady;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ./latency demo} as a child process of the harness, started through the process kit:
 * run by the launcher (not by its registry row directly) because the launcher builds what is
 * missing on first use, and it finds the demo's main class in the same registry. Known to be
 * running once its {@code --ready-file} appears, and stopped with everything it started. Its
 * output goes to a log file that is only quoted, never parsed.
 */
public final class DemoProcess {

    private final ProcessKit kit;
    private final ChildProcess process;
    private final Path readyFile;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile DemoReady ready;

    private DemoProcess(final ProcessKit kit, final ChildProcess process, final Path readyFile) {
        this.kit = kit;
        this.process = process;
        this.readyFile = readyFile;
    }

    /**
     * @param root            the repository root (holds {@code ./latency})
     * @param durationSeconds the demo's own {@code --duration}: a backstop, the harness stops it earlier
     * @param directory       where its work directory, ready file ({@code ready.json}) and log ({@code demo.log}) go
     * @param noBuild         skip the launcher's build check (the caller has just built)
     * @return the started demo, not yet ready
     * @throws IOException when it cannot be started
     */
    public static DemoProcess start(final Path root, final long durationSeconds, final Path directory, final boolean noBuild)
        throws IOException {
        return start(root, durationSeconds, directory, noBuild, List.of());
    }

    /**
     * As {@link #start(Path, long, Path, boolean)}, with more of the demo's options, e.g. {@code --real-network}.
     *
     * @param demoOptions options for {@code ./latency demo} beyond the duration, console port, work directory and ready file
     * @return the started demo, not yet ready
     * @throws IOException when it cannot be started
     */
    public static DemoProcess start(final Path root, final long durationSeconds, final Path directory, final boolean noBuild,
                                    final List<String> demoOptions) throws IOException {
        final Path work = directory.resolve("demo-work");
        final Path readyFile = directory.resolve("ready.json");
        Files.createDirectories(work);
        Files.deleteIfExists(readyFile);
        final ProcessKit kit = ProcessKit.fromRepository(root, directory);
        final ProcessKit.Launch launch = kit.launchProgram("demo", List.of(root.resolve("latency").toString(), "demo"))
            .args("--duration", Long.toString(durationSeconds), "--console-port", "0", "--work-dir", work.toString(),
                "--ready-file", readyFile.toString()).args(demoOptions);
        if (noBuild) {
            launch.env("LATENCY_NO_BUILD", "1");
        }
        return new DemoProcess(kit, launch.start(), readyFile);
    }

    /**
     * @param timeout how long building and starting may take
     * @return the ready file's content
     * @throws IOException when the demo stops first, or does not get ready in time (its log's end quoted)
     */
    public DemoReady awaitReady(final Duration timeout) throws IOException, InterruptedException {
        try {
            ready = DemoReady.of(ReadyFile.await(readyFile, timeout, process::isAlive, process::logEnd));
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
        return process.logFile();
    }

    /**
     * Stops the demo as Ctrl-C would (SIGTERM to the demo alone: its shutdown hook stops every part
     * in order), then has the kit stop whatever of it is still alive after the grace period, and
     * kills the processes its ready file names that outlived it (no longer its descendants once it
     * has exited). Safe to call twice (end of run and shutdown hook): a second caller waits for the
     * first to finish, so the JVM never exits half-way through stopping.
     *
     * @return the processes that were still alive after the grace period (empty after a clean stop)
     */
    public synchronized List<ProcessHandle> stop(final Duration grace) throws InterruptedException {
        if (!stopped.compareAndSet(false, true)) {
            return List.of();
        }
        final ProcessHandle demo = ProcessHandle.of(process.pid()).orElse(null);
        final List<ProcessHandle> everything = new ArrayList<>();
        if (demo != null) {
            everything.add(demo);
            everything.addAll(demo.descendants().toList());
        }
        if (ready != null) {
            ready.pids().values().forEach(pid -> ProcessHandle.of(pid).ifPresent(handle -> {
                if (!everything.contains(handle)) {
                    everything.add(handle);
                }
            }));
        }
        if (demo != null) {
            demo.destroy();
            try {
                process.awaitExit(grace);
            } catch (ReadinessException e) {
                // still running after the grace period: the kit ends it below
            }
        }
        final List<ProcessHandle> leftOver = everything.stream().filter(ProcessHandle::isAlive).toList();
        kit.stopAll();
        leftOver.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        return leftOver;
    }
}
