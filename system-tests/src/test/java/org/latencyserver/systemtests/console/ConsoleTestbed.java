package org.latencyserver.systemtests.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CORBA.ORB;

/**
 * The thesis testbed's server in its own JVM ({@code examples/thesis-testbed.yaml}: QoS 1 on
 * connections 1 and 2, QoS 2 on 3, QoS 3 on 4 and 5, QoS 4 on 6, all with {@code calibration: thesis}),
 * plus connection 7, {@value #ADAPTIVE_CONNECTION_YAML}, and connection 8, {@value #PROFILED_CONNECTION_YAML},
 * a client ORB to drive it as the SNMP emulator and the agents would, and a way to start the console as
 * a user does. The console tests' own testbed, on the system tests' kit ({@link SystemUnderTest}).
 */
final class ConsoleTestbed implements AutoCloseable {

    /** The traffic shape the testbed's probe windows say they were sent in: trains of 20 round trips 1 ms apart, arrays. */
    private static final org.latencyserver.idl.latency.TrafficShape CLASSIC_SHAPE =
        new org.latencyserver.idl.latency.TrafficShape(1_000, 20, 0, (short) 2);

    final Path directory;
    final SystemUnderTest system;
    final ORB orb;
    final Latserv latserv;
    final LatencyService service;
    final Path iorFile;

    /** The measured profile connections 3, 7 and 8 use. */
    static final String PROFILE = "measured-loopback-jacorb";
    /** Connections of the testbed: the example's six, the adaptive one and the probed QoS 2 one. */
    static final short[] CONNECTIONS = {1, 2, 3, 4, 5, 6, 7, 8};
    /** The connection added to the example: adaptive, probed, with a profile to fall back on in a state never measured. */
    static final String ADAPTIVE_CONNECTION_YAML = "{ index_ref: 7, client: lab1, peer: lab2, link: atm-port,"
        + " message_size_bytes: 256, qos: 4, bound_percent: 96, profile: measured-loopback-jacorb,"
        + " calibration: adaptive, probe_rate_per_second: 4 }";
    /**
     * The QoS 2 connection added to the example: probed, so its probe windows teach the server its
     * profile's cells (the example's QoS 2 connection 3 is not probed: the server refuses its probes).
     */
    static final String PROFILED_CONNECTION_YAML = "{ index_ref: 8, client: lab1, peer: lab2, link: atm-port,"
        + " message_size_bytes: 256, qos: 2, bound_percent: 96, profile: " + PROFILE + ","
        + " calibration: adaptive, probe_rate_per_second: 4 }";
    private static final Pattern CONNECTION_ITEM = Pattern.compile("(?m)^(\\s*- \\{ index_ref: \\d+,[^}#]*?)\\s*}");

    ConsoleTestbed(final Path directory) throws Exception {
        this.directory = directory;
        final Path config = Testbed.write(directory, "testbed.yaml",
            configuration(Files.readString(Path.of("../examples/thesis-testbed.yaml")), Testbed.PROFILES));
        system = SystemUnderTest.in(directory);
        try {
            final ReadyProcess server = system.start(system.serverLaunch("server", config).args("--metrics-port", "-1"));
            iorFile = directory.resolve("server.ior");
            orb = system.orb();
            final String ior = server.ready().reference("server");
            latserv = LatservHelper.narrow(orb.string_to_object(ior));
            service = LatencyServiceHelper.narrow(orb.string_to_object(ior));
        } catch (Exception | Error e) {
            system.close();
            throw e;
        }
    }

    /**
     * The example's configuration as the tests run it: profiles found from here, no minimum interval
     * between measurements, room for every measured connection to have its request open at once, also several
     * of one client workstation (the tests answer them in their own order, as no one client agent would), the thesis's semantics on the example's connections (as
     * the example means them) and connections 7 (adaptive QoS 4) and 8 (probed QoS 2) added.
     */
    private static String configuration(final String example, final Path profiles) {
        String yaml = replaceOnce(example, "../profiles/", profiles + "/");
        yaml = replaceOnce(yaml, "min_interval_millis: 5000", "min_interval_millis: 0");
        yaml = replaceOnce(yaml, "max_concurrent_measurements: 2", "max_concurrent_measurements: 8\n  max_open_per_client: 8");
        yaml = CONNECTION_ITEM.matcher(yaml).replaceAll(m -> Matcher.quoteReplacement(
            m.group(1).contains("calibration:") ? m.group() : m.group(1) + ", calibration: thesis }"));
        final String connections = yaml.substring(yaml.indexOf("\nconnections:"));
        if (Pattern.compile("(?m)^[A-Za-z_]+:").matcher(connections.substring(1)).results().count() != 1) {
            throw new IllegalStateException("connections: is no longer the example's last section; add connections 7 and 8 another way");
        }
        return yaml.stripTrailing() + "\n  - " + ADAPTIVE_CONNECTION_YAML + "\n  - " + PROFILED_CONNECTION_YAML + "\n";
    }

    private static String replaceOnce(final String text, final String what, final String with) {
        if (!text.contains(what)) {
            throw new IllegalStateException("examples/thesis-testbed.yaml no longer says '" + what + "'; update ConsoleTestbed");
        }
        return text.replace(what, with);
    }

    /** Pushes the same MIB values to every connection, as the emulator does. */
    void push(final int clientCpuPercent, final int peerCpuPercent, final int portPercent) {
        for (final short indexRef : CONNECTIONS) {
            latserv.PutMibUpdates(new IdlMibUpdates(indexRef, (short) clientCpuPercent, (short) peerCpuPercent,
                (short) portPercent), indexRef);
        }
    }

    /**
     * Answers the connection's open request as an agent would: 1000 round trips around 1.2 ms.
     *
     * @return the request answered
     */
    MeasurementRequest measure(final int indexRef) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        MeasurementRequest request = null;
        while (request == null && System.nanoTime() < deadline) {
            request = Stream.of(service.pending_measurements()).filter(r -> r.index_ref == indexRef).findFirst().orElse(null);
            Thread.sleep(request == null ? 50 : 0);
        }
        if (request == null) {
            throw new AssertionError("no open request for connection " + indexRef);
        }
        service.submit_measurement(new MeasuredResult((short) indexRef, request.ticket,
            new HistogramBins(new long[] {800_000, 1_000_000, 1_200_000, 1_400_000, 2_000_000, 5_000_000},
                new long[] {50, 200, 400, 250, 80, 20}, 0), 1000, 1.21, 0.42, 4.8, 20, 0, "console test",
            new double[] {1.1, 1.3, 1.2, 1.24}));
        return request;
    }

    /**
     * Reports a probe window of the connection's client agent: {@code roundTrips} round trips, all in
     * the bin (previous edge, {@code upperEdgeNanos}], as one block of the calibration.
     */
    void probe(final int indexRef, final String clientNode, final int roundTrips, final long upperEdgeNanos) throws Exception {
        service.submit_probe(new ProbeReport((short) indexRef, clientNode, "console test",
            new HistogramBins(new long[] {upperEdgeNanos / 2, upperEdgeNanos}, new long[] {0, roundTrips}, 0), roundTrips,
            upperEdgeNanos * 0.75 / 1e6, 1, CLASSIC_SHAPE));
    }

    /**
     * Reports probe windows of the connection's client agent in which every round trip took exactly
     * {@code roundTripNanos}, once the connection is in the load state {@code cpuState} (the server
     * uses a window only when the state held for the window's length, 1 ms here).
     *
     * @param cpuState the IDL's cpu_state code the connection must be in (10 × client + peer)
     */
    void probeAt(final int indexRef, final String clientNode, final int cpuState, final int windows, final int roundTripsPerWindow,
                 final long roundTripNanos) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Stream.of(service.list_connections()).noneMatch(c -> c.index_ref == indexRef && c.cpu_state == cpuState)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("connection " + indexRef + " never reached cpu_state " + cpuState);
            }
            Thread.sleep(20);
        }
        Thread.sleep(5); // the state has held longer than the window
        for (int i = 0; i < windows; i++) {
            service.submit_probe(new ProbeReport((short) indexRef, clientNode, "console test",
                new HistogramBins(new long[] {roundTripNanos / 2, roundTripNanos}, new long[] {0, roundTripsPerWindow}, 0),
                roundTripsPerWindow, roundTripNanos / 1e6, 1, CLASSIC_SHAPE));
        }
    }

    /**
     * The mean of a cell of {@link #PROFILE}, as its file says.
     *
     * @param clientCpu the cell's client CPU band, e.g. "0-33"
     * @param peerCpu   the peer's
     */
    static double profileCellMeanMillis(final String clientCpu, final String peerCpu, final int messageSizeBytes)
        throws IOException {
        final JsonNode profile = new ObjectMapper().readTree(Path.of("../profiles/" + PROFILE + ".json").toFile());
        for (final JsonNode cell : profile.get("cells")) {
            if (cell.get("cpu").get(0).asText().equals(clientCpu) && cell.get("cpu").get(1).asText().equals(peerCpu)
                && cell.get("message_size_bytes").asInt() == messageSizeBytes) {
                return cell.get("mean_ms").asDouble();
            }
        }
        throw new IllegalStateException(PROFILE + " has no cell " + clientCpu + "/" + peerCpu + " " + messageSizeBytes + " B");
    }

    /**
     * A console of this testbed's server run once, as a script runs it: its standard output alone in
     * {@code NAME.log} (what a script reads), its standard error in {@code NAME.err}.
     */
    ChildProcess consoleOnce(final String name, final String... args) throws IOException {
        final List<String> all = new ArrayList<>(List.of("--server", iorFile.toString()));
        all.addAll(List.of(args));
        return consoleOnceWith(name, all.toArray(String[]::new));
    }

    /** As {@link #consoleOnce}, with exactly these arguments. */
    ChildProcess consoleOnceWith(final String name, final String... args) throws IOException {
        return system.launchOneShot(name, Component.CONSOLE).args(args).errorsApart().start();
    }

    /**
     * Starts a web console of this testbed's server and waits for its ready file.
     *
     * @return the console's URL, from its ready file ({@code urls.console})
     */
    String webConsole(final String name, final String... args) throws IOException, InterruptedException {
        final List<String> all = new ArrayList<>(List.of("--server", iorFile.toString()));
        all.addAll(List.of(args));
        return system.start(system.launch(Component.CONSOLE).name(name).args(all)).ready().url("console");
    }

    /**
     * As {@link #webConsole}, with these environment variables (e.g. the HTTPS stores' password).
     *
     * @return the console's URL, from its ready file ({@code urls.console})
     */
    String webConsoleWith(final String name, final Map<String, String> environment, final String... args)
        throws IOException, InterruptedException {
        final List<String> all = new ArrayList<>(List.of("--server", iorFile.toString()));
        all.addAll(List.of(args));
        return system.start(system.launch(Component.CONSOLE).name(name).args(all).env(environment)).ready().url("console");
    }

    /** Stops the consoles, then the server, then the client ORB. */
    @Override
    public void close() {
        system.close();
    }
}
