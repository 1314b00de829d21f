package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerOperations;
import org.latencyserver.idl.latency.EstimateListenerPOATie;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The server in its own JVM, called over real loopback sockets by a client that uses only the
 * thesis's {@code Latserv} stubs (and, where said, the extended interface).
 */
class LatencyServerProcessTest {

    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);

    @TempDir
    static Path directory;
    private static SystemUnderTest system;
    private static ServerUnderTest server;
    private static ORB orb;
    private static Latserv latserv;
    private static LatencyService service;

    @BeforeAll
    static void startServer() throws Exception {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final Path config = directory.resolve("testbed.yaml");
        Files.writeString(config, Files.readString(Path.of("../examples/thesis-testbed.yaml"))
            .replace("../profiles/", profiles + "/")
            .replace("timeout_millis: 30000", "timeout_millis: 3000")
            .replace("min_interval_millis: 5000", "min_interval_millis: 0"));
        system = SystemUnderTest.in(directory);
        server = system.server(config);
        orb = system.orb();
        latserv = LatservHelper.narrow(orb.string_to_object(server.ior()));
        service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));
    }

    @AfterAll
    static void stopServer() {
        if (system != null) {
            system.close();
        }
    }

    private static void push(final int indexRef, final int clientCpu, final int peerCpu, final int port) {
        latserv.PutMibUpdates(new IdlMibUpdates((short) indexRef, (short) clientCpu, (short) peerCpu, (short) port),
            (short) indexRef);
    }

    /**
     * Serves a listener on the client ORB that puts each estimate pushed to it into the queue, and
     * runs the ORB on a daemon thread of that name so that the pushes are answered.
     */
    private static EstimateListener listenInto(final BlockingQueue<Estimate> received, final String orbThreadName)
        throws Exception {
        final POA poa = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        final EstimateListenerOperations listener = received::add;
        final org.omg.CORBA.Object reference = poa.servant_to_reference(new EstimateListenerPOATie(listener));
        final Thread orbThread = new Thread(orb::run, orbThreadName);
        orbThread.setDaemon(true);
        orbThread.start();
        return EstimateListenerHelper.narrow(reference);
    }

    @Test
    void thesisClientPushesMibValuesAndReadsTheQos1EstimateWithItsInterval() throws Exception {
        push(1, 10, 80, 50);
        final IdlStatusToClient status = latserv.RequestStatus((short) 1);
        assertEquals(1, status.index_ref);
        assertEquals(1, status.quality);
        assertEquals(1, status.server_acknowledges_client, server.log());
        // Appendix A, TAC-4 CORBA 256 B, 0-33 % / 67-100 %: 2.386 ms; CI with s = 5 ms, n = 10,000.
        assertEquals(2.386f, status.latency_estimate);
        assertEquals((float) (2.386 - Z * 0.05), status.lower_bound_estimate, 1e-5);
        assertEquals((float) (2.386 + Z * 0.05), status.upper_bound_estimate, 1e-5);
        assertEquals(0, status.update_required_flag);
    }

    @Test
    void tableStatusShowsCurrentAndPreviousMibValuesAndStates() {
        push(2, 20, 20, 40);
        push(2, 50, 90, 96);
        final TableRow row = latserv.RequestTableStatus((short) 2);
        assertEquals(2, row.index_ref);
        assertEquals(3, row.client_workstation_type, "TAC-3");
        assertEquals(1024, row.message_size);
        assertEquals(50, row.latest_client_mib_cpu);
        assertEquals(90, row.latest_peer_mib_cpu);
        assertEquals(96, row.latest_mib_port);
        assertEquals(20, row.previous_client_mib_cpu);
        assertEquals(20, row.previous_peer_mib_cpu);
        assertEquals(40, row.previous_mib_port);
        assertEquals(23, row.cpu_state, "client MEDIUM, peer HIGH");
        assertEquals(96, row.port_state, "loaded at 96 %");
        // Appendix A TAC-3 CORBA 1 KB 34-66/67-100 plus the thesis queue model at 96 %: 1/(1-0.5) = 2 ms.
        assertEquals(row.latency_estimate, latserv.RequestStatus((short) 2).latency_estimate);
    }

    @Test
    void unknownConnectionIsNotAcknowledgedAndBadMibValuesAreRefused() {
        final IdlStatusToClient status = latserv.RequestStatus((short) 99);
        assertEquals(99, status.index_ref);
        assertEquals(0, status.server_acknowledges_client);
        assertThrows(BAD_PARAM.class, () -> push(99, 10, 10, 10));
        assertThrows(BAD_PARAM.class, () -> push(1, 150, 10, 10));
        assertThrows(BAD_PARAM.class, () -> latserv.PutMibUpdates(
            new IdlMibUpdates((short) 2, (short) 10, (short) 10, (short) 10), (short) 1));
        final UnknownConnection unknown = assertThrows(UnknownConnection.class, () -> service.current_estimate((short) 99));
        assertTrue(unknown.reason.contains("99"), unknown.reason);
    }

    @Test
    void qos3FlagRisesOnAStateChangeAndOnlyTheOpenTicketLowersIt() throws Exception {
        push(4, 50, 50, 10);
        assertEquals(1, latserv.RequestStatus((short) 4).update_required_flag);
        final MeasurementRequest request = pendingFor(4);
        assertEquals(1000, request.round_trips);
        assertEquals(256, request.message_size_bytes);
        final ResultRefused forged = assertThrows(ResultRefused.class,
            () -> service.submit_measurement(result(4, request.ticket ^ 0x5a5a, 1.46)));
        assertTrue(forged.reason.contains("not the open ticket"), forged.reason);
        assertEquals(1, latserv.RequestStatus((short) 4).update_required_flag);
        service.submit_measurement(result(4, request.ticket, 1.46));
        final IdlStatusToClient status = latserv.RequestStatus((short) 4);
        assertEquals(0, status.update_required_flag);
        assertEquals(1, status.server_acknowledges_client);
        assertEquals(1.46f, status.latency_estimate);
        final ResultRefused again = assertThrows(ResultRefused.class, () -> service.submit_measurement(result(4, request.ticket, 1.46)));
        assertTrue(again.reason.contains("no measurement is pending"), again.reason);
    }

    @Test
    void qos3OffersABatchMeansIntervalFromTheAgentsBatchesAndRefusesImpossibleOnesKeepingTheRequestOpen() throws Exception {
        push(4, 20, 90, 10);
        final MeasurementRequest request = pendingFor(4);
        final MeasuredResult impossible = result(4, request.ticket, 1.3);
        impossible.batch_means_ms = new double[] {1.2, 3.5}; // above the run's 2.9 ms maximum
        final ResultRefused refused = assertThrows(ResultRefused.class, () -> service.submit_measurement(impossible));
        assertTrue(refused.reason.contains("batch mean 2"), refused.reason);
        assertEquals(1, latserv.RequestStatus((short) 4).update_required_flag);
        final MeasuredResult batched = result(4, request.ticket, 1.3);
        batched.batch_means_ms = new double[] {1.0, 1.1, 1.5, 1.6};
        service.submit_measurement(batched);
        final Estimate estimate = service.current_estimate((short) 4);
        final var batchMeans = java.util.Arrays.stream(estimate.alternatives).filter(a -> a.method.startsWith("batch means"))
            .findFirst().orElseThrow(() -> new AssertionError("no batch-means interval among the alternatives"));
        assertEquals("ms", batchMeans.unit);
        assertTrue(batchMeans.lower < 1.3 && batchMeans.upper > 1.3, batchMeans.lower + ".." + batchMeans.upper);
        // four batches that disagree this much make a wider interval than Eq. 1 from s = 0.6 ms over 1000
        assertTrue(batchMeans.upper - batchMeans.lower > estimate.interval.upper - estimate.interval.lower);
    }

    @Test
    void aLateResultIsRefusedAndTheRequestIsReissuedWithANewTicket() throws Exception {
        push(6, 80, 80, 10);
        final MeasurementRequest first = pendingFor(6);
        Thread.sleep(3_500);
        final ResultRefused late = assertThrows(ResultRefused.class, () -> service.submit_measurement(result(6, first.ticket, 2.0)));
        assertTrue(late.reason.contains("late") || late.reason.contains("superseded"), late.reason);
        final MeasurementRequest second = pendingFor(6);
        assertTrue(second.ticket != first.ticket, "re-issued with a new ticket");
        service.submit_measurement(result(6, second.ticket, 2.0));
        final IdlStatusToClient status = latserv.RequestStatus((short) 6);
        assertEquals(4, status.quality);
        assertEquals(0, status.update_required_flag);
        // 500 + 460 = 960 of 1000 round trips lie at or below 2 ms: exactly the ceil(0.96 n) the bound needs.
        assertEquals(2.0f, status.latency_estimate);
        final double halfWidthPercent = 100 * Z * Math.sqrt(0.96 * 0.04 / 1000);
        assertEquals((float) (96 - halfWidthPercent), status.lower_bound_estimate, 1e-3, "Eq. 3 interval, in percent");
        assertEquals((float) (96 + halfWidthPercent), status.upper_bound_estimate, 1e-3);
    }

    @Test
    void qos2StyleCallsOnTheThesisProfilesAreRefusedWithTheReason() {
        push(1, 10, 10, 10);
        final EstimateUnavailable error = assertThrows(EstimateUnavailable.class,
            () -> service.estimate_at_percentile((short) 1, 96));
        assertTrue(error.reason.contains("no latency histograms"), error.reason);
    }

    @Test
    void aSubscriberGetsEachChangeOnceAndInOrder() throws Exception {
        final BlockingQueue<Estimate> received = new LinkedBlockingQueue<>();
        final EstimateListener listener = listenInto(received, "client-orb");
        push(1, 50, 50, 10); // a known state before subscribing, whatever other tests left
        final long id = service.subscribe(listener, new short[] {1});
        push(1, 10, 10, 10);
        push(1, 50, 10, 10);
        push(1, 80, 10, 10);
        push(1, 80, 10, 10); // no state change: nothing to deliver
        final double[] expected = {1.365, 2.066, 2.386};
        final double[] got = new double[3];
        for (int i = 0; i < 3; i++) {
            final Estimate estimate = received.poll(10, TimeUnit.SECONDS);
            assertTrue(estimate != null, "change " + i + " not delivered");
            got[i] = estimate.value_ms;
        }
        assertArrayEquals(expected, got, 1e-9);
        assertEquals(null, received.poll(500, TimeUnit.MILLISECONDS), "each change once");
        service.unsubscribe(id);
    }

    @Test
    void metricsShowEstimatesStatesAndCallCountsInThePrometheusTextFormat() throws Exception {
        push(1, 50, 50, 10);
        latserv.RequestStatus((short) 1);
        final java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.metricsUrl())).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        final String body = response.body();
        final org.latencyserver.testkit.MetricsText scrape = org.latencyserver.testkit.MetricsText.scrape(server.metricsUrl());
        assertEquals(2.846e-3, scrape.get("latency_server_estimate_seconds", "index_ref", "1", "kind", "average", "qos", "1"), 1e-12);
        assertTrue(body.contains("latency_server_cpu_state{index_ref=\"1\"} 22"), body);
        assertTrue(body.matches("(?s).*latency_server_calls_total\\{operation=\"RequestStatus\"\\} [1-9].*"), body);
        assertTrue(body.matches("(?s).*latency_server_calls_total\\{operation=\"PutMibUpdates\"\\} [1-9].*"), body);
    }

    @Test
    void aKilledSubscriberIsDroppedWhileOthersAndRequestStatusCarryOn() throws Exception {
        final Path marker = directory.resolve("subscribed");
        final Path iorFile = directory.resolve("server.ior");
        final ChildProcess doomed = system.launchClass("subscriber", SubscriberMain.class)
            .args(iorFile.toString(), marker.toString()).start();
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(marker) && doomed.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(marker), "the subscriber process did not subscribe");
        doomed.kill(); // kill -9

        final BlockingQueue<Estimate> received = new LinkedBlockingQueue<>();
        final EstimateListener listener = listenInto(received, "client-orb-2");
        push(2, 50, 50, 10);
        final long id = service.subscribe(listener, new short[] {2});
        final int[][] loads = {{10, 10}, {50, 10}, {80, 10}, {80, 80}};
        for (final int[] load : loads) {
            push(2, load[0], load[1], 10);
            assertEquals(1, latserv.RequestStatus((short) 2).server_acknowledges_client, "RequestStatus answers meanwhile");
        }
        for (int i = 0; i < loads.length; i++) {
            assertTrue(received.poll(10, TimeUnit.SECONDS) != null, "the live subscriber missed change " + i);
        }
        final long dropDeadline = System.nanoTime() + 15_000_000_000L;
        while (!server.log().contains("dropping subscriber") && System.nanoTime() < dropDeadline) {
            Thread.sleep(100);
        }
        assertTrue(server.log().contains("dropping subscriber"), server.log());
        service.unsubscribe(id);
    }

    @Test
    void aBadProfileIsRefusedWithEveryFaultAndTheOldOneKeepsServing() throws Exception {
        push(1, 10, 10, 10);
        final float served = latserv.RequestStatus((short) 1).latency_estimate;
        final String good = Files.readString(Path.of("../profiles/thesis-tac4-corba.json"));
        final org.latencyserver.idl.latency.ProfileRejected rejected = assertThrows(
            org.latencyserver.idl.latency.ProfileRejected.class,
            () -> service.load_profile(good.replace("\"mean_ms\" : 1.365", "\"mean_ms\" : -1").replace("\"layer\" : \"CORBA\"",
                "\"layer\" : \"X\""), "broken-upload.json"));
        assertEquals(2, rejected.faults.length, String.join("\n", rejected.faults));
        // Each fault names the upload, where in it (line:column, since the location-aware reader) and the field.
        assertTrue(rejected.faults[0].matches("broken-upload\\.json:\\d+:\\d+: layer: .*"), rejected.faults[0]);
        assertEquals(served, latserv.RequestStatus((short) 1).latency_estimate, "the old profile still serves");
        // A corrected profile is swapped in atomically and the QoS 1 connections recompute at once.
        final org.latencyserver.idl.latency.ProfileSummary summary = service.load_profile(
            good.replace("\"mean_ms\" : 1.365", "\"mean_ms\" : 1.5"), "corrected.json");
        assertEquals("thesis-tac4-corba", summary.name);
        assertEquals(1.5f, latserv.RequestStatus((short) 1).latency_estimate);
        assertTrue(List.of(service.list_profiles()).stream().anyMatch(p -> p.name.equals("thesis-tac3-corba")));
        service.load_profile(good, "restored.json");
    }

    private static MeasurementRequest pendingFor(final int indexRef) {
        final List<MeasurementRequest> pending = List.of(service.pending_measurements());
        return pending.stream().filter(r -> r.index_ref == indexRef).findFirst()
            .orElseThrow(() -> new AssertionError("no pending request for " + indexRef + " in " + pending.size()));
    }

    /** 1000 round trips: 500 in (0, 1] ms, 460 in (1, 2], 40 in (2, 3]. */
    private static MeasuredResult result(final int indexRef, final long ticket, final double meanMillis) {
        final HistogramBins bins = new HistogramBins(new long[] {1_000_000, 2_000_000, 3_000_000}, new long[] {500, 460, 40}, 0);
        return new MeasuredResult((short) indexRef, ticket, bins, 1000, meanMillis, 0.6, 2.9, 20, 0, "test agent", new double[0]);
    }
}
