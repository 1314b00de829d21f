package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.server.launch.LatencyServerNode;
import org.latencyserver.server.launch.ServerContext;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.omg.CORBA.ORB;

/**
 * What the hot standby costs a write: {@code PutMibUpdates} and {@code submit_measurement} answered
 * by a server alone (its journal) and by the primary of a pair (its journal, then the standby's
 * acknowledgement), one caller, in one run, rounds alternating between the two so that drift of the
 * machine hits both. A {@code submit_measurement} answers a request the harness opened by a load
 * change of the QoS 3 connection 4 (that change's {@code PutMibUpdates} is not timed); its record
 * carries the measured histogram, as an agent's does.
 * All three servers run in this JVM on loopback (the standby's work shares the two cores with the
 * primary's, which a second host would not).
 *
 * <p>Run from the repository root: {@code java -cp CP org.latencyserver.benchmarks.StandbyCostHarness
 * [ROUNDS] [CALLS_PER_ROUND] [MEASUREMENTS_PER_ROUND]} (defaults 6, 2000 and 200); prints p50, p99 and max
 * per call and variant.
 */
public final class StandbyCostHarness {

    /** The measured connection (QoS 3) whose requests submit_measurement answers. */
    private static final short MEASURED = 4;

    private StandbyCostHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        final int calls = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        final int measurements = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        try (TemporaryDirectory scratch = TemporaryDirectory.create("standby-cost")) {
            final Path directory = scratch.path();
            final int portA = BenchmarkPorts.free();
            final int portB = BenchmarkPorts.free();
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            try (LatencyServerNode alone = LatencyServerNode.launch(context(directory, "alone", null, 0, 0));
                 LatencyServerNode primary = LatencyServerNode.launch(context(directory, "primary", "pair", portA, portB));
                 LatencyServerNode standby = LatencyServerNode.launch(context(directory, "standby", "pair", portB, portA))) {
                final Latserv toAlone = LatservHelper.narrow(orb.string_to_object(alone.serverIor()));
                final Latserv toPrimary = LatservHelper.narrow(orb.string_to_object(primary.serverIor()));
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!primary.standbyCounters().orElseThrow().protectedWrites()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the pair was not protected within 60 s");
                    }
                    Thread.sleep(50);
                }
                final LatencyService serviceAlone = LatencyServiceHelper.narrow(toAlone);
                final LatencyService servicePrimary = LatencyServiceHelper.narrow(toPrimary);
                final Histogram aloneNanos = new Histogram(3);
                final Histogram pairNanos = new Histogram(3);
                final Histogram measurementAloneNanos = new Histogram(3);
                final Histogram measurementPairNanos = new Histogram(3);
                write(toAlone, calls, null); // warm-up
                write(toPrimary, calls, null);
                submit(serviceAlone, measurements, null);
                submit(servicePrimary, measurements, null);
                for (int round = 0; round < rounds; round++) {
                    write(toAlone, calls, aloneNanos);
                    write(toPrimary, calls, pairNanos);
                    submit(serviceAlone, measurements, measurementAloneNanos);
                    submit(servicePrimary, measurements, measurementPairNanos);
                }
                print("PutMibUpdates, alone (journal)", aloneNanos);
                print("PutMibUpdates, primary of a pair", pairNanos);
                print("submit_measurement, alone (journal)", measurementAloneNanos);
                print("submit_measurement, primary of a pair", measurementPairNanos);
                System.out.printf(Locale.ROOT, "unprotected writes on the primary: %d; records the standby applied: %d%n",
                    primary.standbyCounters().orElseThrow().unprotectedWrites(),
                    standby.standbyCounters().orElseThrow().recordsApplied());
            } finally {
                orb.shutdown(true);
            }
        }
    }

    /** PutMibUpdates, each changing the client's CPU within LOW, so every call changes the row's record. */
    private static void write(final Latserv server, final int calls, final Histogram nanos) {
        for (int i = 0; i < calls; i++) {
            final long start = System.nanoTime();
            server.PutMibUpdates(new IdlMibUpdates((short) 1, (short) (1 + i % 30), (short) 20, (short) 10), (short) 1);
            if (nanos != null) {
                nanos.recordValue(System.nanoTime() - start);
            }
        }
    }

    /**
     * submit_measurement of connection 4, each answering the request that a load change (CPU LOW/LOW to HIGH/HIGH and
     * back, untimed) opened: only the submission is timed.
     */
    private static void submit(final LatencyService service, final int measurements, final Histogram nanos) throws Exception {
        final java.util.Random random = new java.util.Random(measurements);
        for (int i = 0; i < measurements; i++) {
            final short cpuPercent = (short) (i % 2 == 0 ? 90 : 10);
            service.PutMibUpdates(new IdlMibUpdates(MEASURED, cpuPercent, cpuPercent, (short) 10), MEASURED);
            final MeasurementRequest request = awaitRequest(service);
            final MeasuredResult result = result(request, random);
            final long start = System.nanoTime();
            service.submit_measurement(result);
            if (nanos != null) {
                nanos.recordValue(System.nanoTime() - start);
            }
        }
    }

    /** @return connection 4's open request (opened by the update thread after the load change), within 10 s */
    private static MeasurementRequest awaitRequest(final LatencyService service) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (final MeasurementRequest request : service.pending_measurements()) {
                if (request.index_ref == MEASURED) {
                    return request;
                }
            }
            Thread.sleep(1);
        }
        throw new IllegalStateException("no measurement request of connection " + MEASURED + " within 10 s of a load change");
    }

    /** A 1000-round-trip result with a fine histogram, as an agent sends it (a record of about 20 KB). */
    private static MeasuredResult result(final MeasurementRequest request, final java.util.Random random) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        for (int i = 0; i < 1000; i++) {
            hdr.recordValue(150_000 + (long) (Math.abs(random.nextGaussian()) * 80_000));
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        return new MeasuredResult(request.index_ref, request.ticket,
            new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount()), hdr.getTotalCount(),
            hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6, hdr.getMaxValue() / 1e6, 20, 0, "standby-cost-harness", new double[0]);
    }

    private static void print(final String variant, final Histogram nanos) {
        System.out.printf(Locale.ROOT, "%-42s %7d calls  p50 %7.1f µs  p99 %7.1f µs  max %8.1f µs%n", variant, nanos.getTotalCount(),
            nanos.getValueAtPercentile(50) / 1e3, nanos.getValueAtPercentile(99) / 1e3, nanos.getMaxValue() / 1e3);
    }

    private static ServerContext context(final Path directory, final String name, final String pair, final int listen,
                                         final int peer) {
        ServerYaml yaml = ServerYaml.named(pair == null ? "Alone" : "Pair").stateFile(Path.of(name + ".state.json"))
            .profile(Path.of("profiles/thesis-tac4-corba.json").toAbsolutePath().normalize())
            .node(Node.of("ws1", 1, "TAC-4").with("mib_source", "push"))
            .node(Node.of("ws2", 2, "TAC-4").with("mib_source", "push"))
            .link(Link.named("atm-port").with("mib_source", "push"))
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .thresholds("cpu_hysteresis_band_percent", 0)
            .measurement("min_interval_millis", 0)
            .connection(Connection.of(MEASURED, "ws1", "ws2", 3).link("atm-port").calibration("thesis").probeRatePerSecond(0));
        if (pair != null) {
            yaml = yaml.server("standby", Map.of("listen", "127.0.0.1:" + listen, "peer", "127.0.0.1:" + peer));
        }
        return new ServerContext().configFile(yaml.writeTo(directory.resolve(name + ".yaml"))).metricsPort(ServerContext.METRICS_OFF);
    }

    /** Free ports for the pair's channels (not the ephemeral range's, which a client connection could take meanwhile). */
    private static final class BenchmarkPorts {
        static int free() {
            return org.latencyserver.testkit.FreePorts.belowEphemeralRange();
        }
    }
}
