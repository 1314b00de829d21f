package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs of an end-to-end harness: each started with this JVM's class path, its output in
 * a log file in the harness's work directory, and all destroyed on {@link #close()}.
 */
final class HarnessProcesses implements AutoCloseable {

    private final Path work;
    private final List<Process> processes = new ArrayList<>();

    /** @param work the harness's work directory (logs go there) */
    HarnessProcesses(final Path work) {
        this.work = work;
    }

    /**
     * @param log  file name of the child's output, in the work directory
     * @param main main class
     * @param args its arguments
     * @return the started process
     * @throws IOException when it cannot be started
     */
    Process startJava(final String log, final String main, final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(work.resolve(log).toFile()).start();
        processes.add(process);
        return process;
    }

    /**
     * @param work where to write it
     * @return the thesis testbed's configuration with its profile paths made absolute
     * @throws IOException when a file cannot be read or written
     */
    static Path testbedConfig(final Path work) throws IOException {
        final Path config = work.resolve("thesis-testbed.yaml");
        Files.writeString(config, Files.readString(locate("examples/thesis-testbed.yaml"))
            .replace("../profiles/", locate("profiles").toAbsolutePath().normalize() + "/"));
        return config;
    }

    /**
     * @param file    the IOR file a server writes once it serves
     * @param process the server
     * @return the IOR
     * @throws IOException          when the file cannot be read
     * @throws InterruptedException when interrupted
     */
    static String awaitIor(final Path file, final Process process) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (Files.exists(file) && !Files.readString(file).isBlank()) {
                return Files.readString(file).trim();
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no IOR at " + file + " (process alive: " + process.isAlive() + ")");
    }

    /**
     * @return a TCP port that was free a moment ago on this host
     * @throws IOException when no socket can be opened
     */
    static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Finds a repository path from the working directory or its parent (run from the root or benchmarks/). */
    static Path locate(final String relative) {
        final Path here = Path.of(relative);
        return Files.exists(here) ? here : Path.of("..").resolve(relative);
    }

    @Override
    public void close() throws InterruptedException {
        for (final Process process : processes) {
            process.destroy();
        }
        for (final Process process : processes) {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
