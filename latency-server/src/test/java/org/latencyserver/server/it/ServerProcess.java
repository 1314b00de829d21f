package org.latencyserver.server.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;

/**
 * A Latency Server in its own JVM, started from the test classpath, as an operator would start it
 * with {@code ./latency server}. Its output goes to a log file that failures quote; it is ready when
 * its ready file ({@code --ready-file}) is there, which also gives its IOR and metrics URL.
 */
final class ServerProcess implements AutoCloseable {

    /** How long a server may take to start on a busy machine. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path log;
    private ReadyFile ready;

    private ServerProcess(final Process process, final Path log) {
        this.process = process;
        this.log = log;
    }

    /** Kills the process as {@code kill -9} would: no shutdown hooks, no last save. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    static ServerProcess start(final Path config, final Path directory) throws IOException, InterruptedException {
        return start(config, directory, java.util.Map.of());
    }

    /** As {@link #start(Path, Path)}, with these environment variables added (e.g. a TLS password). */
    static ServerProcess start(final Path config, final Path directory, final java.util.Map<String, String> environment)
        throws IOException, InterruptedException {
        final Path ior = directory.resolve("server.ior");
        final Path readyFile = directory.resolve("server.ready.json");
        final Path log = directory.resolve("server.log");
        // A previous run's files must not be mistaken for this one's (the server deletes them too).
        Files.deleteIfExists(ior);
        Files.deleteIfExists(readyFile);
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            // The server logs as in production (INFO), not as the tests do.
            "-Dlogback.configurationFile=logback.xml",
            "org.latencyserver.server.launch.ServerMain",
            "--config", config.toString(), "--ior-file", ior.toString(), "--metrics-port", "0",
            "--ready-file", readyFile.toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        final Process process = builder.start();
        final ServerProcess server = new ServerProcess(process, log);
        try {
            server.ready = ReadyFile.await(readyFile, READY_TIMEOUT, process::isAlive, server::logForFailure);
        } catch (ReadinessException e) {
            server.close();
            throw new IllegalStateException("the server did not start: " + e.getMessage(), e);
        }
        return server;
    }

    /** @return the server's IOR, from its ready file */
    String ior() {
        return ready.reference("server");
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    /** @return the metrics URL, from the server's ready file */
    String metricsUrl() {
        return ready.url("metrics");
    }

    private String logForFailure() {
        try {
            return "exit " + (process.isAlive() ? "(still running)" : Integer.toString(process.exitValue())) + ", its log:\n" + log();
        } catch (IOException e) {
            return "(its log cannot be read: " + e.getMessage() + ")";
        }
    }

    Process process() {
        return process;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
