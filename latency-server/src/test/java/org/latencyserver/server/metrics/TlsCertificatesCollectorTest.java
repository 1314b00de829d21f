package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.security.CountingTrustManager;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.server.security.ServerTlsCredentials;
import org.latencyserver.server.security.ServerTlsFiles;
import org.latencyserver.testkit.MetricsText;

/** The certificate expiry gauges show the notAfter of the certificates in the server's stores and of the clients it accepted. */
class TlsCertificatesCollectorTest {

    private static final String PASSWORD = "test-pass-3";
    private static final String OWN = "latency_server_tls_certificate_expiry_timestamp_seconds";
    private static final String CLIENTS = "latency_server_tls_client_certificate_earliest_expiry_timestamp_seconds";

    @TempDir
    static Path directory;

    private static LocalCertificateAuthority ca;

    @BeforeAll
    static void makeTheStores() throws Exception {
        ca = LocalCertificateAuthority.open(directory.resolve("certs"), PASSWORD);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        ca.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
    }

    private static KeyStore open(final Path store) throws Exception {
        final KeyStore keys = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        return keys;
    }

    private static X509Certificate[] chain(final String party) throws Exception {
        return Arrays.stream(open(ca.directory().resolve(party + ".p12")).getCertificateChain(party))
            .map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    }

    @Test
    void ownAuthorityAndEarliestClientExpiriesAreTheCertificatesNotAfter() throws Exception {
        try (ServerTlsCredentials credentials = ServerTlsCredentials.open(
            new ServerTlsFiles(ca.directory().resolve("server.p12"), ca.trustStore(), null, PASSWORD))) {
            final TlsCertificatesCollector collector = new TlsCertificatesCollector(credentials);
            assertFalse(CollectorScrape.of(collector).has(CLIENTS), "no client accepted yet");

            new CountingTrustManager(credentials).checkClientTrusted(chain("agent-ws1"), "EC");
            final MetricsText page = CollectorScrape.of(collector);

            final X509Certificate own = chain("server")[0];
            final X509Certificate authority = (X509Certificate) open(ca.trustStore()).getCertificate("ca");
            final X509Certificate agent = chain("agent-ws1")[0];
            assertEquals("gauge", page.types().get(OWN));
            assertEquals(own.getNotAfter().getTime() / 1000.0,
                page.get(OWN, "role", "own", "subject", own.getSubjectX500Principal().getName()), 0.0);
            assertEquals(authority.getNotAfter().getTime() / 1000.0,
                page.get(OWN, "role", "ca", "subject", authority.getSubjectX500Principal().getName()), 0.0);
            assertEquals(agent.getNotAfter().getTime() / 1000.0,
                page.get(CLIENTS, "subject", agent.getSubjectX500Principal().getName()), 0.0);
        }
    }
}
