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

    private static CountingTrustManager manager() throws Exception {
        return new CountingTrustManager(ours.trustStore(), PASSWORD, "JKS", "SunX509");
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
