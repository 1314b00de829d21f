package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CORBA.ORB;

/** Kill -9 the server and start it again: what it served (and acknowledged) before, it serves again. */
class ServerRestartTest {

    @TempDir
    static Path directory;
    private static Path config;
    private static ORB orb;

    @BeforeAll
    static void writeConfiguration() throws Exception {
        config = Testbed.write(directory, "testbed.yaml", Testbed.text().replace("min_interval_millis: 5000", "min_interval_millis: 0"));
        orb = org.latencyserver.orb.OrbSupport.init(new String[0], org.latencyserver.orb.OrbSupport.properties("127.0.0.1", 0, 10_000));
    }

    @AfterAll
    static void stopOrb() {
        orb.shutdown(false);
    }

    @Test
    void estimatesServedBeforeAKillAreServedAgainAfterARestart() throws Exception {
        final IdlStatusToClient[] before = new IdlStatusToClient[7];
        final TableRow tableBefore;
        try (SystemUnderTest system = SystemUnderTest.in(directory); ServerUnderTest server = system.server(config)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(server.ior()));
            final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));
            push(latserv, 1, 10, 80, 50);
            push(latserv, 2, 20, 20, 40);
            push(latserv, 2, 50, 90, 96);
            push(latserv, 4, 50, 50, 10);
            final MeasurementRequest request = Stream.of(service.pending_measurements())
                .filter(r -> r.index_ref == 4).findFirst().orElseThrow();
            service.submit_measurement(new MeasuredResult((short) 4, request.ticket,
                new HistogramBins(new long[] {1_000_000, 2_000_000}, new long[] {700, 300}, 0), 1000, 1.21, 0.4, 1.98, 20, 0, "test",
                new double[] {1.1, 1.3, 1.2, 1.24}));
            push(latserv, 6, 80, 80, 10); // QoS 4 left waiting for a measurement
            for (final int ref : new int[] {1, 2, 4, 6}) {
                before[ref] = latserv.RequestStatus((short) ref);
            }
            tableBefore = latserv.RequestTableStatus((short) 2);
            // No waiting for a save: every write above was answered only once it was in the journal.
            server.kill();
        }
        try (SystemUnderTest system = SystemUnderTest.in(directory); ServerUnderTest restarted = system.server(config)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(restarted.ior()));
            for (final int ref : new int[] {1, 2, 4}) {
                final IdlStatusToClient after = latserv.RequestStatus((short) ref);
                assertEquals(1, after.server_acknowledges_client, "connection " + ref + "\n" + restarted.log());
                assertEquals(before[ref].latency_estimate, after.latency_estimate, "connection " + ref);
                assertEquals(before[ref].lower_bound_estimate, after.lower_bound_estimate, "connection " + ref);
                assertEquals(before[ref].upper_bound_estimate, after.upper_bound_estimate, "connection " + ref);
                assertEquals(0, after.update_required_flag);
            }
            final TableRow tableAfter = latserv.RequestTableStatus((short) 2);
            assertEquals(tableBefore.latest_mib_port, tableAfter.latest_mib_port);
            assertEquals(tableBefore.previous_mib_port, tableAfter.previous_mib_port);
            assertEquals(tableBefore.cpu_state, tableAfter.cpu_state);
            assertEquals(tableBefore.port_state, tableAfter.port_state);
            assertEquals(1, latserv.RequestStatus((short) 6).update_required_flag, "the awaited measurement is re-issued");
            assertEquals(1, latserv.RequestTableStatus((short) 4).latency_data_provided, "the measured histogram survived");
            final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(restarted.ior()));
            assertTrue(Stream.of(service.current_estimate((short) 4).alternatives).anyMatch(a -> a.method.startsWith("batch means (4")),
                "the batch-means interval survived");
            final JsonNode saved = new ObjectMapper().readTree(directory.resolve("thesis-testbed.state.json").toFile());
            assertTrue(saved.toString().contains("\"batch_means_ms\":[1.1,1.3,1.2,1.24]"), "the batch means are kept with the measurement");
        }
    }

    @Test
    void aProfileLoadedByAPlannerServesAgainAfterARestart() throws Exception {
        final Path plannerDirectory = Files.createDirectories(directory.resolve("planner"));
        final Path plannerConfig = plannerDirectory.resolve("testbed.yaml");
        Files.copy(config, plannerConfig);
        final String configured = Files.readString(Path.of("../profiles/thesis-tac4-corba.json"));
        try (SystemUnderTest system = SystemUnderTest.in(plannerDirectory); ServerUnderTest server = system.server(plannerConfig)) {
            final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));
            service.load_profile(configured.replace("\"mean_ms\" : 1.365", "\"mean_ms\" : 1.5"), "remeasured.json");
            server.kill(); // kill -9 right after the load: it was kept before the call returned
        }
        try (SystemUnderTest system = SystemUnderTest.in(plannerDirectory); ServerUnderTest restarted = system.server(plannerConfig)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(restarted.ior()));
            push(latserv, 1, 10, 10, 10);
            assertEquals(1.5f, latserv.RequestStatus((short) 1).latency_estimate,
                "the loaded profile, not the configured file, serves after the restart\n" + restarted.log());
            assertTrue(restarted.log().contains("profile thesis-tac4-corba restored from"), restarted.log());
        }
    }

    @Test
    void aDamagedStateFileIsSetAsideAndTheServerStartsFromItsConfiguration() throws Exception {
        final Path damagedDirectory = Files.createDirectories(directory.resolve("damaged"));
        final Path damagedConfig = damagedDirectory.resolve("testbed.yaml");
        Files.copy(config, damagedConfig);
        Files.writeString(damagedDirectory.resolve("thesis-testbed.state.json"), "{\"format\": \"latency-server-state/1\", \"conn");
        try (SystemUnderTest system = SystemUnderTest.in(damagedDirectory); ServerUnderTest server = system.server(damagedConfig)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(server.ior()));
            assertEquals(0, latserv.RequestStatus((short) 1).server_acknowledges_client, "nothing restored");
            push(latserv, 1, 10, 10, 10);
            assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client, "and it serves");
            try (Stream<Path> files = Files.list(damagedDirectory)) {
                assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("thesis-testbed.state.json.corrupt-")));
            }
            assertTrue(server.log().contains("is damaged"), server.log());
        }
    }

    /**
     * A change the server acknowledged is on disk before the caller hears of it. The
     * server is killed the moment the call returns, with no time for a periodic save (its own
     * directory and state file, apart from the other tests').
     */
    @Test
    void aMibUpdateAndAMeasurementAcknowledgedJustBeforeAKillAreThereAfterTheRestart() throws Exception {
        final Path own = Files.createDirectories(directory.resolve("acknowledged"));
        final Path ownConfig = Testbed.write(own, "testbed.yaml", Testbed.text().replace("min_interval_millis: 5000",
            "min_interval_millis: 0"));
        final long ticket;
        try (SystemUnderTest system = SystemUnderTest.in(own); ServerUnderTest server = system.server(ownConfig)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(server.ior()));
            final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));
            push(latserv, 4, 50, 50, 10); // opens a measurement request for connection 4 (QoS 3)
            ticket = Stream.of(service.pending_measurements()).filter(r -> r.index_ref == 4).findFirst()
                .map(r -> r.ticket).orElseThrow();
            service.submit_measurement(new MeasuredResult((short) 4, ticket,
                new HistogramBins(new long[] {1_000_000, 2_000_000}, new long[] {700, 300}, 0), 1000, 1.21, 0.4, 1.98, 20, 0,
                "test", new double[0]));
            push(latserv, 1, 11, 22, 33);
            server.kill(); // at once: whatever was acknowledged must be on disk already
        }
        try (SystemUnderTest system = SystemUnderTest.in(own); ServerUnderTest restarted = system.server(ownConfig)) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(restarted.ior()));
            final TableRow mib = latserv.RequestTableStatus((short) 1);
            assertEquals(11, mib.latest_client_mib_cpu, "the last PutMibUpdates before the kill\n" + restarted.log());
            assertEquals(22, mib.latest_peer_mib_cpu);
            assertEquals(33, mib.latest_mib_port);
            final TableRow measured = latserv.RequestTableStatus((short) 4);
            assertEquals(1, measured.latency_data_provided, "the measurement acknowledged before the kill");
            assertEquals(0, measured.update_required_flag);
            assertEquals(1.21f, measured.latency_avg, 1e-6f);
        }
    }

    private static void push(final Latserv latserv, final int ref, final int client, final int peer, final int port) {
        latserv.PutMibUpdates(new IdlMibUpdates((short) ref, (short) client, (short) peer, (short) port), (short) ref);
    }

}
