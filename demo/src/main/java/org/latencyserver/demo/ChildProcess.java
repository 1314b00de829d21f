package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One process of the demo, its output in a log file. Stopping it stops its descendants too
 * (load drivers fork workers; {@code taskset} execs the JVM): nothing of the demo is left running.
 */
final class ChildProcess {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(final String name, final Process process, final Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(final String name, final List<String> command, final Map<String, String> environment,
                              final Path logDirectory) throws IOException {
        final Path log = logDirectory.resolve(name + ".log");
        Files.deleteIfExists(log);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        return new ChildProcess(name, builder.start(), log);
    }

    String name() {
        return name;
    }

    Path logFile() {
        return log;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the process id (under taskset, the JVM's: taskset execs it) */
    long pid() {
        return process.pid();
    }

    String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /**
     * @return the first match of the pattern in the process's output
     * @throws DemoException when it exits or the time passes first, quoting its log's end
     */
    Matcher awaitOutput(final String regex, final Duration timeout) throws InterruptedException {
        final Pattern pattern = Pattern.compile(regex);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            final Matcher matcher = pattern.matcher(log());
            if (matcher.find()) {
                return matcher;
            }
            if (!process.isAlive()) {
                throw new DemoException(name + " stopped (exit " + process.exitValue() + ") before it was ready; its log "
                    + log + " ends:\n" + tail(log(), 15));
            }
            Thread.sleep(100);
        }
        throw new DemoException(name + " was not ready within " + timeout.toSeconds() + " s; its log " + log + " ends:\n"
            + tail(log(), 15));
    }

    /**
     * Waits for a one-shot command (e.g. {@code ./latency certs}) to finish.
     *
     * @throws DemoException when it fails or runs past the timeout, quoting its log's end
     */
    void awaitSuccess(final Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new DemoException(name + " did not finish within " + timeout.toSeconds() + " s; its log " + log + " ends:\n"
                + tail(log(), 15));
        }
        if (process.exitValue() != 0) {
            throw new DemoException(name + " failed (exit " + process.exitValue() + "); its log " + log + " ends:\n" + tail(log(), 15));
        }
    }

    /**
     * SIGTERM to it and its descendants, then SIGKILL to whatever is left after the grace period.
     *
     * @return whether it and every descendant have ended (checked, not assumed)
     */
    boolean stop(final Duration grace) throws InterruptedException {
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
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // still alive: reported below
                }
            }
        }
        return !process.isAlive() && descendants.stream().noneMatch(ProcessHandle::isAlive);
    }

    static String tail(final String text, final int lines) {
        final String[] all = text.split("\n");
        return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }
}
