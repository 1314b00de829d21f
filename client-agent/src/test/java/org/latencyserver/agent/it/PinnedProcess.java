package org.latencyserver.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process pinned to one core with {@code taskset}, as the profiler and the demo pin each emulated
 * workstation's agent and load drivers: a JVM of the test classpath, or a {@code stress-ng} load
 * driver at a given utilisation.
 */
final class PinnedProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private PinnedProcess(final Process process, final Path log) {
        this.process = process;
        this.log = log;
    }

    static PinnedProcess java(final int core, final String name, final Path directory, final String mainClass,
                              final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of("/usr/bin/taskset", "-c", Integer.toString(core),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
            "-Dlogback.configurationFile=logback.xml", mainClass));
        command.addAll(List.of(args));
        return start(command, directory.resolve(name + ".log"));
    }

    static PinnedProcess stress(final int core, final int percent, final String name, final Path directory) throws IOException {
        return start(List.of("/usr/bin/stress-ng", "--cpu", "1", "--cpu-load", Integer.toString(percent), "--taskset",
            Integer.toString(core), "--quiet"), directory.resolve(name + ".log"));
    }

    private static PinnedProcess start(final List<String> command, final Path log) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new PinnedProcess(process, log);
    }

    void awaitLog(final String text, final Duration timeout) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("exited before '" + text + "':\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no '" + text + "' within " + timeout + ":\n" + Files.readString(log));
    }

    @Override
    public void close() throws InterruptedException {
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }
}
