package org.latencyserver.server.naming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.naming.NamingWritePolicy.RefusalKind;
import org.latencyserver.server.security.Caller;

/** Which names each kind of caller may change, and what the principals file accepts. */
class NamingWritePolicyTest {

    private static final X500Principal SERVER = new X500Principal("CN=server,OU=server,O=Latency Server");
    private static final X500Principal PEER_WS2 = new X500Principal("CN=ws2,OU=peer,O=Latency Server");
    private static final NamingWritePolicy POLICY = new NamingWritePolicy(List.of(List.of("LatencyServer")), List.of(
        new NamingPrincipal(SERVER, NamingPrincipal.Kind.SERVER, null),
        new NamingPrincipal(PEER_WS2, NamingPrincipal.Kind.PEER, "ws2")));

    private static Caller tls(final X500Principal subject) {
        return new Caller(Caller.Transport.TLS, subject);
    }

    private static RefusalKind refusal(final Caller caller, final String operation, final String... names) {
        return POLICY.refusal(caller, operation, java.util.Arrays.stream(names).map(n -> List.of(n.split("/"))).toList())
            .map(NamingWritePolicy.Refusal::kind).orElse(null);
    }

    @Test
    void theServerChangesItsNameAndEverythingUnderItButNoPeersName() {
        assertEquals(null, refusal(tls(SERVER), "rebind", "LatencyServer"));
        assertEquals(null, refusal(tls(SERVER), "unbind", "LatencyServer/by-client/ws1"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(SERVER), "rebind", "peers/ws2"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(SERVER), "rebind", "LatencyServerX"));
    }

    @Test
    void aPeerChangesOnlyItsOwnNodesNameAndMayCreateButNotReplaceThePeersContext() {
        assertEquals(null, refusal(tls(PEER_WS2), "rebind", "peers/ws2"));
        assertEquals(null, refusal(tls(PEER_WS2), "bind_new_context", "peers"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(PEER_WS2), "rebind_context", "peers"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(PEER_WS2), "unbind", "peers"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(PEER_WS2), "rebind", "peers/ws3"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(PEER_WS2), "rebind", "LatencyServer"));
    }

    @Test
    void plainCallersTlsCallersWithoutACertificateAndUnknownSubjectsChangeNothing() {
        assertEquals(RefusalKind.PLAIN_IIOP, refusal(Caller.PLAIN, "rebind", "LatencyServer"));
        assertEquals(RefusalKind.PLAIN_IIOP, refusal(Caller.PLAIN, "new_context"));
        assertEquals(RefusalKind.NO_CERTIFICATE, refusal(tls(null), "rebind", "LatencyServer"));
        assertEquals(RefusalKind.UNKNOWN_SUBJECT, refusal(tls(new X500Principal("CN=ws1,OU=agent,O=Latency Server")), "rebind",
            "LatencyServer"));
    }

    @Test
    void aChangeInAContextFoundUnderNoNameIsRefusedToEveryPrincipalButNewContextIsNot() {
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(PEER_WS2), "rebind"));
        assertEquals(RefusalKind.NOT_ITS_NAME, refusal(tls(SERVER), "bind_new_context"));
        assertEquals(null, refusal(tls(PEER_WS2), "new_context"));
    }

    @Test
    void nobodyDestroysOrRebindsTheRootContext() {
        assertEquals(RefusalKind.NOT_ITS_NAME, POLICY.refusal(tls(SERVER), "destroy", List.of(List.of()))
            .map(NamingWritePolicy.Refusal::kind).orElse(null));
    }

    @Test
    void aRefusalSaysWhatWasRefusedForWhomAndWhy() {
        final String message = POLICY.refusal(tls(PEER_WS2), "rebind", List.of(List.of("LatencyServer"))).orElseThrow().message();
        assertTrue(message.contains("rebind 'LatencyServer'") && message.contains("CN=ws2,OU=peer") && message.contains("own"),
            message);
    }

    @Test
    void aPrincipalsFileLineThatIsWrongIsRefusedNamingTheLineAndWhatIsWrong() {
        assertEquals(NamingPrincipal.Kind.PEER, NamingPrincipalsFile.parse("peer ws2 CN=ws2,OU=peer,O=Latency Server", "f line 1")
            .kind());
        final IllegalArgumentException role = assertThrows(IllegalArgumentException.class,
            () -> NamingPrincipalsFile.parse("agent CN=ws1", "f line 3"));
        assertTrue(role.getMessage().startsWith("f line 3: ") && role.getMessage().contains("'agent'"), role.getMessage());
        final IllegalArgumentException subject = assertThrows(IllegalArgumentException.class,
            () -> NamingPrincipalsFile.parse("server", "f line 4"));
        assertTrue(subject.getMessage().contains("subject is missing"), subject.getMessage());
        final IllegalArgumentException node = assertThrows(IllegalArgumentException.class,
            () -> NamingPrincipalsFile.parse("peer CN=ws2,OU=peer", "f line 5"));
        assertTrue(node.getMessage().contains("node is missing"), node.getMessage());
    }
}
