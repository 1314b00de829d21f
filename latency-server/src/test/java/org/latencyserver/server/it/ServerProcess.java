package org.latencyserver.server.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Latency Server in its own JVM, started from the test classpath, as an operator would start it
 * with {@code ./latency server}. Its output goes to a log file that failures quote.
 */
final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Path iorFile;

    private ServerProcess(final Process process, final Path log, final Path iorFile) {
        this.process = process;
        this.log = log;
        this.iorFile = iorFile;
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
        final Path log = directory.resolve("server.log");
        Files.deleteIfExists(ior); // a previous run's IOR must not be mistaken for this one's
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            // The server logs as in production (INFO), not as the tests do.
            "-Dlogback.configurationFile=logback.xml",
            "org.latencyserver.server.launch.ServerMain",
            "--config", config.toString(), "--ior-file", ior.toString(), "--metrics-port", "0"));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        final Process process = builder.start();
        final ServerProcess server = new ServerProcess(process, log, ior);
        server.awaitIor(Duration.ofSeconds(60));
        return server;
    }

    private void awaitIor(final Duration timeout) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(iorFile) && Files.readString(iorFile).startsWith("IOR:")) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited with " + process.exitValue() + ":\n" + log());
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no IOR within " + timeout + ":\n" + log());
    }

    String ior() throws IOException {
        return Files.readString(iorFile).trim();
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    /** @return the metrics URL the server logged */
    String metricsUrl() throws IOException {
        final java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("metrics at (http://\\S+)").matcher(log());
        if (!matcher.find()) {
            throw new IllegalStateException("the server logged no metrics URL:\n" + log());
        }
        return matcher.group(1);
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
