package org.latencyserver.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.omg.CORBA.ORB;

/**
 * Issue 12: a change the server acknowledged is on disk before the caller hears of it. The server
 * is killed ({@code kill -9}) the moment the call returns, with no time for a periodic save, and
 * the restarted server, on the same state file, has the change.
 */
class AcknowledgedWritesSurviveKillTest {

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
    void aMibUpdateAndAMeasurementAcknowledgedJustBeforeAKillAreThereAfterTheRestart() throws Exception {
        final long ticket;
        try (ServerProcess server = ServerProcess.start(config, directory)) {
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
        try (ServerProcess restarted = ServerProcess.start(config, directory)) {
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
