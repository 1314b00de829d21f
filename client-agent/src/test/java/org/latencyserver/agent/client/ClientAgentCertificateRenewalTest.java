package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.orb.CertificateExpiryWarning;
import org.latencyserver.orb.ReloadingTlsStores;
import org.latencyserver.orb.TestCertificateAuthority;
import org.latencyserver.orb.TlsStores;

/**
 * A client agent with a certificate whose key store is replaced while it runs (against a stand-in server over
 * IIOP/TLS): a renewed certificate becomes its ready file's {@code tls_certificate_expires} and it asks for the file to
 * be written again; a corrupt replacement changes nothing. The stores are re-read by calling
 * {@link ReloadingTlsStores#reloadIfChanged} (the process checks every 10 s). That new connections present the new
 * certificate is shown with real ORBs in {@code idl}'s {@code ReloadingTlsClientTest}.
 */
class ClientAgentCertificateRenewalTest {

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority deployment;
    private static StandInServer server;
    private static Path first;
    private static Path renewed;
    private long modifiedSeconds = 3_000_000;

    @BeforeAll
    static void startStandInServerOverTls() throws Exception {
        deployment = TestCertificateAuthority.create(authorities, "renewal");
        first = deployment.issue("agent", "ws1", false);
        renewed = deployment.issue("agent", "ws1-renewed", false);
        server = StandInServer.start(Map.of(
            "subscribe_measurements", args -> 5L,
            "unsubscribe", args -> null,
            "pending_measurements", args -> new MeasurementRequest[0],
            "list_connections", args -> new org.latencyserver.idl.latency.ConnectionInfo[0]),
            deployment.stores(deployment.issue("server", "server", true)));
    }

    @AfterAll
    static void stopStandInServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRenewedCertificateIsInTheReadyFileAndTheFileIsAskedToBeWrittenAgain(@TempDir final Path directory)
        throws Exception {
        final Path keystore = directory.resolve("agent-ws1.p12");
        replace(keystore, Files.readAllBytes(first));
        final TlsStores stores = deployment.stores(keystore);
        try (ClientAgent agent = ClientAgent.launch(context(stores))) {
            final AtomicInteger rewrites = new AtomicInteger();
            agent.onReadyFileChange(rewrites::incrementAndGet);
            assertEquals(expiryFact(first), agent.readyFile().build().fact(CertificateExpiryWarning.READY_FACT));

            replace(keystore, "half a copy".getBytes(StandardCharsets.US_ASCII));
            assertFalse(ReloadingTlsStores.shared(stores).reloadIfChanged(), "a corrupt key store is refused");
            assertEquals(0, rewrites.get(), "nothing changed");
            assertEquals(expiryFact(first), agent.readyFile().build().fact(CertificateExpiryWarning.READY_FACT));

            replace(keystore, Files.readAllBytes(renewed));
            assertTrue(ReloadingTlsStores.shared(stores).reloadIfChanged(), "the renewed key store is read");
            assertEquals(1, rewrites.get(), "asked once to write the ready file again");
            assertEquals(expiryFact(renewed), agent.readyFile().build().fact(CertificateExpiryWarning.READY_FACT));
        }
    }

    private static String expiryFact(final Path issued) {
        return CertificateExpiryWarning.ownCertificate(deployment.stores(issued)).getNotAfter().toInstant().toString();
    }

    private static ClientAgentContext context(final TlsStores stores) {
        return new ClientAgentContext().server(server.ior()).tls(stores).clientNodes(Set.of("ws1")).probing(false)
            .jitWarmupSeconds(0).pollIntervalMillis(200);
    }

    private void replace(final Path keystore, final byte[] content) throws Exception {
        final Path next = keystore.resolveSibling(keystore.getFileName() + ".next");
        Files.write(next, content);
        Files.setLastModifiedTime(next, FileTime.fromMillis(++modifiedSeconds * 1_000));
        Files.move(next, keystore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
