package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.omg.CORBA.ORB;

/**
 * A TLS client ORB (as a client agent makes for its writes, {@link OrbSupport#withTlsClient}) whose key store is
 * replaced while it runs, and a TLS listener (as a peer agent's {@code --tls-port}) whose key store is replaced: real
 * JacORB ORBs on loopback, whose trust managers note the serial of each certificate their handshakes accept. The
 * stores are re-read by calling {@link ReloadingTlsStores#reloadIfChanged} (the process's checker does so every
 * {@value ReloadingTlsStores#CHECK_INTERVAL_MILLIS} ms).
 */
class ReloadingTlsClientTest {

    private static final byte[] PAYLOAD = {9, 8, 7};
    /** The serials of the client certificates the test servers' handshakes accepted, in order. */
    static final List<BigInteger> ACCEPTED_CLIENT_SERIALS = new CopyOnWriteArrayList<>();
    /** The serials of the server certificates the test clients' handshakes accepted, in order. */
    static final List<BigInteger> ACCEPTED_SERVER_SERIALS = new CopyOnWriteArrayList<>();

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority deployment;
    private static Path first;
    private static Path renewed;
    private final List<ORB> orbs = new CopyOnWriteArrayList<>();
    /** Each write of the key store gets a modification time of its own, so that every change is seen. */
    private long modifiedSeconds = 2_000_000;

    @BeforeAll
    static void issueTwoCertificates() throws Exception {
        deployment = TestCertificateAuthority.create(authorities, "reload");
        first = deployment.issue("agent", "ws1", false);
        renewed = deployment.issue("agent", "ws1-renewed", false);
    }

    @AfterEach
    void shutDown() {
        for (final ORB orb : orbs) {
            orb.shutdown(false);
        }
        ACCEPTED_CLIENT_SERIALS.clear();
        ACCEPTED_SERVER_SERIALS.clear();
    }

    @Test
    void aReplacedKeyStoreIsPresentedOnTheNextNewConnectionWithoutANewOrb() throws Exception {
        final Path keystore = keystoreHolding(first);
        final ReloadingTlsStores stores = ReloadingTlsStores.shared(deployment.stores(keystore));
        final ORB client = client(deployment.stores(keystore));

        assertArrayEquals(PAYLOAD, echo(client, server()));
        assertEquals(List.of(TestCertificateAuthority.serialOf(first)), ACCEPTED_CLIENT_SERIALS);

        replace(keystore, Files.readAllBytes(renewed));
        assertTrue(stores.reloadIfChanged(), "the changed key store is read");
        assertEquals(TestCertificateAuthority.serialOf(renewed), stores.current().own().getSerialNumber());

        assertArrayEquals(PAYLOAD, echo(client, server()));
        assertEquals(List.of(TestCertificateAuthority.serialOf(first), TestCertificateAuthority.serialOf(renewed)),
            ACCEPTED_CLIENT_SERIALS, "the new connection's handshake presented the renewed certificate");
    }

    @Test
    void aCorruptReplacementKeepsTheLastGoodCertificateUntilAGoodOneComes() throws Exception {
        final Path keystore = keystoreHolding(first);
        final ReloadingTlsStores stores = ReloadingTlsStores.shared(deployment.stores(keystore));
        final ORB client = client(deployment.stores(keystore));

        replace(keystore, "not a PKCS#12 file".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertFalse(stores.reloadIfChanged(), "a corrupt key store is refused");
        assertFalse(stores.reloadIfChanged(), "and not read again until it changes again");
        assertArrayEquals(PAYLOAD, echo(client, server()));
        assertEquals(List.of(TestCertificateAuthority.serialOf(first)), ACCEPTED_CLIENT_SERIALS,
            "a new connection still presents the last good certificate");

        replace(keystore, Files.readAllBytes(renewed));
        assertTrue(stores.reloadIfChanged(), "a good key store after a bad one is read");
        assertArrayEquals(PAYLOAD, echo(client, server()));
        assertEquals(TestCertificateAuthority.serialOf(renewed), ACCEPTED_CLIENT_SERIALS.get(1));
    }

    @Test
    void theExpiryWarningFollowsARenewedCertificate() throws Exception {
        final Path keystore = keystoreHolding(first);
        final TlsStores tls = deployment.stores(keystore);
        final AtomicInteger changes = new AtomicInteger();
        try (CertificateExpiryWarning warning = CertificateExpiryWarning.start(tls)) {
            warning.onCertificateChange(changes::incrementAndGet);
            assertEquals(CertificateExpiryWarning.ownCertificate(deployment.stores(first)).getNotAfter().toInstant(),
                warning.expires());

            replace(keystore, Files.readAllBytes(renewed));
            assertTrue(ReloadingTlsStores.shared(tls).reloadIfChanged());
            assertEquals(1, changes.get(), "told once of the renewed certificate");
            assertEquals(CertificateExpiryWarning.ownCertificate(deployment.stores(renewed)).getNotAfter().toInstant(),
                warning.expires());
        }
    }

    @Test
    void aListenerWhoseKeyStoreIsReplacedServesTheNextNewConnectionWithTheNewCertificate() throws Exception {
        final Path serving = deployment.issue("peer", "ws2", true);
        final Path reissued = deployment.issue("peer", "ws2-renewed", true);
        final Path keystore = keystoreHolding(serving);
        final TlsStores listenerStores = deployment.stores(keystore);
        final String ior = server(listenerStores);
        final TlsStores clientStores = deployment.stores(first);

        assertArrayEquals(PAYLOAD, echo(notingClient(clientStores), ior));
        replace(keystore, Files.readAllBytes(reissued));
        assertTrue(ReloadingTlsStores.shared(listenerStores).reloadIfChanged());
        assertArrayEquals(PAYLOAD, echo(notingClient(clientStores), ior));

        assertEquals(List.of(TestCertificateAuthority.serialOf(serving), TestCertificateAuthority.serialOf(reissued)),
            ACCEPTED_SERVER_SERIALS, "the same listener presented the renewed certificate to a new connection");
    }

    private Path keystoreHolding(final Path issued) throws Exception {
        final Path keystore = Files.createTempFile(authorities, "reloading-client", ".p12");
        replace(keystore, Files.readAllBytes(issued));
        return keystore;
    }

    private void replace(final Path keystore, final byte[] content) throws Exception {
        final Path next = keystore.resolveSibling(keystore.getFileName() + ".next");
        Files.write(next, content);
        Files.setLastModifiedTime(next, FileTime.fromMillis(++modifiedSeconds * 1_000));
        Files.move(next, keystore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private ORB client(final TlsStores stores) {
        final Properties properties = OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000), stores);
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        final ORB orb = OrbSupport.init(new String[0], properties);
        orbs.add(orb);
        return orb;
    }

    /** A client ORB whose trust manager notes the serial of each server certificate it accepts. */
    private ORB notingClient(final TlsStores stores) {
        final Properties properties = OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000), stores);
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        properties.setProperty("jacorb.security.ssl.client.trust_manager", NotingTrustManager.class.getName());
        final ORB orb = OrbSupport.init(new String[0], properties);
        orbs.add(orb);
        return orb;
    }

    /** @return the reference of a new TLS echo server: each one is a new connection for the client */
    private String server() throws Exception {
        return server(deployment.stores(deployment.issue("server", "latency", true)));
    }

    private String server(final TlsStores stores) {
        final Properties properties = OrbSupport.withTlsServer(OrbSupport.properties("127.0.0.1", 0, 10_000), stores, 0);
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        properties.setProperty("jacorb.security.ssl.server.trust_manager", NotingTrustManager.class.getName());
        final ORB orb = OrbSupport.init(new String[0], properties);
        orbs.add(orb);
        final String ior = orb.object_to_string(OrbSupport.serveOnRootPoa(orb, new EchoPeerPOATie(new EchoingPeer() {
            @Override
            protected void beforeAnswer() {
                // answers at once
            }
        }),
            "the test's echo server"));
        OrbSupport.runInBackground(orb, "test-echo-server");
        return ior;
    }

    private static byte[] echo(final ORB client, final String ior) {
        final EchoPeer echo = EchoPeerHelper.narrow(client.string_to_object(ior));
        return echo.echo(PAYLOAD);
    }

    /** A test party's trust manager: the JDK's over its trust store, noting each serial it accepts. */
    public static final class NotingTrustManager extends X509ExtendedTrustManager implements Configurable {
        private X509ExtendedTrustManager trusted;

        /** Made by JacORB. */
        public NotingTrustManager() {
        }

        @Override
        public void configure(final Configuration configuration) throws ConfigurationException {
            trusted = TlsStoreReading.read(Path.of(configuration.getAttribute("jacorb.security.keystore")),
                Path.of(configuration.getAttribute("jacorb.security.truststore")),
                configuration.getAttribute("jacorb.security.truststore_password")).trustManager();
        }

        private static void accepted(final X509Certificate[] chain) {
            ACCEPTED_CLIENT_SERIALS.add(chain[0].getSerialNumber());
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
            throws CertificateException {
            trusted.checkClientTrusted(chain, authType, socket);
            accepted(chain);
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
            throws CertificateException {
            trusted.checkClientTrusted(chain, authType, engine);
            accepted(chain);
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
            trusted.checkClientTrusted(chain, authType);
            accepted(chain);
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
            throws CertificateException {
            trusted.checkServerTrusted(chain, authType, socket);
            ACCEPTED_SERVER_SERIALS.add(chain[0].getSerialNumber());
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
            throws CertificateException {
            trusted.checkServerTrusted(chain, authType, engine);
            ACCEPTED_SERVER_SERIALS.add(chain[0].getSerialNumber());
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
            trusted.checkServerTrusted(chain, authType);
            ACCEPTED_SERVER_SERIALS.add(chain[0].getSerialNumber());
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return trusted.getAcceptedIssuers();
        }
    }
}
