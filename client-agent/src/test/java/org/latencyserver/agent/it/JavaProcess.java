package org.latencyserver.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the system's processes (server, peer agent, client agent) in its own JVM, started from
 * the test classpath as {@code ./latency …} would start it, its output in a log file that failures
 * quote.
 */
final class JavaProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private JavaProcess(final String name, final Process process, final Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static JavaProcess start(final String name, final Path directory, final String mainClass, final String... args)
        throws IOException {
        return start(List.of(), java.util.Map.of(), name, directory, mainClass, args);
    }

    /** As {@link #start(String, Path, String, String...)}, with these environment variables added (e.g. a TLS password). */
    static JavaProcess startWith(final java.util.Map<String, String> environment, final String name, final Path directory,
                                 final String mainClass, final String... args) throws IOException {
        return start(List.of(), environment, name, directory, mainClass, args);
    }

    /** Starts it under {@code taskset -c CORE}, as the profiler starts its peer agent. */
    static JavaProcess startPinned(final int core, final String name, final Path directory, final String mainClass,
                                   final String... args) throws IOException {
        return start(List.of("/usr/bin/taskset", "-c", Integer.toString(core)), java.util.Map.of(), name, directory, mainClass, args);
    }

    private static JavaProcess start(final List<String> prefix, final java.util.Map<String, String> environment, final String name,
                                     final Path directory, final String mainClass, final String... args) throws IOException {
        final Path log = directory.resolve(name + ".log");
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            "-Dlogback.configurationFile=logback.xml", mainClass));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        return new JavaProcess(name, builder.start(), log);
    }

    /**
     * @return the first match of the pattern in the log, waiting for it
     * @throws IllegalStateException when it does not appear in time or the process exits first
     */
    Matcher awaitLog(final String regex, final Duration timeout) throws IOException, InterruptedException {
        return awaitLog(regex, 0, timeout);
    }

    /** As {@link #awaitLog(String, Duration)}, looking only after the first {@code fromChar} characters. */
    Matcher awaitLog(final String regex, final int fromChar, final Duration timeout) throws IOException, InterruptedException {
        final Pattern pattern = Pattern.compile(regex);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            final String text = log();
            final Matcher matcher = pattern.matcher(text);
            if (matcher.find(Math.min(fromChar, text.length()))) {
                return matcher;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before logging /" + regex + "/:\n" + text);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(name + " did not log /" + regex + "/ within " + timeout + ":\n" + log());
    }

    /**
     * Waits for the process's ready file ({@code --ready-file}; docs/ready-files.md).
     *
     * @return its content
     * @throws org.latencyserver.launch.ReadinessException quoting the log when the process exits first or the time passes
     */
    org.latencyserver.launch.ReadyFile awaitReady(final Path readyFile, final Duration timeout) throws InterruptedException {
        return org.latencyserver.launch.ReadyFile.await(readyFile, timeout, process::isAlive, () -> {
            try {
                return name + "'s log:\n" + log();
            } catch (IOException e) {
                return name + "'s log is unreadable: " + e.getMessage();
            }
        });
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    /** Kills it as {@code kill -9} would: no shutdown hooks. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** @return its exit code, waiting for it to exit */
    int waitFor(final Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " did not exit within " + timeout);
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
