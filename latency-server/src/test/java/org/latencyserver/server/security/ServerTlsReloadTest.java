package org.latencyserver.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.ServerRoute;
import org.latencyserver.orb.TlsStores;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.PortableServer.POAHelper;

/**
 * A JacORB ORB's TLS listener over {@link ServerTlsCredentials}: re-read files apply to new
 * handshakes without a restart, and a bad file leaves the last good ones in force.
 */
class ServerTlsReloadTest {

    private static final String PASSWORD = "test-pass-2";

    @TempDir
    static Path madeOnce;

    @TempDir
    Path directory;

    private LocalCertificateAuthority ca;
    private ServerTlsCredentials credentials;
    private ORB orb;
    private int tlsPort;

    /** keytool is slow to start: the CA and its stores are made once and each test gets a copy. */
    @BeforeAll
    static void makeTheAuthority() throws Exception {
        final LocalCertificateAuthority template = LocalCertificateAuthority.open(madeOnce.resolve("certs"), PASSWORD);
        template.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        template.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
    }

    @BeforeEach
    void startATlsOrb() throws Exception {
        try (Stream<Path> files = Files.walk(madeOnce.resolve("certs"))) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                final Path copy = directory.resolve(madeOnce.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        ca = LocalCertificateAuthority.open(directory.resolve("certs"), PASSWORD);
        Files.writeString(ca.revokedSerials(), "# nothing revoked yet\n");
        credentials = ServerTlsCredentials.open(new ServerTlsFiles(ca.directory().resolve("server.p12"), ca.trustStore(),
            ca.revokedSerials(), PASSWORD));
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            tlsPort = free.getLocalPort();
        }
        final Properties properties = OrbSupport.withTlsServer(OrbSupport.properties("127.0.0.1", 0, 5000),
            new TlsStores(ca.directory().resolve("server.p12"), ca.trustStore(), PASSWORD), tlsPort);
        ReloadingSslServerSocketFactory.installIn(properties, credentials);
        // JacORB passes calls between ORBs of one JVM through an in-memory loopback, not the TLS socket.
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        orb = OrbSupport.init(new String[0], properties);
        POAHelper.narrow(orb.resolve_initial_references("RootPOA")).the_POAManager().activate();
    }

    @AfterEach
    void stop() {
        orb.shutdown(false);
        orb.destroy();
        credentials.close();
    }

    @Test
    void aClientRevokedInTheReReadListIsRefusedAndCountedWithoutARestart() throws Exception {
        TlsTestParty.handshake(ca, "agent-ws1", PASSWORD, tlsPort);
        awaitOrFail(() -> credentials.earliestClientExpiry().isPresent(), "the agent accepted before its revocation");
        final long revokedBefore = TlsHandshakeFailures.count(HandshakeFailure.REVOKED);

        final String serial = ca.revoke("agent-ws1");
        assertTrue(credentials.reloadIfChanged(), "the changed list is read");
        assertTrue(credentials.current().revoked().contains(new BigInteger(serial, 16)));
        TlsTestParty.attemptHandshake(ca, "agent-ws1", PASSWORD, tlsPort);

        awaitOrFail(() -> TlsHandshakeFailures.count(HandshakeFailure.REVOKED) > revokedBefore, "the revoked agent counted");
        assertEquals(revokedBefore + 1, TlsHandshakeFailures.count(HandshakeFailure.REVOKED));
    }

    @Test
    void aReIssuedServerCertificateIsPresentedToNewHandshakes() throws Exception {
        final BigInteger first = TlsTestParty.handshake(ca, "agent-ws1", PASSWORD, tlsPort);
        Files.delete(ca.directory().resolve("server.p12"));
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        final BigInteger reissued = TlsTestParty.certificate(ca.directory().resolve("server.p12"), PASSWORD).getSerialNumber();
        assertNotEquals(first, reissued);

        assertTrue(credentials.reloadIfChanged(), "the re-issued store is read");

        assertEquals(reissued, TlsTestParty.handshake(ca, "agent-ws1", PASSWORD, tlsPort));
    }

    @Test
    void aBadNewKeyStoreIsRefusedAndTheOldOneKeepsServing() throws Exception {
        final BigInteger first = TlsTestParty.handshake(ca, "agent-ws1", PASSWORD, tlsPort);
        Files.writeString(ca.directory().resolve("server.p12"), "not a key store, half copied");

        assertFalse(credentials.reloadIfChanged(), "the bad store is refused");

        assertEquals(first, TlsTestParty.handshake(ca, "agent-ws1", PASSWORD, tlsPort));
        assertEquals(first, credentials.current().own().getSerialNumber());
    }

    @Test
    void aBadRevokedListIsRefusedAndTheOldListStaysInForce() throws Exception {
        final String serial = ca.revoke("agent-ws1");
        assertTrue(credentials.reloadIfChanged());
        Files.writeString(ca.revokedSerials(), serial + "\nnot-a-serial\n");

        assertFalse(credentials.reloadIfChanged(), "the list with a bad line is refused");

        assertTrue(credentials.current().revoked().contains(new BigInteger(serial, 16)));
        assertEquals(1, credentials.current().revoked().size());
    }

    @Test
    void theWatcherThreadReadsAChangedListWithoutBeingAsked() throws Exception {
        credentials.start(50);
        final String serial = ca.revoke("agent-ws1");
        awaitOrFail(() -> credentials.current().revoked().contains(new BigInteger(serial, 16)), "the list re-read by the watcher");
        assertEquals(1, credentials.current().revoked().size());
    }

    @Test
    void unchangedFilesAreNotReRead() {
        final ServerTlsMaterial before = credentials.current();
        assertFalse(credentials.reloadIfChanged());
        assertTrue(before == credentials.current(), "the same reading stays in force");
    }

    @Test
    void aCorbaCallOverTlsPassesUntilTheCallersCertificateIsRevokedAndTheListReRead() throws Exception {
        final LatencyServiceOperations service = (LatencyServiceOperations) Proxy.newProxyInstance(
            LatencyServiceOperations.class.getClassLoader(), new Class<?>[] {LatencyServiceOperations.class},
            (proxy, method, args) -> {
                if (method.getName().equals("list_profiles")) {
                    return new ProfileSummary[0];
                }
                throw new NO_IMPLEMENT(method.getName());
            });
        final String ior = orb.object_to_string(POAHelper.narrow(orb.resolve_initial_references("RootPOA"))
            .servant_to_reference(new LatencyServicePOATie(service)));
        final TlsStores agent = new TlsStores(ca.directory().resolve("agent-ws1.p12"), ca.trustStore(), PASSWORD);
        OrbSupport.runInBackground(orb, "tls-test-server-orb");

        assertEquals(0, listProfilesOverTls(ior, agent), "the agent's call over TLS is answered");
        ca.revoke("agent-ws1");
        assertTrue(credentials.reloadIfChanged());

        assertThrows(SystemException.class, () -> listProfilesOverTls(ior, agent), "a new connection of the revoked agent");
    }

    /** Calls {@code list_profiles} from a new client ORB whose calls to the server go over TLS with {@code stores}. */
    private static int listProfilesOverTls(final String ior, final TlsStores stores) {
        final ORB client = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 5000));
        final ServerRoute route = ServerRoute.of(client, stores, "127.0.0.1", 5000);
        try {
            return LatencyServiceHelper.narrow(route.reach(client.string_to_object(ior))).list_profiles().length;
        } finally {
            route.close();
            client.shutdown(false);
            client.destroy();
        }
    }

    /** Waits for what the server's handshake thread does after the client's side ended; fails after 10 s. */
    private static void awaitOrFail(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen within 10 s: " + what);
            }
            Thread.sleep(20);
        }
    }
}
