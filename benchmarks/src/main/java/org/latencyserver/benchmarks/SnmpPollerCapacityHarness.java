package org.latencyserver.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.snmp.SnmpPoller;

/**
 * How many emulated workstations one SNMP poller keeps up with, at 10 Hz and at 1 Hz, and what it
 * costs: the snmp-emulator serves N agents (one UDP port each) in its own JVM; this JVM runs the
 * server's {@link SnmpPoller} on a configuration of N polled nodes and reports answers per second
 * against the N × rate it should get, polls skipped because an answer was still outstanding, and
 * the poller JVM's CPU time as a share of one core.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.SnmpPollerCapacityHarness [N,N,...] [SECONDS]}
 */
public final class SnmpPollerCapacityHarness {

    private SnmpPollerCapacityHarness() {
    }

    /**
     * @param args node counts (default 50,200,500) and seconds per measurement (default 10)
     * @throws Exception when a process or the poller fails
     */
    public static void main(final String[] args) throws Exception {
        final int[] counts = java.util.Arrays.stream((args.length > 0 ? args[0] : "50,200,500").split(","))
            .mapToInt(Integer::parseInt).toArray();
        final int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        final String community = "bench" + System.nanoTime();
        final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("nodes  rate  answers/s  expected/s  answered  skipped/s  poller CPU (% of one core)");
        for (final int nodes : counts) {
            try (TemporaryDirectory scratch = TemporaryDirectory.create("poller-capacity")) {
                final Path work = scratch.path();
                final int basePort = 20000 + (int) (System.nanoTime() % 10000);
                final StringBuilder scenario = new StringBuilder("step_seconds: 3600\nloop: false\nnodes:\n");
                final StringBuilder steps = new StringBuilder("steps:\n  - { cpu: { ");
                final StringBuilder config = new StringBuilder("profiles:\n  - " + RepositoryFiles.locate("profiles/thesis-tac4-corba.json")
                    .toAbsolutePath() + "\nnodes:\n");
                for (int i = 0; i < nodes; i++) {
                    scenario.append("  - { name: n").append(i).append(", port: ").append(basePort + i).append(" }\n");
                    steps.append(i == 0 ? "" : ", ").append('n').append(i).append(": 40");
                    config.append("  - { name: n").append(i).append(", node_id: ").append(i + 1)
                        .append(", workstation_type: TAC-4, mib_source: snmp, snmp: { address: udp:127.0.0.1/")
                        .append(basePort + i).append(", version: v2c, community_env: BENCH_COMMUNITY } }\n");
                }
                scenario.append(steps).append(" } }\n");
                config.append("connections:\n");
                for (int i = 0; i + 1 < nodes; i += 2) {
                    config.append("  - { index_ref: ").append(i / 2 + 1).append(", client: n").append(i).append(", peer: n")
                        .append(i + 1).append(", message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }\n");
                }
                Files.writeString(work.resolve("scenario.yaml"), scenario);
                Files.writeString(work.resolve("config.yaml"), config);
                try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                    // Ready once every agent serves: polling starts against agents that all answer.
                    kit.launch(Component.SNMP_EMULATOR).name("emulator").args("--scenario", work.resolve("scenario.yaml").toString())
                        .env("LATSERV_COMMUNITY", community).start().awaitReady(Duration.ofSeconds(60 + nodes / 10));
                    for (final long intervalMillis : new long[] {100, 1000}) {
                        final ServerConfiguration configuration = ConfigurationLoader.load(work.resolve("config.yaml"));
                        final LongAdder delivered = new LongAdder();
                        try (SnmpPoller poller = new SnmpPoller(configuration.nodes(), configuration.links(),
                            configuration.connectionSpecs(), intervalMillis, 5, Map.of("BENCH_COMMUNITY", community)::get,
                            values -> delivered.increment(), System::nanoTime)) {
                            poller.start();
                            Thread.sleep(2000);
                            final long answers0 = poller.answersReceived();
                            final long skipped0 = poller.pollsSkipped();
                            final long cpu0 = os.getProcessCpuTime();
                            final long t0 = System.nanoTime();
                            Thread.sleep(seconds * 1000L);
                            final double elapsed = (System.nanoTime() - t0) / 1e9;
                            final double answersPerSecond = (poller.answersReceived() - answers0) / elapsed;
                            final double expected = nodes * 1000.0 / intervalMillis;
                            System.out.printf(Locale.ROOT, "%5d  %2.0f Hz  %9.0f  %10.0f  %7.1f %%  %9.1f  %6.1f%n", nodes,
                                1000.0 / intervalMillis, answersPerSecond, expected, 100 * answersPerSecond / expected,
                                (poller.pollsSkipped() - skipped0) / elapsed, 100.0 * (os.getProcessCpuTime() - cpu0) / 1e9 / elapsed);
                        }
                    }
                }
            }
        }
    }

}
