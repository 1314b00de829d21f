package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;

/**
 * Pinned calls between real JacORB ORBs on loopback, over IIOP/TLS with certificates of a test CA: the echo
 * servers play peer agents that present one certificate or another, the pinning ORB an agent that expects
 * ws2's peer certificate.
 */
class TlsPinningTest {

    private static final byte[] PAYLOAD = {1, 2, 3, 4};

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority deployment;
    private static TestCertificateAuthority foreign;
    private static ORB pinningOrb;

    @BeforeAll
    static void makeCertificatesAndThePinningOrb() throws Exception {
        deployment = TestCertificateAuthority.create(authorities, "deployment");
        foreign = TestCertificateAuthority.create(authorities, "foreign");
        pinningOrb = OrbSupport.init(new String[0], TlsPinning.pinningClient(OrbSupport.properties("127.0.0.1", 0, 10_000),
            deployment.stores(deployment.issue("agent", "ws1", false))));
    }

    @AfterAll
    static void shutDown() {
        if (pinningOrb != null) {
            pinningOrb.shutdown(false);
        }
    }

    @Test
    void aPeerWithItsNodesPeerCertificateAnswersTheReferencePinnedToIt() throws Exception {
        try (EchoServer ws2 = EchoServer.tls(deployment.stores(deployment.issue("peer", "ws2", true)))) {
            final EchoPeer pinned = pinned(ws2, PinnedIdentity.peer("ws2"));
            assertArrayEquals(PAYLOAD, pinned.echo(PAYLOAD));
            assertArrayEquals(PAYLOAD, pinned.echo(PAYLOAD), "a second call on the checked connection");
            assertEquals(2, ws2.answers.get());
        }
    }

    @Test
    void aPeerWithAnotherNodesPeerCertificateIsRefused() throws Exception {
        try (EchoServer ws3 = EchoServer.tls(deployment.stores(deployment.issue("peer", "ws3", true)))) {
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, () -> pinned(ws3, PinnedIdentity.peer("ws2")).echo(PAYLOAD));
            assertRefusal(refused, "CN=ws3,OU=peer");
            assertTrue(refused.getMessage().contains("CN=ws2,OU=peer"), "says what was expected: " + refused.getMessage());
        }
    }

    @Test
    void aPeerWithAnAgentCertificateOfItsNodeIsRefused() throws Exception {
        try (EchoServer impostor = EchoServer.tls(deployment.stores(deployment.issue("agent", "ws2", true)))) {
            assertRefusal(assertThrows(NO_PERMISSION.class, () -> pinned(impostor, PinnedIdentity.peer("ws2")).echo(PAYLOAD)),
                "CN=ws2,OU=agent");
        }
    }

    @Test
    void aPeerWithACertificateOfAForeignCaIsRefusedInTheHandshakeAndNeverCalled() throws Exception {
        // The impostor trusts the deployment's CA, so only the pinning side can refuse.
        final TlsStores impostorStores = new TlsStores(foreign.issue("peer", "ws2", true), deployment.trustStore(),
            TestCertificateAuthority.PASSWORD);
        try (EchoServer impostor = EchoServer.tls(impostorStores)) {
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class,
                () -> pinned(impostor, PinnedIdentity.peer("ws2")).echo(PAYLOAD));
            assertRefusal(refused, "TLS handshake");
            assertTrue(refused.getMessage().contains("foreign test CA"), "names the issuer: " + refused.getMessage());
            assertEquals(0, impostor.answers.get(), "no request got past the handshake");
        }
    }

    @Test
    void aPeerCertificateMadeForClientAuthenticationOnlyIsRefusedInTheHandshake() throws Exception {
        try (EchoServer older = EchoServer.tls(deployment.stores(deployment.issue("peer", "ws2", false)))) {
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, () -> pinned(older, PinnedIdentity.peer("ws2")).echo(PAYLOAD));
            assertRefusal(refused, "Extended key usage does not permit use for TLS server authentication");
            assertEquals(0, older.answers.get());
        }
    }

    @Test
    void aPeerThatServesNoTlsIsRefused() throws Exception {
        try (EchoServer plain = EchoServer.plain()) {
            final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, () -> pinned(plain, PinnedIdentity.peer("ws2")).echo(PAYLOAD));
            assertTrue(TlsPinning.isRefusal(refused));
            assertEquals(0, plain.answers.get());
        }
    }

    @Test
    void aReferenceThatIsNotPinnedIsRefused() throws Exception {
        try (EchoServer ws2 = EchoServer.tls(deployment.stores(deployment.issue("peer", "ws2", true)))) {
            final EchoPeer unpinned = EchoPeerHelper.unchecked_narrow(pinningOrb.string_to_object(ws2.ior));
            assertRefusal(assertThrows(NO_PERMISSION.class, () -> unpinned.echo(PAYLOAD)), "not pinned");
        }
    }

    @Test
    void aConnectionCheckedForOneNodeDoesNotPassAReferencePinnedToAnother() throws Exception {
        try (EchoServer ws2 = EchoServer.tls(deployment.stores(deployment.issue("peer", "ws2", true)))) {
            assertArrayEquals(PAYLOAD, pinned(ws2, PinnedIdentity.peer("ws2")).echo(PAYLOAD));
            final EchoPeer asWs3 = pinned(ws2, PinnedIdentity.peer("ws3"));
            assertRefusal(assertThrows(NO_PERMISSION.class, () -> asWs3.echo(PAYLOAD)), "CN=ws2,OU=peer");
            assertEquals(1, ws2.answers.get(), "the call pinned to ws3 was refused before it was sent on the open connection");
        }
    }

    @Test
    void aServerCertificateOfAnyNameMatchesTheServerRole() throws Exception {
        try (EchoServer server = EchoServer.tls(deployment.stores(deployment.issue("server", "server", true)))) {
            assertArrayEquals(PAYLOAD, pinned(server, PinnedIdentity.server(null)).echo(PAYLOAD));
            assertRefusal(assertThrows(NO_PERMISSION.class, () -> pinned(server, PinnedIdentity.peer("server")).echo(PAYLOAD)),
                "OU=server");
        }
    }

    private static EchoPeer pinned(final EchoServer server, final PinnedIdentity expected) {
        return EchoPeerHelper.unchecked_narrow(TlsPinning.pin(pinningOrb.string_to_object(server.ior), expected));
    }

    private static void assertRefusal(final NO_PERMISSION refused, final String said) {
        assertEquals(TlsPinning.REFUSED_MINOR, refused.minor, refused.toString());
        assertTrue(TlsPinning.isRefusal(refused));
        assertTrue(refused.getMessage().contains(said), "the reason says '" + said + "': " + refused.getMessage());
    }

    /** An echo object on its own ORB, on loopback, over plain IIOP and (given stores) IIOP/TLS. */
    static final class EchoServer implements AutoCloseable {
        private final ORB orb;
        final String ior;
        final AtomicLong answers = new AtomicLong();

        private EchoServer(final Properties properties) {
            // A caller in this JVM would otherwise be served in-process, past TLS.
            properties.setProperty("jacorb.iiop.enable_loopback", "off");
            this.orb = OrbSupport.init(new String[0], properties);
            this.ior = orb.object_to_string(OrbSupport.serveOnRootPoa(orb, new EchoPeerPOATie(new EchoingPeer() {
                @Override
                protected void beforeAnswer() {
                    answers.incrementAndGet();
                }
            }), "the test's echo server"));
            OrbSupport.runInBackground(orb, "test-echo-server");
        }

        static EchoServer tls(final TlsStores stores) {
            return new EchoServer(OrbSupport.withTlsServer(OrbSupport.properties("127.0.0.1", 0, 10_000), stores, 0));
        }

        static EchoServer plain() {
            return new EchoServer(OrbSupport.properties("127.0.0.1", 0, 10_000));
        }

        @Override
        public void close() {
            orb.shutdown(false);
        }
    }
}
