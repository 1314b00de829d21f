package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerPOATie;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The deployment at scale: thousands of workstations polled over SNMP by a partitioned deployment,
 * on this machine. One snmp-emulator JVM serves W workstations (127.1.x.y) and W/10 switch ports
 * (127.2.x.y); P servers, one per partition, registered in one JacORB naming service, each own W/P
 * client workstations with {@value #CONNECTIONS_PER_CLIENT} connections each (to peers of the same
 * partition, over the client's switch port: W/P × 10 connections, {@code index_ref_scope: partition})
 * and poll their workstations and ports at the given interval. Timeline (the emulator's scenario):
 * every workstation at {@value #BASE_CPU_PERCENT} % CPU, every port at {@value #PORT_PERCENT} %; one
 * step later {@value #STORM_PERCENT_OF_CLIENTS} % of every partition's client workstations go to
 * {@value #STORM_CPU_PERCENT} % at once (the mass change).
 *
 * <p>Reported per server (partition):
 * <ul>
 *   <li>CPU while polling steadily (the quiet window before the change): the whole process and its
 *       poller's threads ({@code snmp-poller} and SNMP4J's {@code DefaultUDPTransportMapping}), as a
 *       share of one core, from {@code /proc};</li>
 *   <li>SNMP answers against requests sent and against expected (sources ÷ interval), from the
 *       server's own counters, and polls skipped;</li>
 *   <li>heap after a full GC and the resident set ({@code jcmd}, {@code /proc});</li>
 *   <li>state change → new estimate served: for up to {@value #SUBSCRIBED_PER_PARTITION} connections
 *       whose client goes HIGH, the time from the emulator's change (its timeline's start + one step)
 *       to the first estimate the server computed with the client HIGH ({@code computed_epoch_millis}
 *       of the pushed estimate, a subscription per server), and to its arrival here;</li>
 *   <li>{@code RequestStatus} latency, one call every {@value #READ_PERIOD_MICROS} µs per server for a
 *       random connection, in the quiet window and during the change (its first
 *       {@value #STORM_WINDOW_SECONDS} s);</li>
 *   <li>bytes the state store wrote per state change over the change and the
 *       {@value #STORM_WINDOW_SECONDS} s after it, from its counters.</li>
 * </ul>
 *
 * <p>Run from the repository root (built with {@code mvn -B -q -pl benchmarks -am package -DskipTests}):
 * {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.PartitionsScaleHarness
 * [WORKSTATIONS] [PARTITIONS] [POLL_INTERVAL_MILLIS] [STEP_SECONDS]} (default 10000 4 1000 180: the emulator starts
 * first, then the servers one after another; {@value #WARM_UP_SECONDS} s after the last is ready the quiet window
 * begins and lasts until {@value #QUIET_MARGIN_SECONDS} s before the change, which comes one step after the
 * emulator's start). Each
 * server's JVM gets {@code -Xmx1g} (the target of a heap under 1 GiB per server, as a hard limit), or
 * {@code -Dpartitions.scale.jvm.options=…}. {@code -Dpartitions.scale.rehearsal=true} puts a rehearsal before
 * the change: one step after the start another {@value #STORM_PERCENT_OF_CLIENTS} % of each partition's clients go to
 * {@value #STORM_CPU_PERCENT} % and one step later back, so the servers have run their state-change paths (and their
 * JIT compilers compiled them) before the change, as a server running for days has; the change then comes three steps
 * after the start and the quiet window lies in the third step. {@code -Dpartitions.scale.emulator.nice=-10} renices the emulator's
 * threads (root only for a negative value): its agents then get the CPU first, as agents on the workstations
 * themselves would, and the servers compete with each other only. Everything it wrote is in the work directory printed first.
 *
 * <p>It stays one class: {@code main} is one scenario run in order, start to report; the partitions it follows are
 * {@link ScalePartition}s, their CPU {@link CpuWindow}'s, the figures and the table {@link PartitionsReport}'s.
 */
public final class PartitionsScaleHarness {

    private static final int CONNECTIONS_PER_CLIENT = 10;
    static final int WORKSTATIONS_PER_SWITCH_PORT = 10;
    private static final int BASE_CPU_PERCENT = 20;
    private static final int STORM_CPU_PERCENT = 90;
    private static final int PORT_PERCENT = 10;
    static final int STORM_PERCENT_OF_CLIENTS = 30;
    private static final int SUBSCRIBED_PER_PARTITION = 1000;
    private static final long READ_PERIOD_MICROS = 10_000;
    private static final int STORM_WINDOW_SECONDS = 20;
    /** The quiet window ends this long before the change, and starts after the settling. */
    private static final int QUIET_MARGIN_SECONDS = 5;
    /** After the last server is ready, before the quiet window: the JIT compilers of five JVMs settle. */
    private static final int WARM_UP_SECONDS = 45;
    private static final int MIN_QUIET_SECONDS = 20;
    /** After the rehearsal's return to the base load, before the quiet window. */
    private static final int REHEARSAL_SETTLE_SECONDS = 15;
    private static final int CPU_HIGH_CODE = 3;
    private static final String COMMUNITY_ENV = "BENCH_COMMUNITY";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(10);

    private PartitionsScaleHarness() {
    }

    /**
     * @param args workstations (default 10,000), partitions (4), poll interval in ms (1000), seconds per
     *             scenario step (180: the servers' start, warm-up and quiet window come before the change)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final int workstations = args.length > 0 ? Integer.parseInt(args[0].replace("_", "").replace(",", "")) : 10_000;
        final int partitionCount = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        final long pollMillis = args.length > 2 ? Long.parseLong(args[2]) : 1000;
        final int stepSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 180;
        final int clientsPerPartition = workstations / partitionCount;
        if (clientsPerPartition * partitionCount != workstations || clientsPerPartition % WORKSTATIONS_PER_SWITCH_PORT != 0
            || clientsPerPartition * CONNECTIONS_PER_CLIENT > Short.MAX_VALUE || clientsPerPartition <= CONNECTIONS_PER_CLIENT) {
            throw new IllegalArgumentException("workstations must split into " + partitionCount + " equal partitions, each a"
                + " multiple of " + WORKSTATIONS_PER_SWITCH_PORT + " above " + CONNECTIONS_PER_CLIENT + " with at most 32,767"
                + " connections (" + CONNECTIONS_PER_CLIENT + " a client), was " + workstations);
        }
        if (stepSeconds < WARM_UP_SECONDS + QUIET_MARGIN_SECONDS + MIN_QUIET_SECONDS) {
            throw new IllegalArgumentException("a step must be at least " + (WARM_UP_SECONDS + QUIET_MARGIN_SECONDS + MIN_QUIET_SECONDS)
                + " s (servers' start, warm-up, quiet window), was " + stepSeconds);
        }
        try (TemporaryDirectory scratch = TemporaryDirectory.create("partitions-scale")) {
            final Path work = scratch.path();
            final String community = "bench" + System.nanoTime();
            final List<ScalePartition> partitions = new ArrayList<>();
            for (int p = 0; p < partitionCount; p++) {
                partitions.add(new ScalePartition(p, clientsPerPartition));
            }
            System.out.printf(Locale.ROOT, "work %s%nload before: %s%n", work, loadAverage());
            System.out.printf(Locale.ROOT, "%,d workstations + %,d switch ports, %d partitions x %,d connections (%,d in all), "
                + "polled every %d ms; a step is %d s%n", workstations, workstations / WORKSTATIONS_PER_SWITCH_PORT, partitionCount,
                clientsPerPartition * CONNECTIONS_PER_CLIENT, workstations * CONNECTIONS_PER_CLIENT, pollMillis, stepSeconds);
            final boolean rehearsal = Boolean.getBoolean("partitions.scale.rehearsal");
            final Path scenario = writeScenario(work, workstations, partitions, stepSeconds, rehearsal);
            final String jvmOptions = System.getProperty("partitions.scale.jvm.options", "-Xmx1g").trim();
            final int emulatorNice = Integer.getInteger("partitions.scale.emulator.nice", 0);
            // It receives the servers' pushes: the listeners' fixed request pool (JacORB's default pool churns threads).
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.withListenerTuning(OrbSupport.properties("127.0.0.1", 0, 60_000)));
            final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
            poa.the_POAManager().activate();
            OrbSupport.runInBackground(orb, "harness-orb");
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work, jvmOptions.split("\\s+"))) {
                // The server node list the emulator writes for every agent: one line a node or link.
                kit.launch(Component.SNMP_EMULATOR).name("emulator-dry-run").args("--scenario", scenario.toString(),
                    "--community-env", COMMUNITY_ENV, "--write-server-nodes", work.resolve("all-nodes.yaml").toString(), "--dry-run")
                    .env(COMMUNITY_ENV, community).start().awaitSuccess(Duration.ofMinutes(5));
                final List<String> agentLines = Files.readAllLines(work.resolve("all-nodes.yaml"));

                final ChildProcess naming = kit.launch(Component.NAMING_SERVICE).name("naming")
                    .args("--port", Integer.toString(freePort()), "--db-dir", work.resolve("nsdb").toString())
                    .start();
                final String corbaloc = naming.awaitReady(READY_TIMEOUT).reference("naming");
                // The emulator first: its timeline starts now, and the servers poll answering agents from their start.
                final ChildProcess emulator = kit.launch(Component.SNMP_EMULATOR).name("emulator")
                    .args("--scenario", scenario.toString(), "--community-env", COMMUNITY_ENV).env(COMMUNITY_ENV, community).start();
                final long timelineStartMillis = Long.parseLong(emulator.awaitReady(READY_TIMEOUT).fact("timeline_start_epoch_millis"));
                // With a rehearsal the change is the fourth step: base, rehearsal, base again, the change.
                final long changeMillis = timelineStartMillis + (rehearsal ? 3L : 1L) * stepSeconds * 1000L;
                System.out.printf(Locale.ROOT, "  emulator ready (pid %d)%n", emulator.pid());
                if (emulatorNice != 0) {
                    // Its agents stand for SNMP agents on the workstations themselves: given the CPU first, the
                    // servers compete with each other only, as on separate hosts.
                    System.out.printf(Locale.ROOT, "  emulator's threads reniced to %d: %d%n", emulatorNice, renice(emulator.pid(), emulatorNice));
                }
                for (final ScalePartition partition : partitions) {
                    final Path config = writeServerConfig(work, partition, agentLines, pollMillis);
                    final long startNanos = System.nanoTime();
                    partition.process = kit.launch(Component.SERVER).name("server-" + partition.name)
                        .args("--config", config.toString(), "--naming", corbaloc, "--metrics-port", "0", "--no-per-connection-metrics",
                            "--ior-file", work.resolve(partition.name + ".ior").toString())
                        .env(COMMUNITY_ENV, community).start();
                    partition.ready = partition.process.awaitReady(READY_TIMEOUT);
                    partition.service = LatencyServiceHelper.narrow(orb.string_to_object(partition.ready.reference("server")));
                    System.out.printf(Locale.ROOT, "  %s: %,d connections, ready in %.1f s (pid %d)%n", partition.name,
                        partition.clientOf.size(), (System.nanoTime() - startNanos) / 1e9, partition.ready.pid());
                }
                for (final ScalePartition partition : partitions) {
                    subscribe(orb, poa, partition);
                }
                final long quietStartMillis = Math.max(System.currentTimeMillis() + WARM_UP_SECONDS * 1000L,
                    rehearsal ? timelineStartMillis + 2L * stepSeconds * 1000L + REHEARSAL_SETTLE_SECONDS * 1000L : 0);
                final long quietEndMillis = changeMillis - QUIET_MARGIN_SECONDS * 1000L;
                if (quietEndMillis - quietStartMillis < MIN_QUIET_SECONDS * 1000L) {
                    throw new IllegalStateException("the servers took too long to start: " + (quietEndMillis - quietStartMillis) / 1000
                        + " s of quiet window left before the change; give a longer step (now " + stepSeconds + " s)");
                }
                System.out.printf(Locale.ROOT, "  all serving; %d s to warm up, quiet window %.0f s, the mass change %.1f s from now%n",
                    WARM_UP_SECONDS, (quietEndMillis - quietStartMillis) / 1000.0, (changeMillis - System.currentTimeMillis()) / 1000.0);

                final AtomicBoolean reading = new AtomicBoolean(true);
                final List<Thread> readers = new ArrayList<>();
                for (final ScalePartition partition : partitions) {
                    final Thread reader = new Thread(() -> readPaced(partition, reading), "reader-" + partition.name);
                    reader.setDaemon(true);
                    reader.start();
                    readers.add(reader);
                }
                // The quiet window: steady polling, nothing changing.
                sleepUntil(quietStartMillis);
                final CpuWindow quiet = CpuWindow.open(partitions, emulator.pid());
                final Map<String, PartitionsReport.Snapshot> quietStart = PartitionsReport.counters(partitions);
                partitions.forEach(p -> p.reading = p.quietReads);
                sleepUntil(quietEndMillis);
                partitions.forEach(p -> p.reading = null);
                final CpuWindow.Closed quietWindow = quiet.close();
                final Map<String, PartitionsReport.Snapshot> beforeChange = PartitionsReport.counters(partitions);

                sleepUntil(changeMillis);
                partitions.forEach(p -> p.reading = p.stormReads);
                final CpuWindow storm = CpuWindow.open(partitions, emulator.pid());
                sleepUntil(changeMillis + STORM_WINDOW_SECONDS * 1000L);
                partitions.forEach(p -> p.reading = null);
                final CpuWindow.Closed stormWindow = storm.close();
                final Map<String, PartitionsReport.Snapshot> afterChange = PartitionsReport.counters(partitions);
                reading.set(false);
                for (final Thread reader : readers) {
                    reader.join(5_000);
                }

                PartitionsReport.print(partitions, workstations, pollMillis, changeMillis, quietWindow, stormWindow, quietStart, beforeChange, afterChange);
                System.out.printf(Locale.ROOT, "load after: %s%n", loadAverage());
            } finally {
                orb.shutdown(false);
            }
        }
    }

    private static Path writeScenario(final Path work, final int workstations, final List<ScalePartition> partitions,
                                      final int stepSeconds, final boolean rehearsal) throws IOException {
        final StringBuilder storm = new StringBuilder();
        final StringBuilder rehearsed = new StringBuilder();
        final StringBuilder rehearsedBack = new StringBuilder();
        for (final ScalePartition partition : partitions) {
            final int stormCount = partition.clients * STORM_PERCENT_OF_CLIENTS / 100;
            final int last = partition.firstClient + stormCount - 1;
            storm.append(storm.length() == 0 ? "" : ", ").append("ws").append(partition.firstClient).append("..ws").append(last)
                .append(": ").append(STORM_CPU_PERCENT);
            // The rehearsal moves the next clients of the partition, never the ones the change moves and the harness follows.
            final String others = "ws" + (last + 1) + "..ws" + (last + stormCount);
            rehearsed.append(rehearsed.length() == 0 ? "" : ", ").append(others).append(": ").append(STORM_CPU_PERCENT);
            rehearsedBack.append(rehearsedBack.length() == 0 ? "" : ", ").append(others).append(": ").append(BASE_CPU_PERCENT);
        }
        final String rehearsalSteps = rehearsal
            ? "  - { cpu: { " + rehearsed + " } }\n  - { cpu: { " + rehearsedBack + " } }\n" : "";
        final Path scenario = work.resolve("scenario.yaml");
        Files.writeString(scenario, String.join("\n",
            "# PartitionsScaleHarness: a base load, then a mass change of " + STORM_PERCENT_OF_CLIENTS + " % of each partition's clients",
            "step_seconds: " + stepSeconds,
            "loop: false",
            "node_groups:",
            "  - { count: " + workstations + ", name: \"ws{n}\", first_address: 127.1.0.1, port: 16100, cores: 2 }",
            "link_groups:",
            "  - { count: " + workstations / WORKSTATIONS_PER_SWITCH_PORT + ", name: \"sw{n}\", first_address: 127.2.0.1,"
                + " port: 16100, if_index: 1, speed_mbps: 1000 }",
            "steps:",
            "  - { cpu: { \"ws*\": " + BASE_CPU_PERCENT + " }, port: { \"sw*\": " + PORT_PERCENT + " } }",
            rehearsalSteps + "  - { cpu: { " + storm + " } }",
            ""));
        return scenario;
    }

    /**
     * A partition's configuration: its client workstations (which are also its connections' peers) and
     * their switch ports, from the emulator's node list; client n's k-th connection goes to the
     * partition's workstation (n + 1 + 37k) mod its size, over client n's switch port.
     */
    private static Path writeServerConfig(final Path work, final ScalePartition partition, final List<String> agentLines,
                                          final long pollMillis) throws IOException {
        final int lastClient = partition.firstClient + partition.clients - 1;
        final int firstPort = (partition.firstClient - 1) / WORKSTATIONS_PER_SWITCH_PORT + 1;
        final int lastPort = lastClient / WORKSTATIONS_PER_SWITCH_PORT;
        final StringBuilder yaml = new StringBuilder(String.join("\n",
            "server:",
            "  name: LatencyServer",
            "  partition: " + partition.name,
            "  index_ref_scope: partition",
            "  poll_interval_millis: " + pollMillis,
            "  state_file: " + partition.name + ".state.json",
            "profiles:",
            "  - " + RepositoryFiles.locate("profiles/thesis-tac4-corba.json").toAbsolutePath(),
            "nodes:", ""));
        for (final String line : agentLines) {
            final int number = agentNumber(line, "ws");
            if (number >= partition.firstClient && number <= lastClient) {
                yaml.append(line).append('\n');
            }
        }
        yaml.append("links:\n");
        for (final String line : agentLines) {
            final int number = agentNumber(line, "sw");
            if (number >= firstPort && number <= lastPort) {
                yaml.append(line).append('\n');
            }
        }
        yaml.append("connections:\n");
        short indexRef = 0;
        for (int client = partition.firstClient; client <= lastClient; client++) {
            final int local = client - partition.firstClient;
            for (int k = 0; k < CONNECTIONS_PER_CLIENT; k++) {
                final int peer = partition.firstClient + (local + 1 + 37 * k) % partition.clients;
                indexRef++;
                partition.clientOf.put(indexRef, client);
                yaml.append("  - { index_ref: ").append(indexRef).append(", client: ws").append(client).append(", peer: ws")
                    .append(peer).append(", link: sw").append((client - 1) / WORKSTATIONS_PER_SWITCH_PORT + 1)
                    .append(", message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba, calibration: thesis,"
                        + " probe_rate_per_second: 0 }\n");
            }
        }
        final Path config = work.resolve(partition.name + ".yaml");
        Files.writeString(config, yaml);
        return config;
    }

    /** @return N of a node list line {@code "  - { name: <prefix>N, …"}, or -1 */
    private static int agentNumber(final String line, final String prefix) {
        final String start = "  - { name: " + prefix;
        if (!line.startsWith(start)) {
            return -1;
        }
        final int end = line.indexOf(',', start.length());
        try {
            return Integer.parseInt(line.substring(start.length(), end));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Subscribes to the first connections of the partition whose client goes HIGH in the change. */
    private static void subscribe(final ORB orb, final POA poa, final ScalePartition partition) throws Exception {
        final List<Short> chosen = new ArrayList<>();
        partition.clientOf.forEach((indexRef, client) -> {
            if (partition.storms(client) && chosen.size() < SUBSCRIBED_PER_PARTITION) {
                chosen.add(indexRef);
            }
        });
        final short[] refs = new short[chosen.size()];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = chosen.get(i);
        }
        final org.omg.CORBA.Object listener = poa.servant_to_reference(new EstimateListenerPOATie(estimate ->
            recordFirstHigh(partition, estimate)));
        partition.service.subscribe(EstimateListenerHelper.narrow(listener), refs);
        partition.subscribed = refs.length;
    }

    private static void recordFirstHigh(final ScalePartition partition, final Estimate estimate) {
        partition.pushesReceived.incrementAndGet();
        if (estimate.cpu_state / 10 == CPU_HIGH_CODE) {
            partition.firstHigh.putIfAbsent(estimate.index_ref, new long[] {estimate.computed_epoch_millis, System.currentTimeMillis()});
        }
    }

    /** One RequestStatus every {@link #READ_PERIOD_MICROS}, for a random connection, into whichever recorder is set. */
    private static void readPaced(final ScalePartition partition, final AtomicBoolean running) {
        final int connections = partition.clientOf.size();
        long next = System.nanoTime();
        while (running.get()) {
            next += READ_PERIOD_MICROS * 1000;
            final long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            final Recorder into = partition.reading;
            final short ref = (short) (ThreadLocalRandom.current().nextInt(connections) + 1);
            final long start = System.nanoTime();
            try {
                partition.service.RequestStatus(ref);
                if (into != null) {
                    into.recordValue(System.nanoTime() - start);
                }
            } catch (org.omg.CORBA.SystemException e) {
                partition.readErrors++;
            }
        }
    }

    /**
     * Sets the nice value of every thread of a process (on Linux a nice value is per thread; threads
     * started later inherit their starter's).
     *
     * @return how many threads were reniced
     */
    private static int renice(final long pid, final int nice) throws IOException, InterruptedException {
        final List<String> threads;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            threads = tasks.map(task -> task.getFileName().toString()).toList();
        }
        final List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        command.addAll(threads);
        final Process renice = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (renice.waitFor() != 0) {
            throw new IOException("renice " + nice + " of process " + pid + " failed (exit " + renice.exitValue() + "; it needs root for < 0)");
        }
        return threads.size();
    }

    private static void sleepUntil(final long epochMillis) throws InterruptedException {
        final long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
