package org.latencyserver.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client certificate refused at the TLS handshake is counted by its reason, and still refused. */
class CountingTrustManagerTest {

    private static final String PASSWORD = "test-pass-1";

    @TempDir
    static Path directory;

    private static LocalCertificateAuthority ours;
    private static LocalCertificateAuthority theirs;

    @BeforeAll
    static void makeTwoAuthorities() throws Exception {
        ours = LocalCertificateAuthority.open(directory.resolve("ours"), PASSWORD);
        ours.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        ours.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
        theirs = LocalCertificateAuthority.open(directory.resolve("theirs"), PASSWORD);
        theirs.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
    }

    private static X509Certificate[] chain(final LocalCertificateAuthority ca, final String party) throws Exception {
        final KeyStore store = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(ca.directory().resolve(party + ".p12"))) {
            store.load(in, PASSWORD.toCharArray());
        }
        return Arrays.stream(store.getCertificateChain(party)).map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    }

    private static CountingTrustManager manager() {
        return new CountingTrustManager(ServerTlsCredentials.open(
            new ServerTlsFiles(ours.directory().resolve("server.p12"), ours.trustStore(), null, PASSWORD)));
    }

    @Test
    void aCertificateOfAnotherAuthorityIsRefusedAndCountedAsUnknownCa() throws Exception {
        final long before = TlsHandshakeFailures.count(HandshakeFailure.UNKNOWN_CA);
        final X509Certificate[] foreign = chain(theirs, "agent-ws1");
        assertThrows(CertificateException.class, () -> manager().checkClientTrusted(foreign, "EC"));
        assertEquals(before + 1, TlsHandshakeFailures.count(HandshakeFailure.UNKNOWN_CA));
    }

    @Test
    void theServersCertificateUsedAsAClientsIsRefusedAndCountedAsBadUsage() throws Exception {
        final long before = TlsHandshakeFailures.count(HandshakeFailure.BAD_USAGE);
        final X509Certificate[] server = chain(ours, "server");
        assertThrows(CertificateException.class, () -> manager().checkClientTrusted(server, "EC"));
        assertEquals(before + 1, TlsHandshakeFailures.count(HandshakeFailure.BAD_USAGE));
    }

    @Test
    void anAgentOfOurAuthorityPassesAndIsNotCounted() throws Exception {
        final long[] before = Arrays.stream(HandshakeFailure.values()).mapToLong(TlsHandshakeFailures::count).toArray();
        manager().checkClientTrusted(chain(ours, "agent-ws1"), "EC");
        assertEquals(Arrays.toString(before),
            Arrays.toString(Arrays.stream(HandshakeFailure.values()).mapToLong(TlsHandshakeFailures::count).toArray()));
    }

    @Test
    void theOrbsTlsPortCountsACallerOfAnotherAuthorityRefusedAtTheHandshake() throws Exception {
        final long before = TlsHandshakeFailures.count(HandshakeFailure.UNKNOWN_CA);
        final int tlsPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            tlsPort = free.getLocalPort();
        }
        final java.util.Properties properties = org.latencyserver.orb.OrbSupport.withTlsServer(
            org.latencyserver.orb.OrbSupport.properties("127.0.0.1", 0, 5000),
            new org.latencyserver.orb.TlsStores(ours.directory().resolve("server.p12"), ours.trustStore(), PASSWORD), tlsPort);
        final ServerTlsCredentials credentials = ServerTlsCredentials.open(
            new ServerTlsFiles(ours.directory().resolve("server.p12"), ours.trustStore(), null, PASSWORD));
        ReloadingSslServerSocketFactory.installIn(properties, credentials);
        final org.omg.CORBA.ORB orb = org.latencyserver.orb.OrbSupport.init(new String[0], properties);
        try {
            org.omg.PortableServer.POAHelper.narrow(orb.resolve_initial_references("RootPOA")).the_POAManager().activate();
            handshakeAs(theirs, "agent-ws1", tlsPort);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (TlsHandshakeFailures.count(HandshakeFailure.UNKNOWN_CA) == before && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(before + 1, TlsHandshakeFailures.count(HandshakeFailure.UNKNOWN_CA));
        } finally {
            orb.shutdown(false);
            orb.destroy();
            credentials.close();
        }
    }

    /** Opens a TLS connection with {@code party}'s certificate, trusting any server, and sends a byte. */
    private static void handshakeAs(final LocalCertificateAuthority ca, final String party, final int port) throws Exception {
        final KeyStore store = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(ca.directory().resolve(party + ".p12"))) {
            store.load(in, PASSWORD.toCharArray());
        }
        final javax.net.ssl.KeyManagerFactory keys = javax.net.ssl.KeyManagerFactory.getInstance("SunX509");
        keys.init(store, PASSWORD.toCharArray());
        final javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        final javax.net.ssl.TrustManagerFactory anyServer = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
        final KeyStore serverTrust = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(ours.trustStore())) {
            serverTrust.load(in, PASSWORD.toCharArray());
        }
        anyServer.init(serverTrust);
        context.init(keys.getKeyManagers(), anyServer.getTrustManagers(), null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.startHandshake();
            socket.getOutputStream().write(0);
            socket.getInputStream().read();
        } catch (java.io.IOException expected) {
            // The server refuses the certificate: the handshake or the first read fails.
        }
    }

    @Test
    void expiryAndNotYetValidAreToldFromTheCauseTheValidatorWraps() {
        assertEquals(HandshakeFailure.EXPIRED, HandshakeFailure.of(new CertificateException("validity check failed",
            new CertificateExpiredException("NotAfter: Mon Jan 01 00:00:00 UTC 2024"))));
        assertEquals(HandshakeFailure.NOT_YET_VALID, HandshakeFailure.of(new CertificateException("validity check failed",
            new CertificateNotYetValidException("NotBefore: Mon Jan 01 00:00:00 UTC 2040"))));
        assertEquals(HandshakeFailure.EXPIRED, HandshakeFailure.of(new CertificateException(new CertPathValidatorException(
            "validity check failed", null, null, -1, CertPathValidatorException.BasicReason.EXPIRED))));
        assertEquals(HandshakeFailure.OTHER, HandshakeFailure.of(new CertificateException("something else")));
    }
}
