package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.orb.TestCertificateAuthority;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.peer.PeerAgent;
import org.latencyserver.peer.PeerAgentContext;

/**
 * A client agent with {@code --pin-peers}, launched in this JVM as {@link ClientAgentMain} launches it, measuring
 * for ws1 a connection whose peer node is ws2, against a stand-in server over IIOP/TLS and real peer agents that
 * serve their echo over IIOP/TLS ({@code --tls-port}) with one certificate or another of a test CA (or a foreign
 * CA's). Each test offers one request with a ticket of its own and waits for its result or its refusal.
 */
class PinnedPeersTest {

    private static final int ROUND_TRIPS = 20;
    private static final int WARMUP_ROUND_TRIPS = 2;
    private static final long WAIT_MILLIS = 60_000;

    /** The test authorities' stores, removed after the class. */
    @TempDir
    static Path authorities;
    private static TestCertificateAuthority deployment;
    private static TestCertificateAuthority foreign;
    private static TlsStores agentStores;
    private static StandInServer server;
    private static final AtomicReference<MeasurementRequest[]> pending = new AtomicReference<>(new MeasurementRequest[0]);
    private static final Map<Long, CompletableFuture<MeasuredResult>> submitted = new java.util.concurrent.ConcurrentHashMap<>();
    private static final AtomicLong tickets = new AtomicLong(100);

    @BeforeAll
    static void startStandInServerOverTls() throws Exception {
        deployment = TestCertificateAuthority.create(authorities, "deployment");
        foreign = TestCertificateAuthority.create(authorities, "foreign");
        agentStores = deployment.stores(deployment.issue("agent", "ws1", false));
        server = StandInServer.start(Map.of(
            "subscribe_measurements", args -> 5L,
            "unsubscribe", args -> null,
            "pending_measurements", args -> pending.get(),
            "submit_measurement", args -> {
                final MeasuredResult result = (MeasuredResult) args[0];
                submitted.computeIfAbsent(result.ticket, ticket -> new CompletableFuture<>()).complete(result);
                return null;
            }), deployment.stores(deployment.issue("server", "server", true)));
    }

    @AfterAll
    static void stopStandInServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPeerWithItsNodesPeerCertificateIsMeasuredOverTls() throws Exception {
        try (PeerAgent peer = tlsPeer(deployment.stores(deployment.issue("peer", "ws2", true)));
             ClientAgent agent = pinningAgent(peer)) {
            final MeasuredResult result = offer().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            assertEquals(ROUND_TRIPS, result.sample_count);
            assertTrue(peer.echoCount() >= ROUND_TRIPS + WARMUP_ROUND_TRIPS, "the peer answered " + peer.echoCount());
            assertEquals(0, agent.pinRefusals());
            final org.latencyserver.launch.ReadyFile ready = peer.readyFile().build();
            assertEquals(peer.tlsPort(), ready.port("tls"));
            assertTrue(peer.tlsPort() > 0, "its TLS port is in its ready file: " + peer.tlsPort());
            assertTrue(ready.facts().containsKey("tls_certificate_expires"), ready.facts().toString());
        }
    }

    @Test
    void aPeerWithAnotherNodesPeerCertificateIsRefusedAndNotMeasured() throws Exception {
        assertRefusedAndNotMeasured(deployment.stores(deployment.issue("peer", "ws3", true)), 1);
    }

    @Test
    void aPeerWithAnAgentCertificateIsRefusedAndNotMeasured() throws Exception {
        assertRefusedAndNotMeasured(deployment.stores(deployment.issue("agent", "ws2", true)), 1);
    }

    @Test
    void aPeerWithAForeignCasCertificateIsRefusedInTheHandshakeAndNeverCalled() throws Exception {
        // The impostor trusts the deployment's CA (the agent's certificate), so only the agent can refuse.
        assertRefusedAndNotMeasured(new TlsStores(foreign.issue("peer", "ws2", true), deployment.trustStore(),
            TestCertificateAuthority.PASSWORD), 0);
    }

    @Test
    void withARevokedSerialsFileAnUnrevokedPeerIsMeasuredAndARevokedOneRefusedInTheHandshake(@TempDir final Path directory)
        throws Exception {
        final Path ws2 = deployment.issue("peer", "ws2", true);
        final Path otherPeer = deployment.issue("peer", "ws4", true);
        final Path revoked = Files.writeString(directory.resolve("revoked-serials"),
            "# revoked peers\n" + TestCertificateAuthority.serialOf(otherPeer).toString(16) + "  # CN=ws4,OU=peer\n");
        try (PeerAgent peer = tlsPeer(deployment.stores(ws2));
             ClientAgent agent = ClientAgent.launch(context(peer).pinPeers(true).revokedSerials(revoked))) {
            assertEquals(ROUND_TRIPS, offer().get(WAIT_MILLIS, TimeUnit.MILLISECONDS).sample_count,
                "a peer whose serial is not listed is measured");
            assertEquals(0, agent.pinRefusals());
        }
        Files.writeString(revoked, TestCertificateAuthority.serialOf(ws2).toString(16) + "  # CN=ws2,OU=peer, stolen\n");
        try (PeerAgent peer = tlsPeer(deployment.stores(ws2));
             ClientAgent agent = ClientAgent.launch(context(peer).pinPeers(true).revokedSerials(revoked))) {
            final CompletableFuture<MeasuredResult> result = offer();
            awaitRefusal(agent);
            assertFalse(result.isDone(), "nothing was submitted");
            assertEquals(0, peer.echoCount(), "the revoked peer was refused in the handshake, before any request");
        }
    }

    @Test
    void aRevokedSerialsFileWithoutPinningOrWithABadLineIsRefusedNamingIt(@TempDir final Path directory) throws Exception {
        final Path revoked = Files.writeString(directory.resolve("revoked-serials"), "5f3a9c01\nCN=ws2\n");
        final IllegalArgumentException unpinned = assertThrows(IllegalArgumentException.class,
            () -> context(null).revokedSerials(revoked).validate());
        assertTrue(unpinned.getMessage().contains("--tls-revoked-serials") && unpinned.getMessage().contains("--pin-peers"),
            unpinned.getMessage());
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> context(null).pinPeers(true).revokedSerials(revoked).validate());
        assertTrue(bad.getMessage().startsWith("--tls-revoked-serials: " + revoked + " line 2"), bad.getMessage());
        final org.latencyserver.orb.CommandRun run = org.latencyserver.orb.CommandRun.of(new ClientAgentMain(),
            "--server", server.ior(), "--tls-revoked-serials", revoked.toString());
        assertEquals(2, run.exit(), run.standardError());
        assertTrue(run.standardError().contains("--tls-revoked-serials refuses revoked peers of pinned round trips only"),
            run.standardError());
    }

    @Test
    void aPeerThatServesNoTlsIsRefusedAndNotMeasured() throws Exception {
        try (PeerAgent peer = PeerAgent.launch(new PeerAgentContext().node("ws2"));
             ClientAgent agent = pinningAgent(peer)) {
            final CompletableFuture<MeasuredResult> result = offer();
            awaitRefusal(agent);
            assertFalse(result.isDone(), "nothing was submitted");
            // Across JVMs JacORB refuses before connecting; here, in one JVM, it may hand the first request to the
            // peer in-process, whose reply the pin check then refuses (no TLS socket).
            assertTrue(peer.echoCount() <= 1, "the plain peer answered " + peer.echoCount() + " round trips");
        }
    }

    @Test
    void withoutPinningAPeerIsMeasuredOverPlainIiopAsBefore() throws Exception {
        try (PeerAgent peer = PeerAgent.launch(new PeerAgentContext().node("ws2"));
             ClientAgent agent = ClientAgent.launch(context(peer).pinPeers(false))) {
            assertEquals(ROUND_TRIPS, offer().get(WAIT_MILLIS, TimeUnit.MILLISECONDS).sample_count);
            assertEquals(0, agent.pinRefusals());
        }
    }

    @Test
    void pinningWithoutTheAgentsCertificateIsRefusedNamingTheOptions() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new ClientAgentContext().server(server.ior()).pinPeers(true).validate());
        assertTrue(refused.getMessage().contains("--pin-peers") && refused.getMessage().contains("--tls-keystore"),
            refused.getMessage());
    }

    private static void assertRefusedAndNotMeasured(final TlsStores peerStores, final int mostAnswers) throws Exception {
        try (PeerAgent peer = tlsPeer(peerStores); ClientAgent agent = pinningAgent(peer)) {
            final CompletableFuture<MeasuredResult> result = offer();
            awaitRefusal(agent);
            assertFalse(result.isDone(), "nothing was submitted");
            // Only the first request on a new connection is written before its certificate can be checked.
            assertTrue(peer.echoCount() <= mostAnswers, "the impostor answered " + peer.echoCount() + " round trips");
        }
    }

    private static void awaitRefusal(final ClientAgent agent) throws InterruptedException {
        final long endNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (agent.pinRefusals() == 0 && System.nanoTime() < endNanos) {
            Thread.sleep(50);
        }
        assertEquals(1, agent.pinRefusals(), "the measurement was refused once, not retried");
    }

    private static PeerAgent tlsPeer(final TlsStores stores) throws Exception {
        return PeerAgent.launch(new PeerAgentContext().node("ws2").tlsPort(0).namingTls(stores));
    }

    private static ClientAgent pinningAgent(final PeerAgent peer) {
        return ClientAgent.launch(context(peer).pinPeers(true));
    }

    private static ClientAgentContext context(final PeerAgent peer) {
        return new ClientAgentContext().server(server.ior()).tls(agentStores).clientNodes(Set.of("ws1"))
            .peerReferences(peer == null ? Map.of() : Map.of("ws2", peer.ior())).probing(false).jitWarmupSeconds(0).pollIntervalMillis(200);
    }

    /** @return the result of a new request for ws1 to ws2, which the stand-in now lists as pending */
    private static CompletableFuture<MeasuredResult> offer() {
        final long ticket = tickets.incrementAndGet();
        final CompletableFuture<MeasuredResult> result = submitted.computeIfAbsent(ticket, key -> new CompletableFuture<>());
        pending.set(new MeasurementRequest[] {new MeasurementRequest((short) 1, ticket, "ws1", "ws2", "", 256, ROUND_TRIPS,
            WARMUP_ROUND_TRIPS, 0L, 0L, WAIT_MILLIS, "test", 0L, 0L, ROUND_TRIPS,
            new org.latencyserver.idl.latency.TrafficShape(50, ROUND_TRIPS, 0, (short) 2))});
        return result;
    }
}
