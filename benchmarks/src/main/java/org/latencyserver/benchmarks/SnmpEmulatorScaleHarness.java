package org.latencyserver.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;
import org.latencyserver.benchmarks.accuracy.ProcessCpu;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.snmp.SnmpPoller;

/**
 * The snmp-emulator alone, answering the server's poller at thousands of workstations: the emulator
 * (one JVM) serves N generated workstations and N/2 switch ports, each agent on its own 127.x.y.z
 * address, and writes the server's node and link list ({@code --write-server-nodes}); this JVM adds
 * N/2 connections (workstation 2i−1 to 2i over switch port i) and runs the server's own
 * {@link SnmpPoller} on it at 1 Hz. Each size runs with the emulator's shared socket loop and, at
 * the sizes it can still handle, with a listener thread per agent as the emulator ran before.
 *
 * <p>The agents are polled by one poller, or split among P pollers as P partitions' servers would
 * poll them (the partitions harness runs four), each with its own socket, all in this JVM. Reported per run: answers
 * per second against (N + N/2) per second, polls skipped because an agent's previous answer was
 * outstanding, UDP datagrams the kernel dropped because a socket's receive buffer was full (the
 * whole machine's {@code RcvbufErrors}), the emulator's and this (the pollers') JVM's CPU time as a
 * share of one core, the emulator's threads and resident memory, and how long it took to start. Then,
 * the pollers closed, a burst: one UDP socket asks every agent at once (a hand-encoded v2c GET, no
 * SNMP4J on this side), three times, and the last round's answers and p99 and last answer time
 * are reported: what the emulator does without the poller's costs. The scenario moves 30 % of the workstations from 30 % to 85 % CPU half way through, so the
 * run also carries a mass change.
 *
 * <p>The emulator reads its sockets with one thread ({@code -Demulator.ioThreads=N} for more). The
 * poller waits {@code timeout_millis} for each answer: the server's default, 300 ms, unless a
 * fourth argument gives another (an answer later than that counts as missed).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.SnmpEmulatorScaleHarness
 * [N,N,... shared] [N,N,... thread-per-agent] [SECONDS] [P,P,... pollers] [TIMEOUT_MILLIS]}
 */
public final class SnmpEmulatorScaleHarness {
    private static final long POLL_INTERVAL_MILLIS = 1000;
    private static final int WARM_UP_SECONDS = 5;
    private static final int AGENT_PORT = 16100;
    /** The first workstation's and the first switch port's address, 127.1.0.1 and 127.2.0.1, as unsigned 32-bit values. */
    private static final long FIRST_WORKSTATION = 0x7F01_0001L;
    private static final long FIRST_SWITCH_PORT = 0x7F02_0001L;
    private static final int BURST_ROUNDS = 3;
    private static final long BURST_WAIT_MILLIS = 3000;

    private SnmpEmulatorScaleHarness() {
    }

    /** One measured run: the emulator's mode and size, and what was seen. */
    private record Result(String mode, int workstations, int switchPorts, int pollers, double answersPerSecond,
                          double expectedPerSecond, double skippedPerSecond, double droppedPerSecond, double emulatorCpuPercent,
                          double pollerCpuPercent, int emulatorThreads, long emulatorRssMiB, double startSeconds, long sourcesDown,
                          BurstRound burst) {
        String row() {
            return String.format(Locale.ROOT,
                "| %s | %,d + %,d | %d | %,.0f | %,.0f | %.1f %% | %.1f | %,.0f | %.1f | %.0f | %.1f | %d | %d | %.1f | %d | %,d, %d / %d ms |",
                mode, workstations, switchPorts, pollers, answersPerSecond, expectedPerSecond,
                100 * answersPerSecond / expectedPerSecond, skippedPerSecond, droppedPerSecond, emulatorCpuPercent,
                emulatorCpuPercent * 10_000 / expectedPerSecond, pollerCpuPercent, emulatorThreads, emulatorRssMiB, startSeconds,
                sourcesDown, burst.answered(), burst.p99Millis(), burst.lastMillis());
        }
    }

    /**
     * @param args workstation counts with the shared socket loop (default 1000,5000,10000), with a thread
     *             per agent (default 500,1000; "-" for none), seconds per measurement (default 20), how many
     *             pollers share the agents with the shared loop (default 1,4; a thread per agent has one),
     *             the pollers' timeout per request in ms (default: the server's, 300)
     * @throws Exception when a process or the poller fails
     */
    public static void main(final String[] args) throws Exception {
        final int[] shared = counts(args.length > 0 ? args[0] : "1000,5000,10000");
        final int[] threadPerAgent = counts(args.length > 1 ? args[1] : "500,1000");
        final int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        final int[] pollers = counts(args.length > 3 ? args[3] : "1,4");
        final Integer timeoutMillis = args.length > 4 ? Integer.valueOf(args[4]) : null;
        System.out.println("uptime before: " + uptime() + "; poller timeout per request: "
            + (timeoutMillis == null ? "the server's default" : timeoutMillis + " ms"));
        System.out.println("| emulator | workstations + switch ports | pollers | answers/s | expected/s | answered | skipped/s"
            + " | UDP receive-buffer drops/s | emulator CPU (% of one core) | emulator CPU per request (µs)"
            + " | pollers' CPU (% of one core) | emulator threads | emulator RSS (MiB) | emulator start (s)"
            + " | sources UNKNOWN at the end | burst: answered, p99 / last answer |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (final int n : threadPerAgent) {
            System.out.println(measure(n, true, 1, seconds, timeoutMillis).row());
        }
        for (final int n : shared) {
            for (final int p : pollers) {
                System.out.println(measure(n, false, p, seconds, timeoutMillis).row());
            }
        }
        System.out.println("uptime after: " + uptime());
    }

    private static int[] counts(final String list) {
        return "-".equals(list) ? new int[0] : Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static Result measure(final int workstations, final boolean threadPerAgent, final int pollerCount,
                                  final int seconds, final Integer timeoutMillis) throws Exception {
        final int switchPorts = workstations / 2;
        final int agents = workstations + switchPorts;
        final String community = "bench" + System.nanoTime();
        try (TemporaryDirectory scratch = TemporaryDirectory.create("emulator-scale")) {
            final Path work = scratch.path();
            writeScenario(work.resolve("scenario.yaml"), workstations, switchPorts, seconds);
            final Path nodes = work.resolve("server-nodes.yaml");
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                final long launchNanos = System.nanoTime();
                final ChildProcess emulator = startEmulator(kit, work.resolve("scenario.yaml"), nodes, community, threadPerAgent);
                emulator.awaitReady(Duration.ofSeconds(120 + agents / 50));
                final double startSeconds = (System.nanoTime() - launchNanos) / 1e9;
                final ServerConfiguration configuration = serverConfiguration(work, nodes, timeoutMillis, switchPorts);
                final com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                final List<SnmpPoller> pollers = new ArrayList<>();
                try {
                    addPollers(pollers, configuration, pollerCount, switchPorts, community);
                    for (final SnmpPoller poller : pollers) {
                        poller.start();
                    }
                    Thread.sleep(WARM_UP_SECONDS * 1000L);
                    final long answers0 = sum(pollers, SnmpPoller::answersReceived);
                    final long skipped0 = sum(pollers, SnmpPoller::pollsSkipped);
                    final long dropped0 = receiveBufferErrors();
                    final long pollerCpu0 = os.getProcessCpuTime();
                    final OptionalLong emulatorCpu0 = ProcessCpu.cpuNanos(emulator.pid());
                    final long t0 = System.nanoTime();
                    Thread.sleep(seconds * 1000L);
                    final double elapsed = (System.nanoTime() - t0) / 1e9;
                    final OptionalLong emulatorCpu1 = ProcessCpu.cpuNanos(emulator.pid());
                    final double emulatorCpu = emulatorCpu0.isPresent() && emulatorCpu1.isPresent()
                        ? 100.0 * (emulatorCpu1.getAsLong() - emulatorCpu0.getAsLong()) / 1e9 / elapsed : Double.NaN;
                    final long down = pollers.stream().mapToLong(p -> p.sourcesUp().values().stream().filter(up -> !up).count()).sum();
                    pollers.forEach(SnmpPoller::close);
                    final BurstRound burst = burst(workstations, switchPorts, community);
                    return new Result(threadPerAgent ? "thread per agent (before)" : "shared socket loop", workstations, switchPorts,
                        pollerCount, (sum(pollers, SnmpPoller::answersReceived) - answers0) / elapsed,
                        agents * 1000.0 / POLL_INTERVAL_MILLIS, (sum(pollers, SnmpPoller::pollsSkipped) - skipped0) / elapsed,
                        (receiveBufferErrors() - dropped0) / elapsed, emulatorCpu,
                        100.0 * (os.getProcessCpuTime() - pollerCpu0) / 1e9 / elapsed, (int) ServerProbe.statusKib(emulator.pid(), "Threads:"),
                        ServerProbe.statusKib(emulator.pid(), "VmRSS:") / 1024, startSeconds, down, burst);
                } finally {
                    pollers.forEach(SnmpPoller::close);
                }
            }
        }
    }

    /** The scenario: every agent at a steady load, then a mass change half way through the measurement. */
    private static void writeScenario(final Path file, final int workstations, final int switchPorts, final int seconds)
        throws IOException {
        // The mass change comes half way through the measurement (after the warm-up and the start).
        Files.writeString(file, String.join("\n",
            "step_seconds: " + (WARM_UP_SECONDS + 30 + seconds / 2),
            "loop: false",
            "node_groups:",
            "  - { count: " + workstations + ", name: \"ws{n}\", first_address: 127.1.0.1, port: 16100 }",
            "link_groups:",
            "  - { count: " + switchPorts + ", name: \"sw{n}\", first_address: 127.2.0.1, port: 16100, if_index: 1, speed_mbps: 1000 }",
            "steps:",
            "  - { cpu: { \"ws*\": 30 }, port: { \"sw*\": 40 } }",
            "  - { cpu: { ws1..ws" + Math.max(1, workstations * 3 / 10) + ": 85 } }",
            ""));
    }

    /** Starts the emulator on the scenario; it writes the server's nodes and links to {@code nodes}. */
    private static ChildProcess startEmulator(final ProcessKit kit, final Path scenario, final Path nodes, final String community,
                                              final boolean threadPerAgent) throws IOException {
        final List<String> emulatorArgs = new ArrayList<>(List.of("--scenario", scenario.toString(),
            "--community-env", "BENCH_COMMUNITY", "--write-server-nodes", nodes.toString()));
        if (threadPerAgent) {
            emulatorArgs.add("--thread-per-agent");
        } else {
            emulatorArgs.addAll(List.of("--io-threads", Integer.toString(Integer.getInteger("emulator.ioThreads", 1))));
        }
        final ProcessKit.Launch launch = kit.launch(Component.SNMP_EMULATOR).name("emulator").args(emulatorArgs)
            .env("BENCH_COMMUNITY", community);
        // e.g. -Demulator.jvmOption=-XX:StartFlightRecording=filename=emulator.jfr to see where its time goes
        final String jvmOption = System.getProperty("emulator.jvmOption");
        if (jvmOption != null) {
            launch.jvmOption(jvmOption);
        }
        return launch.start();
    }

    /** The server's configuration: the emulator's nodes and links, and a connection ws(2i-1), ws(2i) over sw(i). */
    private static ServerConfiguration serverConfiguration(final Path work, final Path nodes, final Integer timeoutMillis,
                                                           final int switchPorts) throws Exception {
        final String polled = timeoutMillis == null ? Files.readString(nodes)
            : Files.readString(nodes).replace("version: v2c", "timeout_millis: " + timeoutMillis + ", version: v2c");
        final StringBuilder config = new StringBuilder(polled)
            .append("profiles:\n  - ").append(RepositoryFiles.locate("profiles/thesis-tac4-corba.json").toAbsolutePath())
            .append("\nconnections:\n");
        for (int i = 1; i <= switchPorts; i++) {
            config.append("  - { index_ref: ").append(i).append(", client: ws").append(2 * i - 1).append(", peer: ws")
                .append(2 * i).append(", link: sw").append(i).append(", message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba,"
                + " probe_rate_per_second: 0 }\n");
        }
        Files.writeString(work.resolve("config.yaml"), config);
        return ConfigurationLoader.load(work.resolve("config.yaml"));
    }

    /**
     * Adds {@code pollerCount} pollers (not started) to {@code pollers}, each taking a contiguous share
     * of the connections and their agents; each is added as soon as it is made, so that the caller closes it.
     */
    private static void addPollers(final List<SnmpPoller> pollers, final ServerConfiguration configuration, final int pollerCount,
                                   final int switchPorts, final String community) throws IOException {
        for (int p = 0; p < pollerCount; p++) {
            // Connection i (1-based) joins ws(2i-1), ws(2i) and sw(i): partition p takes a contiguous share.
            final int partition = p;
            final IntPredicate mine = i -> (long) i * pollerCount / switchPorts == partition; // i: 0-based connection
            pollers.add(new SnmpPoller(
                IntStream.range(0, configuration.nodes().size()).filter(k -> mine.test(k / 2))
                    .mapToObj(configuration.nodes()::get).toList(),
                IntStream.range(0, configuration.links().size()).filter(mine).mapToObj(configuration.links()::get).toList(),
                IntStream.range(0, configuration.connectionSpecs().size()).filter(mine)
                    .mapToObj(configuration.connectionSpecs()::get).toList(),
                POLL_INTERVAL_MILLIS, 5, Map.of("BENCH_COMMUNITY", community)::get, values -> { }, System::nanoTime));
        }
    }

    /** One burst: how many of its requests were answered within {@link #BURST_WAIT_MILLIS}, and when (from its first request). */
    private record BurstRound(int answered, long p99Millis, long lastMillis) {
    }

    /**
     * The emulator alone, without the poller's costs: one socket sends a v2c GET of sysUpTime to every
     * agent at once and counts the answers. {@link #BURST_ROUNDS} rounds a second apart (the first
     * warms the JIT); the last is reported.
     */
    private static BurstRound burst(final int workstations, final int switchPorts, final String community) throws Exception {
        final byte[] name = community.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        BurstRound round = null;
        try (java.nio.channels.DatagramChannel channel = java.nio.channels.DatagramChannel.open()) {
            channel.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 16 << 20);
            channel.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            final int agents = workstations + switchPorts;
            for (int r = 0; r < BURST_ROUNDS; r++) {
                final long t0 = System.nanoTime();
                for (int i = 0; i < agents; i++) {
                    final long address = i < workstations ? FIRST_WORKSTATION + i : FIRST_SWITCH_PORT + i - workstations;
                    channel.send(getSysUpTime(name, i + 1), new java.net.InetSocketAddress(java.net.InetAddress.getByAddress(
                        new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address}),
                        AGENT_PORT));
                }
                final long[] answeredNanos = new long[agents];
                int answered = 0;
                final java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(2048);
                final long deadline = t0 + BURST_WAIT_MILLIS * 1_000_000L;
                while (answered < agents && System.nanoTime() < deadline) {
                    in.clear();
                    if (channel.receive(in) != null) {
                        answeredNanos[answered++] = System.nanoTime() - t0;
                    } else {
                        Thread.sleep(0, 100_000);
                    }
                }
                Arrays.sort(answeredNanos, 0, answered);
                round = new BurstRound(answered, answered == 0 ? -1 : answeredNanos[(int) (answered * 0.99)] / 1_000_000,
                    answered == 0 ? -1 : answeredNanos[answered - 1] / 1_000_000);
                Thread.sleep(1000);
            }
        }
        return round;
    }

    /** @return an SNMPv2c GET of sysUpTime.0 with this community and request ID (BER, short lengths) */
    private static java.nio.ByteBuffer getSysUpTime(final byte[] community, final int requestId) {
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
        b.put((byte) 0x30).put((byte) (35 + community.length)).put(new byte[] {2, 1, 1, 4, (byte) community.length}).put(community);
        b.put(new byte[] {(byte) 0xA0, 0x1C, 2, 4}).putInt(requestId);
        b.put(new byte[] {2, 1, 0, 2, 1, 0, 0x30, 0x0E, 0x30, 0x0C, 6, 8, 0x2B, 6, 1, 2, 1, 1, 3, 0, 5, 0});
        return b.flip();
    }

    private static long sum(final List<SnmpPoller> pollers, final ToLongFunction<SnmpPoller> counter) {
        return pollers.stream().mapToLong(counter).sum();
    }

    /** @return the kernel's count of UDP datagrams dropped for a full receive buffer, machine-wide ({@code /proc/net/snmp}), or 0 */
    private static long receiveBufferErrors() {
        try {
            final List<String> udp = Files.readAllLines(Path.of("/proc/net/snmp")).stream().filter(l -> l.startsWith("Udp:")).toList();
            final List<String> names = List.of(udp.get(0).split("\\s+"));
            return Long.parseLong(udp.get(1).split("\\s+")[names.indexOf("RcvbufErrors")]);
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private static String uptime() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim() + " (1, 5, 15 min load averages; runnable/total; last pid)";
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
