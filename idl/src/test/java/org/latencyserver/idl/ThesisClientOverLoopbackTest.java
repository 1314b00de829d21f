package org.latencyserver.idl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.EchoingPeer;
import org.latencyserver.orb.Fm1Arrays;
import org.latencyserver.orb.PlainOrbs;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * Two JacORB ORBs talk over a real loopback socket: a client that knows only the thesis's
 * {@code Latserv} calls an object that implements the extended {@code LatencyService}, and a
 * round trip through {@code fm1} echoes each fixed array. The servant here is a throwaway made
 * with a dynamic proxy; the real server is another module's job.
 */
class ThesisClientOverLoopbackTest {

    private static ORB serverOrb;
    private static ORB clientOrb;
    private static String serviceIor;
    private static String echoIor;

    @BeforeAll
    static void startServerOrb() throws Exception {
        serverOrb = PlainOrbs.init();
        final POA rootPoa = POAHelper.narrow(serverOrb.resolve_initial_references("RootPOA"));
        rootPoa.the_POAManager().activate();

        final LatencyServiceOperations service = (LatencyServiceOperations) Proxy.newProxyInstance(
            LatencyServiceOperations.class.getClassLoader(), new Class<?>[] {LatencyServiceOperations.class},
            (proxy, method, args) -> {
                switch (method.getName()) {
                    case "RequestStatus": {
                        final short ref = (Short) args[0];
                        return ref == 1
                            ? new IdlStatusToClient(ref, (short) 4, (short) 1, 5.0f, 98.0f, 97.0f, (short) 0)
                            : new IdlStatusToClient(ref, (short) 0, (short) 0, 0f, 0f, 0f, (short) 0);
                    }
                    case "current_estimate":
                        throw new UnknownConnection((Short) args[0], "no connection " + args[0]);
                    default:
                        throw new NO_IMPLEMENT(method.getName());
                }
            });
        serviceIor = serverOrb.object_to_string(
            rootPoa.servant_to_reference(new LatencyServicePOATie(service)));

        final EchoingPeer echo = new EchoingPeer() {
            @Override
            protected void beforeAnswer() {
                // a plain echo: nothing to count or delay
            }
        };
        echoIor = serverOrb.object_to_string(rootPoa.servant_to_reference(new EchoPeerPOATie(echo)));

        final Thread serverThread = new Thread(serverOrb::run, "test-server-orb");
        serverThread.setDaemon(true);
        serverThread.start();

        clientOrb = PlainOrbs.init();
    }

    @AfterAll
    static void stopOrbs() {
        clientOrb.shutdown(true);
        serverOrb.shutdown(false);
    }

    @Test
    void thesisClientNarrowsTheExtendedServiceToLatservAndReadsAStatus() {
        final Latserv latserv = LatservHelper.narrow(clientOrb.string_to_object(serviceIor));
        final IdlStatusToClient status = latserv.RequestStatus((short) 1);
        // The thesis's own example reply (section 4.2.1): bound 5 ms, 97-98 % at 96 % configured.
        assertEquals(1, status.index_ref);
        assertEquals(4, status.quality);
        assertEquals(1, status.server_acknowledges_client);
        assertEquals(5.0f, status.latency_estimate);
        assertEquals(98.0f, status.upper_bound_estimate);
        assertEquals(97.0f, status.lower_bound_estimate);
        assertEquals(0, latserv.RequestStatus((short) 99).server_acknowledges_client);
    }

    @Test
    void extendedCallsRaiseIdlExceptionsWithTheirReason() {
        final LatencyService service = LatencyServiceHelper.narrow(clientOrb.string_to_object(serviceIor));
        assertTrue(service._is_a(LatservHelper.id()));
        final UnknownConnection error = assertThrows(UnknownConnection.class, () -> service.current_estimate((short) 7));
        assertEquals(7, error.index_ref);
        assertEquals("no connection 7", error.reason);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {64, 128, 256, 512, 1024, 2048, 4096, 8192})
    void peerEchoesEachThesisFixedArrayThroughTheThesisInterface(final int sizeBytes) {
        final fm1 thesisView = fm1Helper.narrow(clientOrb.string_to_object(echoIor));
        final int[][] array = Fm1Arrays.numbered(sizeBytes);
        assertArrayEquals(array, Fm1Arrays.roundTrip(thesisView, array));
    }

    @Test
    void peerEchoesAnOctetSequence() {
        final EchoPeer peer = EchoPeerHelper.narrow(clientOrb.string_to_object(echoIor));
        final byte[] payload = new byte[3000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        assertArrayEquals(payload, peer.echo(payload));
    }
}
