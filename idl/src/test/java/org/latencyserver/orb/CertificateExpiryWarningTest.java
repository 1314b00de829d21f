package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process without metrics warns in its certificate's last 30 days, and not before. */
class CertificateExpiryWarningTest {

    private static final String PASSWORD = "test-pass-5";

    @TempDir
    static Path directory;

    private static TlsStores stores;
    private static X509Certificate certificate;

    @BeforeAll
    static void makeAStoreWithKeytool() throws Exception {
        final Path keystore = directory.resolve("agent-ws1.p12");
        final Process keytool = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "agent-ws1", "-dname", "CN=ws1,OU=agent,O=Latency Server", "-keyalg", "EC",
            "-groupname", "secp256r1", "-validity", "100", "-keystore", keystore.toString(), "-storetype", "PKCS12",
            "-storepass", PASSWORD, "-keypass", PASSWORD)).redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes());
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        stores = new TlsStores(keystore, keystore, PASSWORD);
        certificate = CertificateExpiryWarning.ownCertificate(stores);
    }

    @Test
    void twentyNineDaysBeforeExpiryItWarnsNamingTheCertificateTheStoreAndTheDaysLeft() {
        final Instant expires = certificate.getNotAfter().toInstant();
        final Optional<String> warning = CertificateExpiryWarning.warningAt(certificate, stores.keystore(),
            expires.minus(29, ChronoUnit.DAYS));
        assertTrue(warning.isPresent());
        assertTrue(warning.get().contains("'CN=ws1,OU=agent,O=Latency Server'"), warning.get());
        assertTrue(warning.get().contains(stores.keystore().toString()), warning.get());
        assertTrue(warning.get().contains("in 29 days"), warning.get());
    }

    @Test
    void thirtyOneDaysBeforeExpiryItIsSilent() {
        final Instant expires = certificate.getNotAfter().toInstant();
        assertEquals(Optional.empty(), CertificateExpiryWarning.warningAt(certificate, stores.keystore(),
            expires.minus(31, ChronoUnit.DAYS)));
    }

    @Test
    void anExpiredCertificateIsToldAsExpired() {
        final Instant expires = certificate.getNotAfter().toInstant();
        final Optional<String> warning = CertificateExpiryWarning.warningAt(certificate, stores.keystore(),
            expires.plus(1, ChronoUnit.DAYS));
        assertTrue(warning.orElseThrow().contains("expired " + expires), warning.get());
    }

    @Test
    void theReadyFactIsTheStoresNotAfter() {
        try (CertificateExpiryWarning running = CertificateExpiryWarning.start(stores)) {
            assertEquals(certificate.getNotAfter().toInstant(), running.expires());
        }
    }
}
