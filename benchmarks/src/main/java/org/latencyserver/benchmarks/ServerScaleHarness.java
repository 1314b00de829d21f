package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * The server as its connection count grows (docs/benchmarks.md, "At scale"): for each N
 * given, a configuration of N QoS 1 connections on the thesis profile {@code thesis-tac4-corba}
 * (push mode: MIB values arrive by {@code PutMibUpdates}, no SNMP), {@code CONNECTIONS_PER_NODE}
 * connections per client node, ten peer nodes, {@code index_ref} 1..N and a state file. The server
 * is started through the process kit; the harness reports
 * <ul>
 *   <li>the time from start to its ready file, the state file's size at ready and after every
 *       connection was pushed to LOW/LOW once;</li>
 *   <li>a mass state change: 30 % of the client nodes move to HIGH CPU at once ({@code PutMibUpdates}
 *       for each of their connections, from three threads, each call followed by {@code RequestStatus}
 *       of the same connection until its estimate changed), while another thread calls
 *       {@code RequestStatus} for random connections flat out: its p50/p99/max before and during the
 *       storm, and per changed connection the time from its call to its new estimate served;</li>
 *   <li>the state store's counters ({@code latency_server_state_saved_bytes_total} …) across the
 *       storm, and again 12 s later (an earlier server rewrote its state file every 10 s), per connection
 *       changed;</li>
 *   <li>the heap after a full GC ({@code jcmd PID GC.run}, {@code GC.heap_info}), the resident set,
 *       and the size and time of one read of the metrics endpoint.</li>
 * </ul>
 *
 * <p>Run from the repository root: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.ServerScaleHarness [N ...]} (default 1000 5000). The run's
 * configuration, state file and server log are in a temporary directory, printed at start. With
 * {@code -Dserver.scale.jvm.options="-XX:NativeMemoryTracking=summary"} (space-separated options for
 * the server's JVM) it also prints the server's native memory summary. With
 * {@code -Dserver.scale.server.repository=DIR} the server runs from another build: the modules'
 * {@code target/} directories of the source tree at {@code DIR} (e.g. an older commit, packaged), so
 * that two versions are measured by the same harness; {@code -Dserver.scale.server.args="..."} adds
 * arguments to the server's command line (e.g. {@code --no-per-connection-metrics}).
 */
public final class ServerScaleHarness {

    /** Connections of one client node; 30 % of the nodes change at once. */
    private static final int CONNECTIONS_PER_NODE = 10;
    private static final int PEER_NODES = 10;
    private static final double STORM_SHARE = 0.30;
    private static final int STORM_THREADS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(15);
    private static final long QUIET_READ_NANOS = 5_000_000_000L;
    private static final long ESTIMATE_WAIT_NANOS = 30_000_000_000L;

    private ServerScaleHarness() {
    }

    /**
     * @param args connection counts, one run each (default 1000 5000); at most 32,767 (an IDL short)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final List<Integer> sizes = new ArrayList<>();
        for (final String arg : args) {
            sizes.add(Integer.parseInt(arg.replace("_", "").replace(",", "")));
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of(1000, 5000));
        }
        for (final int connections : sizes) {
            try {
                run(connections);
            } catch (org.latencyserver.launch.ReadinessException e) {
                // e.g. a configuration the server refuses (25,000 connections exceed SnakeYAML's 3 MiB limit): a finding
                System.out.printf(Locale.ROOT, "  %,d connections: the server did not become ready: %s%n", connections,
                    e.getMessage());
            }
        }
    }

    private static void run(final int connections) throws Exception {
        if (connections < CONNECTIONS_PER_NODE || connections > Short.MAX_VALUE) {
            throw new IllegalArgumentException("connections must be " + CONNECTIONS_PER_NODE + "..32767, was " + connections);
        }
        try (TemporaryDirectory scratch = TemporaryDirectory.create("server-scale-" + connections)) {
            final Path work = scratch.path();
            final Path config = writeConfig(work, connections);
            final Path stateFile = work.resolve("scale.state.json");
            System.out.printf(Locale.ROOT, "%n== %,d connections (%,d client nodes x %d, %d peer nodes), work %s%n", connections,
                connections / CONNECTIONS_PER_NODE, CONNECTIONS_PER_NODE, PEER_NODES, work);
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 60_000));
            final String jvmOptions = System.getProperty("server.scale.jvm.options", "").trim();
            final String otherBuild = System.getProperty("server.scale.server.repository", "").trim();
            try (ProcessKit kit = otherBuild.isEmpty() ? ProcessKit.fromThisClasspath(work) : ProcessKit.fromRepository(Path.of(otherBuild),
                work)) {
                final long startNanos = System.nanoTime();
                final ChildProcess server = startServer(kit, work, config, jvmOptions);
                final ReadyFile ready = server.awaitReady(READY_TIMEOUT);
                final double startSeconds = (System.nanoTime() - startNanos) / 1e9;
                System.out.printf(Locale.ROOT, "  start to ready file: %.1f s (facts.connections %s); state file at ready %s%n",
                    startSeconds, ready.facts().get("connections"), size(stateFile));
                final String metricsUrl = ready.url("metrics");
                final StateStoreCounters atReady = StateStoreCounters.read(metricsUrl);
                final Latserv latserv = LatservHelper.narrow(orb.string_to_object(ready.reference("server")));

                firstPush(connections, latserv);
                final float lowEstimate = latserv.RequestStatus((short) 1).latency_estimate;
                Thread.sleep(11_000);
                System.out.printf(Locale.ROOT, "  11 s later: state file %s, journal %s; LOW/LOW estimate %.3f ms%n", size(stateFile),
                    size(stateFile.resolveSibling(stateFile.getFileName() + ".journal")), lowEstimate);

                stormWithCounters(connections, latserv, lowEstimate, metricsUrl, atReady);
                System.out.printf(Locale.ROOT, "  state file now %s, journal %s%n", size(stateFile),
                    size(stateFile.resolveSibling(stateFile.getFileName() + ".journal")));

                heap(ready.pid());
                final long scrapeNanos = System.nanoTime();
                final String exposition = MetricsText.fetch(metricsUrl);
                System.out.printf(Locale.ROOT, "  one read of the metrics endpoint: %,d bytes, %.0f ms%n",
                    exposition.getBytes(StandardCharsets.UTF_8).length, (System.nanoTime() - scrapeNanos) / 1e6);
            } finally {
                orb.shutdown(false);
            }
        }
    }

    /** Starts the server on the configuration, with {@code jvmOptions} and the extra {@code server.scale.server.args}. */
    private static ChildProcess startServer(final ProcessKit kit, final Path work, final Path config, final String jvmOptions)
        throws IOException {
        final ProcessKit.Launch launch = kit.launch(Component.SERVER)
            .args("--config", config.toString(), "--ior-file", work.resolve("server.ior").toString(), "--metrics-port", "0");
        for (final String option : jvmOptions.isEmpty() ? new String[0] : jvmOptions.split("\\s+")) {
            launch.jvmOption(option);
        }
        final String serverArgs = System.getProperty("server.scale.server.args", "").trim();
        if (!serverArgs.isEmpty()) {
            launch.args(serverArgs.split("\\s+"));
        }
        return launch.start();
    }

    /** Every connection LOW/LOW once, so that every one has an estimate; prints how long it took. */
    private static void firstPush(final int connections, final Latserv latserv) throws Exception {
        final long pushNanos = System.nanoTime();
        final Histogram firstPuts = pushAll(connections, latserv);
        final double pushSeconds = (System.nanoTime() - pushNanos) / 1e9;
        System.out.printf(Locale.ROOT, "  first push of all %,d connections (LOW/LOW), %d threads: %.1f s (%.0f calls/s), "
            + "PutMibUpdates p50 %.2f ms p99 %.2f ms max %.1f ms%n", connections, STORM_THREADS, pushSeconds,
            connections / pushSeconds, ms(firstPuts, 50), ms(firstPuts, 99), firstPuts.getMaxValue() / 1e6);
    }

    /** A quiet read, the storm, then the server's counters over the storm, 12 s after it, and since ready. */
    private static void stormWithCounters(final int connections, final Latserv latserv, final float lowEstimate,
                                          final String metricsUrl, final StateStoreCounters atReady) throws Exception {
        final Histogram quiet = readFlatOut(latserv, connections, QUIET_READ_NANOS, null);
        final StateStoreCounters before = StateStoreCounters.read(metricsUrl);
        storm(connections, latserv, lowEstimate, quiet);
        final StateStoreCounters afterStorm = StateStoreCounters.read(metricsUrl);
        Thread.sleep(12_000);
        final StateStoreCounters later = StateStoreCounters.read(metricsUrl);
        final double changed = Math.round(connections * STORM_SHARE / CONNECTIONS_PER_NODE) * CONNECTIONS_PER_NODE;
        afterStorm.printRequestStatusServerTime("  RequestStatus in the server during the storm (all callers)", before);
        afterStorm.minus(before).print("  state store, storm only", changed);
        later.minus(before).print("  state store, storm + 12 s", changed);
        final StateStoreCounters sinceReady = later.minus(atReady);
        sinceReady.print("  state store, first push + storm + 23 s", sinceReady.changes());
    }

    /** @return a configuration of {@code connections} QoS 1 connections (push mode, thesis profile), written into {@code work} */
    static Path writeConfig(final Path work, final int connections) throws IOException {
        final String testbed = Files.readString(RepositoryFiles.testbedConfig(work));
        final StringBuilder yaml = new StringBuilder(testbed.substring(0, testbed.indexOf("\nnodes:") + 1)
            .replace("state_file: thesis-testbed.state.json", "state_file: scale.state.json"));
        final int clientNodes = connections / CONNECTIONS_PER_NODE;
        yaml.append("nodes:\n");
        for (int node = 1; node <= clientNodes; node++) {
            yaml.append("  - { name: c").append(node).append(", node_id: ").append(node)
                .append(", workstation_type: TAC-4, mib_source: push }\n");
        }
        for (int peer = 1; peer <= PEER_NODES; peer++) {
            yaml.append("  - { name: p").append(peer).append(", node_id: ").append(clientNodes + peer)
                .append(", workstation_type: TAC-4, mib_source: push }\n");
        }
        yaml.append("\nlinks:\n  - { name: atm-port, mib_source: push }\n\nconnections:\n");
        for (int ref = 1; ref <= clientNodes * CONNECTIONS_PER_NODE; ref++) {
            final int node = (ref - 1) / CONNECTIONS_PER_NODE + 1;
            yaml.append("  - { index_ref: ").append(ref).append(", client: c").append(node).append(", peer: p")
                .append((ref - 1) % PEER_NODES + 1).append(", link: atm-port, message_size_bytes: 256, qos: 1, ")
                .append("profile: thesis-tac4-corba, calibration: thesis, probe_rate_per_second: 0 }\n");
        }
        final Path config = work.resolve("scale.yaml");
        Files.writeString(config, yaml);
        return config;
    }

    private static Histogram pushAll(final int connections, final Latserv latserv) throws Exception {
        final Histogram puts = new Histogram(3_600_000_000_000L, 3);
        final ExecutorService pool = Executors.newFixedThreadPool(STORM_THREADS);
        try {
            final List<Future<Histogram>> parts = new ArrayList<>();
            for (int t = 0; t < STORM_THREADS; t++) {
                final int first = t + 1;
                parts.add(pool.submit(() -> {
                    final Histogram mine = new Histogram(3_600_000_000_000L, 3);
                    for (int ref = first; ref <= connections; ref += STORM_THREADS) {
                        final long start = System.nanoTime();
                        put(latserv, (short) ref, 20);
                        mine.recordValue(System.nanoTime() - start);
                    }
                    return mine;
                }));
            }
            for (final Future<Histogram> part : parts) {
                puts.add(part.get());
            }
        } finally {
            pool.shutdown();
        }
        return puts;
    }

    /**
     * 30 % of the client nodes to HIGH CPU: each of their connections pushed, then read back until its
     * estimate is no longer {@code lowEstimate}; a reader calls {@code RequestStatus} flat out meanwhile.
     */
    private static void storm(final int connections, final Latserv latserv, final float lowEstimate, final Histogram quiet)
        throws Exception {
        final List<Integer> stormNodes = stormNodes(connections / CONNECTIONS_PER_NODE);
        final AtomicBoolean storming = new AtomicBoolean(true);
        final ExecutorService readerThread = Executors.newSingleThreadExecutor();
        final Future<Histogram> during = readerThread.submit(() -> readFlatOut(latserv, connections, Long.MAX_VALUE, storming));
        final ExecutorService pool = Executors.newFixedThreadPool(STORM_THREADS);
        final Histogram puts = new Histogram(3_600_000_000_000L, 3);
        final Histogram changeToEstimate = new Histogram(3_600_000_000_000L, 3);
        int unchanged = 0;
        float highEstimate = Float.NaN;
        final long stormStart = System.nanoTime();
        try {
            final List<Future<StormPart>> parts = new ArrayList<>();
            for (int t = 0; t < STORM_THREADS; t++) {
                final int first = t;
                parts.add(pool.submit(() -> stormPart(latserv, stormNodes, first, lowEstimate)));
            }
            for (final Future<StormPart> part : parts) {
                final StormPart result = part.get();
                puts.add(result.puts());
                changeToEstimate.add(result.changeToEstimate());
                unchanged += result.missed();
                if (!Float.isNaN(result.seen())) {
                    highEstimate = result.seen();
                }
            }
        } finally {
            pool.shutdown();
        }
        final double stormSeconds = (System.nanoTime() - stormStart) / 1e9;
        storming.set(false);
        final Histogram reads = during.get();
        readerThread.shutdown();
        System.out.printf(Locale.ROOT, "  storm: %d client nodes (%d connections) to HIGH CPU from %d threads in %.2f s "
            + "(%.0f changes/s); HIGH/LOW estimate %.3f ms; %d connections still on the old estimate after %d s%n",
            stormNodes.size(), stormNodes.size() * CONNECTIONS_PER_NODE, STORM_THREADS, stormSeconds,
            stormNodes.size() * CONNECTIONS_PER_NODE / stormSeconds, highEstimate, unchanged, ESTIMATE_WAIT_NANOS / 1_000_000_000L);
        System.out.printf(Locale.ROOT, "    PutMibUpdates p50 %.2f ms p99 %.2f ms max %.1f ms; call -> new estimate served: "
            + "p50 %.2f ms p99 %.2f ms max %.1f ms; all %d served %.2f s after the storm began%n", ms(puts, 50), ms(puts, 99),
            puts.getMaxValue() / 1e6, ms(changeToEstimate, 50), ms(changeToEstimate, 99), changeToEstimate.getMaxValue() / 1e6,
            changeToEstimate.getTotalCount(), stormSeconds);
        System.out.printf(Locale.ROOT, "    RequestStatus (random connection, one thread flat out): before p50 %.3f ms p99 %.3f ms "
            + "max %.1f ms (%,d calls in %d s); during p50 %.3f ms p99 %.3f ms max %.1f ms (%,d calls)%n", ms(quiet, 50),
            ms(quiet, 99), quiet.getMaxValue() / 1e6, quiet.getTotalCount(), QUIET_READ_NANOS / 1_000_000_000L, ms(reads, 50),
            ms(reads, 99), reads.getMaxValue() / 1e6, reads.getTotalCount());
    }

    /** The client nodes the storm moves to HIGH CPU: {@link #STORM_SHARE} of them, chosen at random with a fixed seed. */
    private static List<Integer> stormNodes(final int clientNodes) {
        final List<Integer> nodes = new ArrayList<>();
        for (int node = 1; node <= clientNodes; node++) {
            nodes.add(node);
        }
        Collections.shuffle(nodes, new Random(14));
        return nodes.subList(0, (int) Math.round(clientNodes * STORM_SHARE));
    }

    /**
     * What one storm thread measured.
     *
     * @param puts             each PutMibUpdates call, ns
     * @param changeToEstimate from the call to the new estimate served, ns
     * @param missed           connections still on the old estimate after {@link #ESTIMATE_WAIT_NANOS}
     * @param seen             the last new estimate served, ms; NaN when none
     */
    private record StormPart(Histogram puts, Histogram changeToEstimate, int missed, float seen) {
    }

    /** One storm thread: the nodes {@code first}, {@code first + STORM_THREADS}, … each connection pushed, then read until it changes. */
    private static StormPart stormPart(final Latserv latserv, final List<Integer> stormNodes, final int first,
                                       final float lowEstimate) throws Exception {
        final Histogram myPuts = new Histogram(3_600_000_000_000L, 3);
        final Histogram mine = new Histogram(3_600_000_000_000L, 3);
        int missed = 0;
        float seen = Float.NaN;
        for (int i = first; i < stormNodes.size(); i += STORM_THREADS) {
            final int node = stormNodes.get(i);
            for (int k = 0; k < CONNECTIONS_PER_NODE; k++) {
                final short ref = (short) ((node - 1) * CONNECTIONS_PER_NODE + k + 1);
                final long start = System.nanoTime();
                put(latserv, ref, 90);
                myPuts.recordValue(System.nanoTime() - start);
                float estimate;
                do {
                    estimate = latserv.RequestStatus(ref).latency_estimate;
                } while (estimate == lowEstimate && System.nanoTime() - start < ESTIMATE_WAIT_NANOS);
                if (estimate == lowEstimate) {
                    missed++;
                } else {
                    mine.recordValue(System.nanoTime() - start);
                    seen = estimate;
                }
            }
        }
        return new StormPart(myPuts, mine, missed, seen);
    }

    /** {@code RequestStatus} for random connections, for {@code nanos} or while {@code running}. */
    private static Histogram readFlatOut(final Latserv latserv, final int connections, final long nanos,
                                         final AtomicBoolean running) {
        final Histogram reads = new Histogram(3_600_000_000_000L, 3);
        final long end = System.nanoTime() + Math.min(nanos, 3_600_000_000_000L);
        while (System.nanoTime() < end && (running == null || running.get())) {
            final short ref = (short) (ThreadLocalRandom.current().nextInt(connections) + 1);
            final long start = System.nanoTime();
            latserv.RequestStatus(ref);
            reads.recordValue(System.nanoTime() - start);
        }
        return reads;
    }

    private static void put(final Latserv latserv, final short ref, final int clientCpuPercent) {
        latserv.PutMibUpdates(new IdlMibUpdates(ref, (short) clientCpuPercent, (short) 20, (short) 10), ref);
    }

    /** Heap after a full GC, by {@code jcmd}, and the resident set from {@code /proc}. */
    private static void heap(final long pid) throws IOException, InterruptedException {
        final ServerProbe.Heap heap = ServerProbe.Heap.afterGc(pid);
        System.out.printf(Locale.ROOT, "  %s%n%s", heap.describe(), heap.heapInfo());
        // With -Dserver.scale.jvm.options=-XX:NativeMemoryTracking=summary: where the resident set goes.
        final String nmt = ServerProbe.jcmd(pid, "VM.native_memory summary scale=MB");
        if (nmt.contains("Total:")) {
            for (final String line : nmt.split("\n")) {
                if (line.startsWith("Total:") || line.startsWith("-")) {
                    System.out.println("    NMT " + line.trim());
                }
            }
        }
    }

    private static double ms(final Histogram histogram, final double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e6;
    }

    private static String size(final Path file) throws IOException {
        return Files.exists(file) ? String.format(Locale.ROOT, "%,d bytes", Files.size(file)) : "absent";
    }
}
