package org.latencyserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.TestCertificateAuthority;
import org.latencyserver.orb.TlsPinning;
import org.latencyserver.orb.TlsStores;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;

/**
 * An application's calls to stand-in servers over IIOP/TLS through a {@link PinnedServerRoute}: the stand-ins
 * present the server certificate of a test CA, or an agent's certificate of the same CA.
 */
class PinnedServerRouteTest {

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority ca;
    private static TlsStores applicationStores;
    private static ORB orb;

    @BeforeAll
    static void makeCertificates() throws Exception {
        ca = TestCertificateAuthority.create(authorities, "deployment");
        applicationStores = ca.stores(ca.issue("planner", "app", false));
        orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
    }

    @AfterAll
    static void shutDown() {
        if (orb != null) {
            orb.shutdown(false);
        }
    }

    @Test
    void aServerWithTheServerCertificateIsCalledOverTheRoute() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        try (StandInServer server = StandInServer.start(Map.of("list_connections", args -> {
                calls.incrementAndGet();
                return new ConnectionInfo[0];
            }), ca.stores(ca.issue("server", "srv", true)));
             PinnedServerRoute route = PinnedServerRoute.open(applicationStores, 10_000)) {
            final LatencyService pinned = route.reach(orb, orb.string_to_object(server.ior()), "srv",
                LatencyServiceHelper::unchecked_narrow);
            assertEquals(0, pinned.list_connections().length);
            assertEquals(1, calls.get());
            final LatencyService anyServer = route.reach(orb, orb.string_to_object(server.ior()), null,
                LatencyServiceHelper::unchecked_narrow);
            assertEquals(0, anyServer.list_connections().length, "any server certificate of the CA, when no name is given");
        }
    }

    @Test
    void aServerPresentingAnotherRoleOrNameIsRefused() throws Exception {
        try (StandInServer impostor = StandInServer.start(Map.of("list_connections", args -> new ConnectionInfo[0]),
                ca.stores(ca.issue("agent", "srv", true)));
             StandInServer other = StandInServer.start(Map.of("list_connections", args -> new ConnectionInfo[0]),
                ca.stores(ca.issue("server", "other", true)));
             PinnedServerRoute route = PinnedServerRoute.open(applicationStores, 10_000)) {
            final NO_PERMISSION role = assertThrows(NO_PERMISSION.class, () -> route.reach(orb,
                orb.string_to_object(impostor.ior()), null, LatencyServiceHelper::unchecked_narrow).list_connections());
            assertTrue(TlsPinning.isRefusal(role) && role.getMessage().contains("OU=agent"), role.getMessage());
            final NO_PERMISSION name = assertThrows(NO_PERMISSION.class, () -> route.reach(orb,
                orb.string_to_object(other.ior()), "srv", LatencyServiceHelper::unchecked_narrow).list_connections());
            assertTrue(name.getMessage().contains("CN=other,OU=server"), name.getMessage());
        }
    }

    @Test
    void aDeadlineAddedToAPinnedReferenceKeepsThePinAndOneSetInItsPlaceDropsIt() throws Exception {
        try (StandInServer server = StandInServer.start(Map.of("list_connections", args -> new ConnectionInfo[0]),
                ca.stores(ca.issue("server", "srv", true)));
             PinnedServerRoute route = PinnedServerRoute.open(applicationStores, 10_000)) {
            final LatencyService pinned = route.reach(orb, orb.string_to_object(server.ior()), "srv",
                LatencyServiceHelper::unchecked_narrow);
            final org.omg.CORBA.Policy deadline = RoundtripTimeouts.relativeRoundtripTimeout(orb, 5_000_000_000L);
            final LatencyService added = LatencyServiceHelper.unchecked_narrow(
                pinned._set_policy_override(new org.omg.CORBA.Policy[] {deadline}, org.omg.CORBA.SetOverrideType.ADD_OVERRIDE));
            assertEquals(0, added.list_connections().length);
            final LatencyService replaced = LatencyServiceHelper.unchecked_narrow(
                RoundtripTimeouts.withTimeout(orb, pinned, 5_000_000_000L));
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, replaced::list_connections);
            assertTrue(refused.getMessage().contains("not pinned"), refused.getMessage());
        }
    }
}
