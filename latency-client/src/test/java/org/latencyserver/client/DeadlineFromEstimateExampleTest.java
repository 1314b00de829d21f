package org.latencyserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * Runs {@code examples/clients/java/DeadlineFromEstimate} (compiled with the test sources) against a
 * stand-in server that serves one estimate and answers {@code RequestStatus} slowly, and against a
 * slow echo peer: the example must report TIMEOUT when the call overruns and "in time" when not.
 */
class DeadlineFromEstimateExampleTest {

    private static ORB serverOrb;
    private static String serverIor;
    private static String peerIor;
    private static RoundtripTimeoutsTest.SlowEchoPeer peer;
    private static volatile long requestStatusDelayMillis;
    private static volatile Estimate served;

    @BeforeAll
    static void startServerAndPeer() throws Exception {
        serverOrb = OrbSupport.init(new String[0], RoundtripTimeoutsTest.overSockets(OrbSupport.properties("127.0.0.1", 0, 60_000)));
        final POA poa = POAHelper.narrow(serverOrb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        final LatencyServiceOperations service = (LatencyServiceOperations) Proxy.newProxyInstance(
            LatencyServiceOperations.class.getClassLoader(), new Class<?>[] {LatencyServiceOperations.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "current_estimate" -> served;
                case "RequestStatus" -> {
                    Thread.sleep(requestStatusDelayMillis);
                    yield new IdlStatusToClient((short) args[0], served.quality, (short) 1, (float) served.value_ms, 99f, 95f, (short) 0);
                }
                default -> throw new NO_IMPLEMENT(method.getName());
            });
        serverIor = serverOrb.object_to_string(poa.servant_to_reference(new LatencyServicePOATie(service)));
        peer = new RoundtripTimeoutsTest.SlowEchoPeer();
        peerIor = serverOrb.object_to_string(poa.servant_to_reference(new EchoPeerPOATie(peer)));
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        requestStatusDelayMillis = 0;
        if (peer != null) {
            peer.releaseAndAwaitIdle();
        }
        if (serverOrb != null) {
            serverOrb.shutdown(false);
        }
    }

    @Test
    void theExampleReportsTimeoutWhenTheServerOverrunsTheDeadlineFromItsBound(@TempDir final Path dir) throws Exception {
        served = DeadlineTest.bound(50.0, 95, 97);
        requestStatusDelayMillis = 2_000;
        final Path iorFile = dir.resolve("latency-server.ior");
        OrbSupport.writeIor(iorFile, serverIor);

        final long start = System.nanoTime();
        final Run run = runExample(iorFile.toString(), "1", "--factor", "1", "--extra-ms", "150");
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.print(run.output);
        assertEquals(3, run.status, run.output);
        assertTrue(run.output.contains("deadline 200.000 ms"), run.output);
        assertTrue(run.output.contains("TIMEOUT"), run.output);
        assertTrue(tookMillis < 1_800, "the example gave up after " + tookMillis + " ms, the server answers after 2000");
    }

    @Test
    void theExampleCallsThePeerInTimeWhenItAnswersWithinTheDeadlineFromAnAverage() throws Exception {
        served = DeadlineTest.average(500.0, 400.0, 1_000.0);
        peer.delayMillis = 100;

        final Run run = runExample(serverIor, "1", "--peer", peerIor);

        System.out.print(run.output);
        assertEquals(0, run.status, run.output);
        assertTrue(run.output.contains("interval upper end 1000.000 ms -> deadline 1201.000 ms"), run.output);
        assertTrue(run.output.contains("in time: echo of 64 bytes"), run.output);
    }

    private static Run runExample(final String... args) throws Exception {
        final Method run = Class.forName("DeadlineFromEstimate").getMethod("run", String[].class, PrintStream.class);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int status;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            status = (int) run.invoke(null, args, out);
        }
        return new Run(status, bytes.toString(StandardCharsets.UTF_8));
    }

    private record Run(int status, String output) {
    }
}
