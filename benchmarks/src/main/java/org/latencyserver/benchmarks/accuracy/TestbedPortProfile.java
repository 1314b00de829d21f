package org.latencyserver.benchmarks.accuracy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;

/**
 * A profile with port cells measured on the one-switch testbed, made at the start of a real-network
 * accuracy run: a testbed of its own name ({@code examples/testbed/one-switch.yaml} renamed: the same
 * 20 Mbit/s tbf toward ws2 as the demo's), a peer agent and an {@code iperf3 -s} in ws2, and
 * {@code profile measure --peer … --port-loads …} in ws1 (CPU cells from the shipped
 * {@code measured-loopback-jacorb}, which the testbed's hosts cannot drive per host), as
 * {@code PortCellsOnTestbedTest} runs it. The testbed is removed before this returns, on every path.
 *
 * <p>Not thread-safe: one measurement per instance.
 */
public final class TestbedPortProfile {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);

    private final Path root;
    private final Path directory;
    private final String testbedName;
    private final PrintStream out;

    /**
     * @param root        the repository root
     * @param directory   where the testbed's state, the logs and the profile go
     * @param testbedName the measuring testbed's name (namespaces {@code lt-NAME-*}); not the demo's
     * @param out         progress
     */
    public TestbedPortProfile(final Path root, final Path directory, final String testbedName, final PrintStream out) {
        this.root = root;
        this.directory = directory;
        this.testbedName = testbedName;
        this.out = out;
    }

    /**
     * @param profile    where to write it (its file name without {@code .json} is its name)
     * @param portLoads  e.g. "0,95,98,100"
     * @param sizes      e.g. "256,1024": the demo's connections' sizes
     * @param roundTrips recorded round trips per load and size
     * @param portTraffic the cross-traffic's shape, the profiler's {@code --port-traffic}: smooth or bursty[:PACKETS]
     * @param timeout    how long the profiler may take
     * @return the profiler's output (its table of loads)
     * @throws IOException when it fails or refuses (its output quoted)
     */
    public String measure(final Path profile, final String portLoads, final String sizes, final int roundTrips, final String portTraffic,
                          final Duration timeout)
        throws IOException, InterruptedException {
        Files.createDirectories(directory);
        final Path topology = writeTopology();
        final Path state = directory.resolve("testbed-state");
        final ProcessKit kit = ProcessKit.fromRepository(root, directory);
        try {
            out.println("port profile: building testbed " + testbedName + " (namespaces lt-" + testbedName + "-*)");
            oneShot(kit, "testbed-up", "up", "--topology", topology.toString(), "--state-dir", state.toString());
            final JsonNode status = JSON.readTree(state.resolve("status.json").toFile());
            final JsonNode ws1 = host(status, "ws1");
            final JsonNode ws2 = host(status, "ws2");
            final JsonNode sw1 = status.get("switches").get(0);
            final JsonNode port = bottleneckTowardWs2(sw1);
            final int snmpPort = status.get("snmp").get("port").asInt();
            final String ws2Address = ws2.get("address").asText();
            final String peerReference = startWs2Side(kit, ws2);
            out.printf(Locale.ROOT, "port profile: profile measure --peer (ws2) --port-loads %s --sizes %s --round-trips %d"
                + " --port-traffic %s in ws1 (log %s)%n", portLoads, sizes, roundTrips, portTraffic, directory.resolve("measure.log"));
            final long startNanos = System.nanoTime();
            final ChildProcess profiler = kit.launch(Component.PROFILER).name("measure")
                .args("measure", "--peer", peerReference,
                    "--cpu-cells-from", root.resolve("profiles/measured-loopback-jacorb.json").toString(),
                    "--port-loads", portLoads, "--sizes", sizes, "--round-trips", Integer.toString(roundTrips),
                    "--port-traffic", portTraffic,
                    "--port-snmp", "udp:" + sw1.get("management_address").asText() + "/" + snmpPort,
                    "--port-if-index", Integer.toString(port.get("if_index").asInt()),
                    "--port-speed-mbps", Integer.toString(port.get("bottleneck").get("speed_mbps").asInt()),
                    "--port-load-target", ws2Address,
                    "--peer-snmp", "udp:" + ws2.get("snmpd").get("address").asText() + "/" + snmpPort,
                    "--snmp-community-env", "TESTBED_COMMUNITY", "--out", profile.toString())
                .env("TESTBED_COMMUNITY", status.get("snmp").get("community").asText())
                .inNetworkNamespace(ws1.get("namespace").asText()).start();
            final String table = awaitTable(profiler, timeout);
            out.printf(Locale.ROOT, "port profile: wrote %s in %.0f s%n", profile, (System.nanoTime() - startNanos) / 1e9);
            return table;
        } catch (ReadinessException e) {
            throw new IOException("port profile: " + e.getMessage(), e);
        } finally {
            kit.stopAll();
            try {
                oneShot(ProcessKit.fromRepository(root, directory.resolve("down")), "testbed-down", "down", "--name", testbedName,
                    "--state-dir", state.toString());
                out.println("port profile: removed testbed " + testbedName);
            } catch (IOException | ReadinessException e) {
                out.println("port profile: removing testbed " + testbedName + " failed: " + e.getMessage());
            }
        }
    }

    /** The shipped one-switch topology under this testbed's name, in the directory. */
    private Path writeTopology() throws IOException {
        final Path topology = directory.resolve("one-switch.yaml");
        final String shipped = Files.readString(root.resolve("examples/testbed/one-switch.yaml"));
        if (!shipped.contains("\nname: one\n")) {
            throw new IOException("examples/testbed/one-switch.yaml no longer names its testbed 'one'");
        }
        Files.writeString(topology, shipped.replace("\nname: one\n", "\nname: " + testbedName + "\n"));
        return topology;
    }

    /** The switch's port toward ws2, from the testbed's status; it must have a bottleneck. */
    private static JsonNode bottleneckTowardWs2(final JsonNode sw1) throws IOException {
        JsonNode port = null;
        for (final JsonNode candidate : sw1.get("ports")) {
            if ("ws2".equals(candidate.get("name").asText())) {
                port = candidate;
            }
        }
        if (port == null || port.get("bottleneck").isNull()) {
            throw new IOException("the testbed has no bottleneck toward ws2");
        }
        return port;
    }

    /** Starts the peer agent and an {@code iperf3 -s} in ws2's namespace; returns the peer's reference. */
    private String startWs2Side(final ProcessKit kit, final JsonNode ws2) throws IOException, InterruptedException {
        final String ws2Address = ws2.get("address").asText();
        final ChildProcess peer = kit.launch(Component.PEER_AGENT).name("peer-ws2")
            .args("--name", "ws2", "--host", ws2Address, "--ior-file", directory.resolve("peer-ws2.ior").toString())
            .inNetworkNamespace(ws2.get("namespace").asText()).start();
        final String peerReference = peer.awaitReady(STEP_TIMEOUT).reference("peer");
        kit.launchProgram("iperf3-server", List.of("/usr/bin/iperf3", "-s", "-B", ws2Address))
            .inNetworkNamespace(ws2.get("namespace").asText()).start();
        return peerReference;
    }

    /**
     * Waits for the profiler to end.
     *
     * @return its table of loads
     * @throws IOException when it does not end in time or exits other than 0 (its table quoted)
     */
    private static String awaitTable(final ChildProcess profiler, final Duration timeout) throws IOException, InterruptedException {
        final int exit;
        try {
            exit = profiler.awaitExit(timeout);
        } catch (ReadinessException e) {
            throw new IOException("profile measure did not finish in " + timeout.toSeconds() + " s; see " + profiler.logFile(), e);
        }
        final String output = profiler.log().replace('\r', '\n');
        if (exit != 0) {
            throw new IOException("profile measure exited " + exit + ":\n" + tableOf(output));
        }
        return tableOf(output);
    }

    /** The profiler's output without its progress bar's lines. */
    static String tableOf(final String output) {
        return String.join("\n", output.lines().filter(line -> !line.contains("ETA") && !line.isBlank()).toList());
    }

    private static void oneShot(final ProcessKit kit, final String name, final String... args)
        throws IOException, InterruptedException, ReadinessException {
        Files.createDirectories(kit.workDirectory());
        kit.launch(Component.TESTBED).name(name).args(args).start().awaitSuccess(STEP_TIMEOUT);
    }

    private static JsonNode host(final JsonNode status, final String name) throws IOException {
        for (final JsonNode host : status.get("hosts")) {
            if (host.get("name").asText().equals(name)) {
                return host;
            }
        }
        throw new IOException("no host " + name + " in the testbed's status");
    }
}
