package org.latencyserver.benchmarks.realport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.StateCalibration;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.testbed.CommandRunner;
import org.latencyserver.testbed.LoadTarget;
import org.latencyserver.testbed.PortLoad;
import org.latencyserver.testbed.StateDirectory;
import org.latencyserver.testbed.TestbedStatus;
import org.latencyserver.testbed.Topology;
import org.latencyserver.testbed.TopologyReader;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The measuring half of {@code RealPortHarness}, run in srv's namespace (where the server, its naming
 * service and its metrics are reachable): drives the bottleneck through the load cycle (idle → 95 % →
 * overload → idle, {@code --cycles} times, each step held {@code --hold-seconds}) with the testbed's
 * {@link PortLoad}, and meanwhile reads, every {@value #SAMPLE_MILLIS} ms, the server as a client reads it
 * (plain IIOP: {@code list_connections}, {@code current_estimate}, {@code pending_measurements},
 * {@code calibration}), every {@value #COUNTER_MILLIS} ms the bottleneck qdisc's counters
 * ({@code tc -s -j qdisc} in the switch's namespace) and every second the server's metrics. Writes all of it,
 * typed, as {@link RunRecord} to {@code --out}; exit 0 when it ran to the end.
 *
 * <p>Threads: the main thread drives the load; one reads the server, one reads the counters and metrics. Each
 * appends to its own lists, handed over once both have stopped.
 */
@Command(name = "PortRun", mixinStandardHelpOptions = true, description = "Drive the testbed's bottleneck and record what the server showed.")
public final class PortRun implements Callable<Integer> {

    static final long SAMPLE_MILLIS = 100;
    static final long COUNTER_MILLIS = 250;
    private static final long METRICS_MILLIS = 1000;
    /** The connections read each sample: QoS 1 (the estimate of part 1) and the measured QoS 3 and 4. */
    static final List<Short> READ = List.of((short) 1, (short) 3, (short) 4);
    static final List<Short> MEASURED = List.of((short) 3, (short) 4);

    @Option(names = "--naming", required = true) private String naming;
    @Option(names = "--server", required = true) private String serverName;
    @Option(names = "--metrics-url", required = true) private String metricsUrl;
    @Option(names = "--testbed-state", required = true) private Path testbedState;
    @Option(names = "--port", defaultValue = "ws2") private String port;
    @Option(names = "--from", defaultValue = "srv") private String sender;
    @Option(names = "--cycles", required = true) private int cycles;
    @Option(names = "--hold-seconds", defaultValue = "15") private long holdSeconds;
    @Option(names = "--loaded-percent", defaultValue = "95") private int loadedPercent;
    @Option(names = "--overload-percent", defaultValue = "115") private int overloadPercent;
    @Option(names = "--first-measurements-seconds", defaultValue = "90",
        description = "How long to wait, idle, for QoS 3 and 4's first measurements before the first change.")
    private long firstSeconds;
    @Option(names = "--path-share-percent", required = true) private double pathSharePercent;
    @Option(names = "--settle-millis", defaultValue = "5100") private long settleMillis;
    @Option(names = "--poll-millis", defaultValue = "100") private long pollMillis;
    @Option(names = "--out", required = true) private Path out;

    private volatile boolean reading = true;
    private final List<RunRecord.Sample> samples = new ArrayList<>();
    private final Map<String, RunRecord.Request> requests = new LinkedHashMap<>();
    private final List<RunRecord.Filed> filed = new ArrayList<>();
    private final List<RunRecord.PortCounter> counters = new ArrayList<>();
    private final List<RunRecord.Metrics> metrics = new ArrayList<>();
    private final List<RunRecord.Change> changes = new ArrayList<>();
    private volatile String readError;

    /** @param args see {@code --help} */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new PortRun()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final StateDirectory state = new StateDirectory(testbedState);
        final TestbedStatus status = TestbedStatus.read(state.statusFile());
        final Topology topology = TopologyReader.load(state.root().resolve("topology.yaml")).named(status.testbed());
        final LoadTarget target = LoadTarget.of(status, topology, port, sender);
        final TestbedStatus.Switch sw = status.switches().stream().filter(s -> s.ports().stream().anyMatch(p -> p.name().equals(port)))
            .findFirst().orElseThrow(() -> new IllegalArgumentException("no switch port " + port));
        final String portInterface = sw.ports().stream().filter(p -> p.name().equals(port)).findFirst().orElseThrow().interfaceName();
        final PortLoad load = new PortLoad(state, new CommandRunner());
        Files.createDirectories(out);

        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        final LatencyService server = LatencyServiceHelper.narrow(References.resolve(orb, serverName, naming));
        final long start = System.currentTimeMillis();
        final Thread serverReader = new Thread(() -> readServer(server), "read-server");
        final Thread counterReader = new Thread(() -> readCounters(sw.namespace(), portInterface), "read-counters");
        serverReader.start();
        counterReader.start();
        int exit = 0;
        try {
            awaitFirstMeasurements();
            int current = 0;
            for (int cycle = 1; cycle <= cycles; cycle++) {
                current = change(load, target, state, cycle, current, loadedPercent);
                hold();
                current = change(load, target, state, cycle, current, overloadPercent);
                hold();
                current = change(load, target, state, cycle, current, 0);
                hold();
                System.out.printf(Locale.ROOT, "PortRun: cycle %d of %d done%n", cycle, cycles);
                System.out.flush();
            }
        } catch (InterruptedException e) {
            System.out.println("PortRun: interrupted; writing what was recorded");
            exit = 1;
        } finally {
            PortLoad.stop(state, port);
            reading = false;
            serverReader.join(5_000);
            counterReader.join(5_000);
            final long end = System.currentTimeMillis();
            final RunRecord record;
            synchronized (this) {
                record = new RunRecord(pathSharePercent, status.switches().stream().flatMap(s -> s.ports().stream())
                    .filter(p -> p.name().equals(port)).findFirst().orElseThrow().bottleneck().rateMbit(), pollMillis, settleMillis,
                    SAMPLE_MILLIS, start, end, List.copyOf(changes), List.copyOf(samples), List.copyOf(requests.values()),
                    List.copyOf(filed), List.copyOf(counters), List.copyOf(metrics));
            }
            record.write(out);
            orb.shutdown(false);
        }
        if (readError != null) {
            System.out.println("PortRun: some reads failed, the last: " + readError);
        }
        return exit;
    }

    /** Waits, idle, until QoS 3 and 4 were each served a measurement of their own (or the time is up). */
    private void awaitFirstMeasurements() throws InterruptedException {
        final long deadline = System.currentTimeMillis() + firstSeconds * 1000;
        while (System.currentTimeMillis() < deadline) {
            synchronized (this) {
                final boolean all = MEASURED.stream().allMatch(ref -> samples.stream()
                    .anyMatch(s -> s.indexRef() == ref && s.served()
                        && EstimateSource.fromWord(s.source()).orElse(null) == EstimateSource.MEASUREMENT));
                if (all) {
                    break;
                }
            }
            Thread.sleep(500);
        }
        Thread.sleep(2_000); // a little of the idle state after them
    }

    private int change(final PortLoad load, final LoadTarget target, final StateDirectory state, final int cycle, final int from,
                       final int to) throws Exception {
        if (to == 0) {
            PortLoad.stop(state, port);
        } else {
            load.start(target, to, 0);
        }
        final long at = System.currentTimeMillis();
        synchronized (this) {
            changes.add(new RunRecord.Change(cycle, from, to, at));
        }
        System.out.printf(Locale.ROOT, "PortRun: cycle %d: port %s %d %% -> %d %%%n", cycle, port, from, to);
        System.out.flush();
        return to;
    }

    private void hold() throws InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(holdSeconds));
    }

    private void readServer(final LatencyService server) {
        final Map<String, long[]> lastFiled = new HashMap<>();
        long next = System.currentTimeMillis();
        while (reading) {
            final long now = System.currentTimeMillis();
            try {
                final List<RunRecord.Sample> read = readEstimates(server, now);
                final MeasurementRequest[] pending = server.pending_measurements();
                final List<RunRecord.Filed> changed = new ArrayList<>();
                for (final short ref : MEASURED) {
                    changed.addAll(filedChanges(server, ref, lastFiled, now));
                }
                synchronized (this) {
                    samples.addAll(read);
                    filed.addAll(changed);
                    for (final MeasurementRequest r : pending) {
                        final String key = r.index_ref + "/" + r.issued_epoch_millis;
                        final RunRecord.Request seen = requests.get(key);
                        requests.put(key, new RunRecord.Request(r.index_ref, r.issued_epoch_millis,
                            seen == null ? now : seen.firstSeenMillis(), now, r.reason, r.min_interval_nanos, r.time_budget_millis,
                            r.message_size_bytes));
                    }
                }
            } catch (SystemException | UnknownConnection e) {
                readError = e.toString();
            }
            next += SAMPLE_MILLIS;
            pauseUntil(next);
        }
    }

    /** Each read connection's estimate (or why there is none) and its port state as listed, at {@code now}. */
    private static List<RunRecord.Sample> readEstimates(final LatencyService server, final long now) throws UnknownConnection {
        final Map<Short, Integer> portStates = new HashMap<>();
        for (final ConnectionInfo info : server.list_connections()) {
            portStates.put(info.index_ref, (int) info.port_state);
        }
        final List<RunRecord.Sample> read = new ArrayList<>();
        for (final short ref : READ) {
            try {
                final Estimate e = server.current_estimate(ref);
                read.add(new RunRecord.Sample(now, ref, portStates.getOrDefault(ref, -1), true, e.value_ms, e.port_state,
                    e.source, e.data_epoch_millis, e.computed_epoch_millis));
            } catch (EstimateUnavailable e) {
                read.add(new RunRecord.Sample(now, ref, portStates.getOrDefault(ref, -1), false, Double.NaN, -2, e.reason, 0, 0));
            }
        }
        return read;
    }

    /**
     * The states of connection {@code ref} whose filed measurements changed since {@code lastFiled}
     * (keys {@code ref/cpu/port}: measurements and last measured time), which is brought up to date.
     */
    private static List<RunRecord.Filed> filedChanges(final LatencyService server, final short ref,
                                                      final Map<String, long[]> lastFiled, final long now) throws UnknownConnection {
        final List<RunRecord.Filed> changed = new ArrayList<>();
        final Calibration calibration = server.calibration(ref);
        final List<String> present = new ArrayList<>();
        for (final StateCalibration s : calibration.states) {
            final String key = ref + "/" + s.cpu_state + "/" + s.port_state;
            present.add(key);
            final long[] was = lastFiled.get(key);
            if (was == null || was[0] != s.measurements || was[1] != s.last_measured_epoch_millis) {
                lastFiled.put(key, new long[] {s.measurements, s.last_measured_epoch_millis});
                changed.add(new RunRecord.Filed(now, ref, s.cpu_state, s.port_state, s.measurements,
                    s.last_measured_epoch_millis));
            }
        }
        // A state no longer listed holds nothing (a taken-back first measurement).
        for (final String key : new ArrayList<>(lastFiled.keySet())) {
            if (key.startsWith(ref + "/") && !present.contains(key) && lastFiled.get(key)[0] != 0) {
                final String[] parts = key.split("/");
                lastFiled.put(key, new long[] {0, 0});
                changed.add(new RunRecord.Filed(now, ref, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), 0, 0));
            }
        }
        return changed;
    }

    private void readCounters(final String switchNamespace, final String portInterface) {
        final ObjectMapper json = new ObjectMapper();
        final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long next = System.currentTimeMillis();
        long nextMetrics = next;
        while (reading) {
            final long now = System.currentTimeMillis();
            try {
                final Process tc = new ProcessBuilder("tc", "-n", switchNamespace, "-s", "-j", "qdisc", "show", "dev", portInterface)
                    .redirectErrorStream(true).start();
                final String text = new String(tc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                tc.waitFor();
                for (final JsonNode qdisc : json.readTree(text)) {
                    if ("tbf".equals(qdisc.path("kind").asText())) {
                        final RunRecord.PortCounter counter = new RunRecord.PortCounter(now, qdisc.path("bytes").asLong(),
                            qdisc.path("packets").asLong(), qdisc.path("drops").asLong());
                        synchronized (this) {
                            counters.add(counter);
                        }
                    }
                }
                if (now >= nextMetrics) {
                    nextMetrics += METRICS_MILLIS;
                    final String exposition = http.send(HttpRequest.newBuilder(URI.create(metricsUrl)).timeout(Duration.ofSeconds(5))
                        .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
                    final RunRecord.Metrics m = metricsOf(now, exposition);
                    synchronized (this) {
                        metrics.add(m);
                    }
                }
            } catch (IOException | IllegalArgumentException e) {
                readError = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            next += COUNTER_MILLIS;
            pauseUntil(next);
        }
    }

    /**
     * @return the two metrics the harness needs, from the server's text exposition
     * @throws IllegalArgumentException when the text is not in the format
     */
    static RunRecord.Metrics metricsOf(final long epochMillis, final String exposition) {
        final MetricsText scrape = MetricsText.parse(exposition);
        final double takenBack = scrape.value("latency_server_measurements_taken_back_total").orElse(Double.NaN);
        final Map<String, Double> refresh = new TreeMap<>();
        for (final MetricsText.Sample sample : scrape.samples("latency_server_snmp_counter_refresh_seconds")) {
            final String source = sample.labels().get("source");
            if (source != null) {
                refresh.put(source, sample.value());
            }
        }
        return new RunRecord.Metrics(epochMillis, takenBack, Collections.unmodifiableMap(refresh));
    }

    private void pauseUntil(final long epochMillis) {
        final long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                reading = false;
            }
        }
    }
}
