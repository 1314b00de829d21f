package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * End-to-end harness: {@code RequestStatus} on the real server, once per ORB configuration
 * ("variant": by default JacORB's defaults and the server's tuning, {@link OrbSupport#withServerTuning}),
 * against an empty JacORB two-way call returning the same struct ({@link EmptyLatservMain}, on the
 * tuned settings), each server in its own JVM on loopback, measured side by side in one run.
 *
 * <p>The callers run in two client JVMs ({@link RequestStatusClientMain}; each has one ORB, so one
 * connection per server, as real client processes have), split evenly between them:
 * <ul>
 *   <li>closed loop at each caller count (default 1, 8 and 64): every caller calls back to back;
 *       rounds alternate between the targets (and rotate which goes first) so that machine noise
 *       falls on all alike;</li>
 *   <li>open loop at a fixed rate (default: half the best closed-loop throughput of the variant
 *       named {@code tuned}, measured in the same run), sends scheduled in advance and spread over
 *       several threads per client JVM, latency counted from the scheduled send time (coordinated
 *       omission corrected by construction).</li>
 * </ul>
 * Each client JVM writes its counts and HdrHistogram per round to a {@link RequestStatusResult}
 * file; the harness merges them and prints one table: calls/s, p50, p99, p99.9, max, errors, the
 * slowest caller's share of an even split (worst round), and the server's
 * {@code latency_server_orb_thread_pool_exhausted_total} increase (read from its metrics port)
 * during the rows' rounds.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.RequestStatusHarness [SECONDS_PER_ROUND] [ROUNDS] [CALLERS,...]}
 * (defaults 3, 4, {@code 1,8,64}). System properties:
 * <ul>
 *   <li>{@code harness.variants}: {@code NAME=JVM_OPTIONS;NAME=JVM_OPTIONS…}, the server variants
 *       (default {@code default=-Dlatencyserver.orb.tuning=off;tuned=}); options are {@code -D}'s
 *       such as {@code -Djacorb.poa.thread_pool_max=64}, which override the tuning's values;</li>
 *   <li>{@code harness.server.options}: JVM options for every server, the empty one included;</li>
 *   <li>{@code harness.client.options}: JVM options for the client JVMs;</li>
 *   <li>{@code harness.clients}: client JVMs (default 2);</li>
 *   <li>{@code harness.open.rate}: the open-loop rates, comma-separated, in calls/s or as a
 *       fraction of the tuned capacity measured in the run ({@code 0.5x}); each group of rows
 *       after a 1 s warm-up per target (default {@code 0.5x}; 0: no open-loop rows); {@code harness.open.threads}: sending threads
 *       per client JVM (default 16).</li>
 * </ul>
 */
public final class RequestStatusHarness {

    private static final long HIGHEST_NANOS = 3_600_000_000_000L;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private RequestStatusHarness() {
    }

    /**
     * A server to call.
     *
     * @param reference  its IOR, from its ready file
     * @param metricsUrl for a real server, its metrics address; null for the empty call
     * @param process    the server's JVM (its CPU time is counted per row)
     */
    private record Target(String name, String reference, String metricsUrl, ChildProcess process) {
    }

    /** One row of the table, accumulated over its rounds. */
    private static final class Row {
        final String mode;
        final int callers;
        final Target target;
        final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
        long calls;
        long errors;
        long serverCpuNanos;
        long clientsCpuNanos;
        double seconds;
        double slowestShare = Double.NaN;
        double exhausted;

        Row(final String mode, final int callers, final Target target) {
            this.mode = mode;
            this.callers = callers;
            this.target = target;
        }

        double callsPerSecond() {
            return calls / seconds;
        }

        double p(final double percentile) {
            return latency.getValueAtPercentile(percentile) / 1e3;
        }
    }

    /**
     * @param args seconds per round (default 3), rounds per target and mode (default 4), caller
     *             counts (default {@code 1,8,64})
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final double secondsPerRound = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        final int[] callerCounts = args.length > 2 ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1, 8, 64};
        final int clientCount = Integer.getInteger("harness.clients", 2);
        final int openThreads = Integer.getInteger("harness.open.threads", 16);
        final Map<String, String> variants = variants(System.getProperty("harness.variants",
            "default=-D" + OrbSupport.TUNING_SWITCH + "=off;tuned="));
        try (TemporaryDirectory scratch = TemporaryDirectory.create("latency-harness")) {
            final Path work = scratch.path();
            final Path config = RepositoryFiles.testbedConfig(work);
            final String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
            final List<Client> clients = new ArrayList<>();
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                // -Dharness.server.options="-Djacorb.poa.thread_pool_max=64 ..." tries ORB settings on all servers alike.
                final List<String> serverOptions = words(System.getProperty("harness.server.options", ""));
                final List<Target> targets = startTargets(kit, work, config, variants, serverOptions);
                checkServing(targets);
                for (int c = 0; c < clientCount; c++) {
                    clients.add(Client.start(kit, work, c, words(System.getProperty("harness.client.options", ""))));
                }

                final List<Row> rows = new ArrayList<>();
                for (final int callers : callerCounts) {
                    rows.addAll(measureGroup(work, clients, targets, "closed", "closed", callers, 0, rounds, secondsPerRound));
                }
                final String configuredRates = System.getProperty("harness.open.rate", "").strip();
                final String capacityOf = variants.containsKey("tuned") ? "tuned" : targets.get(targets.size() - 2).name();
                final double capacity = rows.stream().filter(r -> r.target.name().equals(capacityOf))
                    .mapToDouble(Row::callsPerSecond).max().orElse(0);
                final double[] rates = openRates(configuredRates, capacity);
                for (final double rate : rates) {
                    rows.addAll(measureGroup(work, clients, targets, "open", "open " + String.format(Locale.ROOT, "%,.0f/s", rate),
                        openThreads * clientCount, rate, rounds, secondsPerRound));
                }
                final String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();

                System.out.printf(Locale.ROOT, "RequestStatus: server variants %s and the empty call; %d client JVMs; %d rounds x %.1f s"
                    + " per row; load average before %s, after %s%n", variants, clientCount, rounds, secondsPerRound, loadBefore, loadAfter);
                if (rates.length > 0) {
                    System.out.printf(Locale.ROOT, "open loop: %s calls/s (%s, when given as fractions), %d sending threads per client JVM, latency from the"
                        + " scheduled send%n", Arrays.toString(rates), (configuredRates.isEmpty() ? "0.5x" : configuredRates)
                        + " of " + capacityOf + "'s best closed-loop " + String.format(Locale.ROOT, "%.0f", capacity), openThreads);
                }
                printTable(rows);
                verdicts(rows, targets, callerCounts, rates.length > 0 ? rates[0] : 0);
            } finally {
                // Asked to end first (their ORBs shut down); the kit then stops whatever is left, servers included.
                for (final Client client : clients) {
                    client.quit();
                }
            }
        }
    }

    /** Starts a server per variant and the empty call's server, and waits until each is ready. */
    private static List<Target> startTargets(final ProcessKit kit, final Path work, final Path config,
                                             final Map<String, String> variants, final List<String> serverOptions)
        throws IOException, InterruptedException {
        final Map<String, ChildProcess> servers = new LinkedHashMap<>();
        for (final Map.Entry<String, String> variant : variants.entrySet()) {
            // --ior-file only keeps its IOR file out of the working directory; the reference comes from the ready file.
            final ProcessKit.Launch server = kit.launch(Component.SERVER).name(variant.getKey())
                .args("--config", config.toString(), "--ior-file", work.resolve(variant.getKey() + ".ior").toString(),
                    "--metrics-port", "0");
            serverOptions.forEach(server::jvmOption);
            words(variant.getValue()).forEach(server::jvmOption);
            servers.put(variant.getKey(), server.start());
        }
        final Path emptyReadyFile = work.resolve("empty.ready.json");
        final ProcessKit.Launch emptyLaunch = kit.launchClass("empty", EmptyLatservMain.class.getName())
            .args("--ready-file", emptyReadyFile.toString());
        serverOptions.forEach(emptyLaunch::jvmOption);
        final ChildProcess empty = emptyLaunch.start();
        final List<Target> targets = new ArrayList<>();
        for (final Map.Entry<String, ChildProcess> server : servers.entrySet()) {
            final ReadyFile ready = server.getValue().awaitReady(READY_TIMEOUT);
            targets.add(new Target(server.getKey(), ready.reference("server"), ready.url("metrics"), server.getValue()));
        }
        targets.add(new Target("empty call", ReadyFile.await(emptyReadyFile, READY_TIMEOUT, empty::isAlive, empty::logEnd)
            .reference("server"), null, empty));
        return targets;
    }

    /** One call to each target; a real server is given MIB values first and must serve connection 1. */
    private static void checkServing(final List<Target> targets) {
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        for (final Target target : targets) {
            final Latserv reference = LatservHelper.narrow(orb.string_to_object(target.reference()));
            if (target.metricsUrl() != null) {
                reference.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 10), (short) 1);
                if (reference.RequestStatus((short) 1).server_acknowledges_client != 1) {
                    throw new IllegalStateException(target.name() + " serves no estimate for connection 1");
                }
            } else {
                reference.RequestStatus((short) 1);
            }
        }
        orb.shutdown(false);
    }

    /**
     * One row per target for one mode and caller count: a 1 s warm-up per target, then the rounds,
     * alternating between the targets and rotating which goes first.
     *
     * @param rate the open loop's calls/s; 0 for the closed loop
     */
    private static List<Row> measureGroup(final Path work, final List<Client> clients, final List<Target> targets,
                                          final String mode, final String rowMode, final int callers, final double rate,
                                          final int rounds, final double secondsPerRound) throws IOException, InterruptedException {
        final List<Row> group = new ArrayList<>();
        for (final Target target : targets) {
            group.add(new Row(rowMode, callers, target));
            round(work, clients, mode, target, callers, 1.0, rate, null); // warm-up
        }
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < group.size(); i++) {
                final Row row = group.get((i + round) % group.size());
                round(work, clients, mode, row.target, callers, secondsPerRound, rate, row);
            }
        }
        return group;
    }

    /**
     * @param configuredRates {@code harness.open.rate}: calls/s or fractions of the capacity ({@code 0.5x}); empty for half of it
     * @param capacity        the best closed-loop calls/s of the capacity's variant
     * @return the open loop's rates, calls/s, each above 0
     */
    private static double[] openRates(final String configuredRates, final double capacity) {
        return configuredRates.isEmpty() ? new double[] {Math.floor(capacity / 2 / 100) * 100}
            : Arrays.stream(configuredRates.split(",")).map(String::strip)
                .mapToDouble(r -> r.endsWith("x") ? Math.floor(capacity * Double.parseDouble(r.substring(0, r.length() - 1)) / 100) * 100
                    : Double.parseDouble(r))
                .filter(r -> r > 0).toArray();
    }

    private static void printTable(final List<Row> rows) {
        System.out.println("| mode | callers | target | calls/s | p50 µs | p99 µs | p99.9 µs | max µs | errors | slowest caller |"
            + " pool exhausted | server CPU | clients CPU |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (final Row row : rows) {
            System.out.printf(Locale.ROOT, "| %s | %d | %s | %,.0f | %,.1f | %,.1f | %,.1f | %,.1f | %d | %s | %s | %.0f %% | %.0f %% |%n",
                row.mode, row.callers, row.target.name(), row.callsPerSecond(), row.p(50), row.p(99), row.p(99.9),
                row.latency.getMaxValue() / 1e3, row.errors,
                row.mode.startsWith("open") ? "–" : String.format(Locale.ROOT, "%.2f", row.slowestShare),
                row.target.metricsUrl() == null ? "–" : String.format(Locale.ROOT, "%.0f", row.exhausted),
                100.0 * row.serverCpuNanos / (row.seconds * 1e9), 100.0 * row.clientsCpuNanos / (row.seconds * 1e9));
        }
    }

    /** Runs one round on every client JVM at once and adds what they measured to {@code into} (unless a warm-up). */
    private static void round(final Path work, final List<Client> clients, final String mode, final Target target, final int callers,
        final double seconds, final double rate, final Row into) throws IOException, InterruptedException {
        final double exhaustedBefore = into == null ? 0 : exhausted(target);
        final long serverCpuBefore = cpuNanos(target.process());
        final long clientsCpuBefore = clients.stream().mapToLong(client -> cpuNanos(client.process())).sum();
        final long startEpochMillis = System.currentTimeMillis() + 300;
        final List<Path> results = new ArrayList<>();
        final List<Client> used = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            final int share = mode.equals("open") ? callers / clients.size()
                : callers / clients.size() + (c < callers % clients.size() ? 1 : 0);
            if (share == 0) {
                continue;
            }
            final Path result = work.resolve("result-" + c);
            Files.deleteIfExists(result);
            final String command = String.format(Locale.ROOT, "%s %s %d %.3f %d %s", mode, target.reference(), share, seconds, startEpochMillis,
                result) + (mode.equals("open")
                    ? String.format(Locale.ROOT, " %.3f %.3f", rate / clients.size(), (double) c / clients.size()) : "");
            clients.get(c).send(command);
            results.add(result);
            used.add(clients.get(c));
        }
        final List<Long> perCaller = new ArrayList<>();
        for (int c = 0; c < used.size(); c++) {
            final RequestStatusResult result = used.get(c).awaitResult(results.get(c), seconds);
            if (into != null) {
                into.latency.add(result.latency());
                into.calls += result.totalCalls();
                into.errors += result.errors();
                Arrays.stream(result.calls()).forEach(perCaller::add);
            }
        }
        if (into != null) {
            into.seconds += seconds;
            final double mean = perCaller.stream().mapToLong(Long::longValue).average().orElse(0);
            final double share = mean == 0 ? 0 : perCaller.stream().mapToLong(Long::longValue).min().orElse(0) / mean;
            into.slowestShare = Double.isNaN(into.slowestShare) ? share : Math.min(into.slowestShare, share);
            into.exhausted += exhausted(target) - exhaustedBefore;
            // CPU over the whole round (start-up pause included), as a share of one core for its seconds.
            into.serverCpuNanos += cpuNanos(target.process()) - serverCpuBefore;
            into.clientsCpuNanos += clients.stream().mapToLong(client -> cpuNanos(client.process())).sum() - clientsCpuBefore;
        }
    }

    /** @return the process's CPU time so far (user + system), ns; 0 when the platform does not say */
    private static long cpuNanos(final ChildProcess process) {
        return ProcessHandle.of(process.pid()).flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    private static void verdicts(final List<Row> rows, final List<Target> targets, final int[] callerCounts, final double rate) {
        final int most = Arrays.stream(callerCounts).max().orElse(0);
        for (final Target target : targets) {
            final List<Row> closed = rows.stream().filter(r -> r.target == target && r.mode.equals("closed")).toList();
            final Row top = closed.stream().filter(r -> r.callers == most).findFirst().orElse(null);
            if (top == null) {
                continue;
            }
            final double bestSmaller = closed.stream().filter(r -> r.callers < most).mapToDouble(Row::callsPerSecond).max().orElse(Double.NaN);
            final long errors = rows.stream().filter(r -> r.target == target).mapToLong(r -> r.errors).sum();
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%s at %d callers: throughput %.2f x the best at fewer callers (>= 0.90), p99 %.2f x p50 (<= 3), slowest caller %.2f,"
                    + " errors %d in all rows", target.name(), most, top.callsPerSecond() / bestSmaller, top.p(99) / top.p(50),
                top.slowestShare, errors));
            if (target.metricsUrl() != null) {
                line.append(String.format(Locale.ROOT, ", pool exhausted %.0f at %d callers", top.exhausted, most));
            }
            rows.stream().filter(r -> r.target == target && r.mode.startsWith("open")).findFirst().ifPresent(open -> line.append(
                String.format(Locale.ROOT, "; open loop at %.0f calls/s: p99 %.0f µs (<= 1000)", rate, open.p(99))));
            System.out.println(line);
        }
    }

    private static double exhausted(final Target target) {
        if (target.metricsUrl() == null) {
            return 0;
        }
        try {
            return MetricsText.scrape(target.metricsUrl()).value("latency_server_orb_thread_pool_exhausted_total").orElse(Double.NaN);
        } catch (IOException | IllegalArgumentException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private static Map<String, String> variants(final String spec) {
        final Map<String, String> variants = new LinkedHashMap<>();
        for (final String item : spec.split(";")) {
            if (item.isBlank()) {
                continue;
            }
            final int equals = item.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("harness.variants: NAME=JVM_OPTIONS expected, was " + item);
            }
            variants.put(item.substring(0, equals).strip(), item.substring(equals + 1).strip());
        }
        return variants;
    }

    private static List<String> words(final String options) {
        return options.isBlank() ? List.of() : List.of(options.strip().split("\\s+"));
    }

    /** A client JVM and the directory the harness drives it through. */
    private record Client(ChildProcess process, ClientCommandDirectory commands) {

        static Client start(final ProcessKit kit, final Path work, final int index, final List<String> options)
            throws IOException, InterruptedException {
            final ClientCommandDirectory commands = new ClientCommandDirectory(work.resolve("client-" + index));
            final ProcessKit.Launch launch = kit.launchClass("client-" + index, RequestStatusClientMain.class.getName())
                .args(commands.directory().toString());
            options.forEach(launch::jvmOption);
            final ChildProcess process = launch.start();
            ReadyFile.await(commands.readyFile(), READY_TIMEOUT, process::isAlive, process::logEnd);
            return new Client(process, commands);
        }

        void send(final String command) throws IOException {
            commands.send(command);
        }

        /** @return the round's result, once written; a round may take its seconds and a minute more */
        RequestStatusResult awaitResult(final Path result, final double roundSeconds) throws IOException, InterruptedException {
            return ClientCommandDirectory.awaitResult(result, process, Duration.ofSeconds((long) roundSeconds + 60));
        }

        void quit() {
            try {
                send("quit");
                process.awaitExit(Duration.ofSeconds(10));
            } catch (IOException | InterruptedException | ReadinessException e) {
                // the kit stops it anyway
            }
        }
    }
}
