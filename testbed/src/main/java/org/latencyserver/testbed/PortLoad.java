package org.latencyserver.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Drives a bottleneck port to a utilisation with iperf3 over UDP: a one-off iperf3 server in the
 * receiving host's namespace, a client in the sending host's sending at the {@link LoadRate} for the
 * percent, for a time or until stopped. Both are ordinary child processes whose PIDs go to
 * {@code STATE/load/PORT/} (server.pid, client.pid), so {@link #stop} and {@code down} end them
 * from any process; their output is there too (server.log, client.json, client.err).
 *
 * <p>Not thread-safe: one load per instance.
 */
public final class PortLoad {

    private static final long LISTEN_WAIT_MILLIS = 5_000;

    private final StateDirectory state;
    private final CommandRunner runner;

    /**
     * @param state  the testbed's state directory
     * @param runner runs {@code ss} to see the server listen
     */
    public PortLoad(final StateDirectory state, final CommandRunner runner) {
        this.state = state;
        this.runner = runner;
    }

    /**
     * A started load.
     *
     * @param target  where it goes
     * @param percent the utilisation asked for
     * @param server  the iperf3 server
     * @param client  the iperf3 client
     * @param output  the client's JSON report
     */
    public record Running(LoadTarget target, double percent, Process server, Process client, Path output) {
    }

    /**
     * Starts a load (ending one already on the port first).
     *
     * @param target  where
     * @param percent how much, percent of the port's rate
     * @param seconds how long; 0 until stopped
     * @return the running load
     * @throws IOException          when iperf3 cannot start or its server does not listen, quoting its output
     * @throws CommandFailedException when {@code ss} fails
     * @throws InterruptedException when interrupted (what started is ended)
     */
    public Running start(final LoadTarget target, final double percent, final long seconds)
        throws IOException, CommandFailedException, InterruptedException {
        stop(state, target.port());
        final Path dir = state.load(target.port());
        Files.createDirectories(dir);
        final String iperf3 = Prerequisites.find("iperf3").map(Path::toString).orElse("iperf3");
        final String port = Integer.toString(target.iperfPort());
        final Path serverLog = dir.resolve("server.log");
        final Process server = spawn(List.of("ip", "netns", "exec", target.receiver().namespace(), iperf3, "-s", "-1",
            "-B", target.receiver().address(), "-p", port), serverLog, serverLog, dir.resolve("server.pid"));
        final List<Process> started = new ArrayList<>(List.of(server));
        try {
            awaitListening(target, server, serverLog);
            final Path output = dir.resolve("client.json");
            final long bitsPerSecond = LoadRate.payloadBitsPerSecond(percent, target.limit().rateMbit());
            final Process client = spawn(List.of("ip", "netns", "exec", target.sender().namespace(), iperf3, "-c",
                target.receiver().address(), "-B", target.sender().address(), "-p", port, "-u", "-b", Long.toString(bitsPerSecond),
                "-l", Integer.toString(LoadRate.PAYLOAD_BYTES), "-t", Long.toString(seconds), "-J"),
                output, dir.resolve("client.err"), dir.resolve("client.pid"));
            started.add(client);
            return new Running(target, percent, server, client, output);
        } catch (IOException | CommandFailedException | InterruptedException | RuntimeException e) {
            Processes.end(started.stream().map(Process::toHandle).toList());
            throw e;
        }
    }

    /**
     * Waits for a load to end (its time, or a stop) and says what iperf3 sent.
     *
     * @param running the load
     * @return one line for people: payload rate sent, share lost
     * @throws IOException when iperf3 reported an error, quoting it
     */
    public static String awaitEnd(final Running running) throws IOException, InterruptedException {
        running.client().waitFor();
        if (!running.server().waitFor(3, TimeUnit.SECONDS)) {
            Processes.end(List.of(running.server().toHandle()));
        }
        final String text = Files.exists(running.output()) ? Files.readString(running.output()) : "";
        final JsonNode report;
        try {
            report = new ObjectMapper().readTree(text.isBlank() ? "{}" : text);
        } catch (IOException e) {
            throw new IOException("iperf3 wrote no report to " + running.output() + ": " + text.strip(), e);
        }
        if (report.has("error")) {
            throw new IOException("iperf3 toward " + running.target().receiver().name() + ": " + report.get("error").asText()
                + " (its output: " + running.output().getParent() + ")");
        }
        final JsonNode sum = report.path("end").path("sum");
        return String.format(Locale.ROOT, "sent %.2f Mbit/s of UDP payload (%.2f Mbit/s of frames) for %.1f s, %.2f %% lost",
            sum.path("bits_per_second").asDouble() / 1e6,
            sum.path("bits_per_second").asDouble() / 1e6 * (LoadRate.PAYLOAD_BYTES + LoadRate.FRAME_OVERHEAD_BYTES)
                / LoadRate.PAYLOAD_BYTES,
            sum.path("seconds").asDouble(), sum.path("lost_percent").asDouble());
    }

    /**
     * Ends a port's load, if one runs, by its pid files.
     *
     * @param state the testbed's state directory
     * @param port  the port
     * @return whether one was running
     */
    public static boolean stop(final StateDirectory state, final String port) throws InterruptedException {
        final List<ProcessHandle> running = new ArrayList<>();
        for (final String name : List.of("client.pid", "server.pid")) {
            Processes.readPid(state.load(port).resolve(name)).flatMap(Processes::alive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/iperf3")).orElse(false)).ifPresent(running::add);
        }
        Processes.end(running);
        return !running.isEmpty();
    }

    private void awaitListening(final LoadTarget target, final Process server, final Path log)
        throws IOException, CommandFailedException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LISTEN_WAIT_MILLIS);
        final Command listening = Command.of("is iperf3 listening in " + target.receiver().namespace(), "ip", "netns", "exec",
            target.receiver().namespace(), "ss", "-Hltn", "sport = :" + target.iperfPort());
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IOException("the iperf3 server in " + target.receiver().namespace() + " exited (" + server.exitValue()
                    + "): " + Files.readString(log).strip());
            }
            if (!runner.run(listening).isBlank()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IOException("the iperf3 server in " + target.receiver().namespace() + " did not listen on port "
            + target.iperfPort() + " within " + LISTEN_WAIT_MILLIS + " ms: " + Files.readString(log).strip());
    }

    private static Process spawn(final List<String> argv, final Path out, final Path err, final Path pidFile) throws IOException {
        final ProcessBuilder builder = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile());
        if (out.equals(err)) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(err.toFile());
        }
        final Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException("cannot start `" + String.join(" ", argv) + "`: " + e.getMessage(), e);
        }
        Files.writeString(pidFile, process.pid() + "\n");
        return process;
    }
}
