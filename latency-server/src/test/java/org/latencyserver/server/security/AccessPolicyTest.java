package org.latencyserver.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.engine.Refusal;

class AccessPolicyTest {

    private static final X500Principal AGENT_WS1 = new X500Principal("CN=ws1,OU=agent,O=Latency Server");
    private static final X500Principal OPERATOR = new X500Principal("CN=ops,OU=operator,O=Latency Server");
    private static final AccessPolicy POLICY = AccessPolicy.authenticated(List.of(
        new PrincipalRule(AGENT_WS1, Set.of(Role.AGENT), "ws1"),
        new PrincipalRule(OPERATOR, Set.of(Role.OPERATOR, Role.PLANNER), null)));

    private static Caller tls(final X500Principal subject) {
        return new Caller(Caller.Transport.TLS, subject);
    }

    @Test
    void theOpenPolicyLetsEveryCallerWriteAndSeeTickets() {
        assertEquals(Optional.empty(), AccessPolicy.open().refusal(Caller.PLAIN, Role.OPERATOR, "PutMibUpdates", null));
        assertTrue(AccessPolicy.open().maySeeTicket(Caller.PLAIN, "ws1"));
    }

    @Test
    void plainIiopMayNotWriteAndIsToldWhatToDo() {
        final Refusal refusal = POLICY.refusal(Caller.PLAIN, Role.OPERATOR, "PutMibUpdates", null).orElseThrow();
        assertEquals(Refusal.Kind.NOT_PERMITTED, refusal.kind());
        final String reason = refusal.message();
        assertTrue(reason.startsWith("PutMibUpdates needs the operator role; plain IIOP is read-only"), reason);
        assertTrue(reason.contains("IIOP/TLS"), reason);
    }

    @Test
    void aTlsCallerWithoutACertificateOrWithAnUnknownOneMayNotWrite() {
        assertTrue(POLICY.refusal(tls(null), Role.PLANNER, "load_profile", null).orElseThrow().message()
            .contains("presented no certificate"));
        final String unknown = POLICY.refusal(tls(new X500Principal("CN=stranger")), Role.PLANNER, "load_profile", null)
            .orElseThrow().message();
        assertTrue(unknown.contains("certificate 'CN=stranger' has no roles"), unknown);
    }

    @Test
    void aRoleIsGrantedOnlyToTheSubjectsThatHoldIt() {
        assertEquals(Optional.empty(), POLICY.refusal(tls(OPERATOR), Role.PLANNER, "load_profile", null));
        final String reason = POLICY.refusal(tls(AGENT_WS1), Role.OPERATOR, "PutMibUpdates", null).orElseThrow().message();
        assertTrue(reason.contains("has the roles [agent]"), reason);
    }

    @Test
    void subjectsAreComparedInCanonicalFormSoCaseAndSpacingDoNotMatter() {
        assertEquals(Optional.empty(), POLICY.refusal(tls(new X500Principal("cn=OPS, ou=Operator, o=latency server")), Role.OPERATOR,
            "PutMibUpdates", null));
    }

    @Test
    void anAgentWritesAndSeesTicketsOnlyForItsOwnNode() {
        assertEquals(Optional.empty(), POLICY.refusal(tls(AGENT_WS1), Role.AGENT, "submit_measurement", "ws1"));
        assertEquals("submit_measurement: certificate 'CN=ws1,OU=agent,O=Latency Server' is the agent of node ws1; the"
            + " connection's client node is ws2", POLICY.refusal(tls(AGENT_WS1), Role.AGENT, "submit_measurement", "ws2")
            .orElseThrow().message());
        assertTrue(POLICY.maySeeTicket(tls(AGENT_WS1), "ws1"));
        assertFalse(POLICY.maySeeTicket(tls(AGENT_WS1), "ws2"));
        assertFalse(POLICY.maySeeTicket(tls(OPERATOR), "ws1"));
        assertFalse(POLICY.maySeeTicket(Caller.PLAIN, "ws1"));
    }

    @Test
    void aSubjectListedTwiceIsRefused() {
        final PrincipalRule once = new PrincipalRule(OPERATOR, Set.of(Role.OPERATOR), null);
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> AccessPolicy.authenticated(List.of(once, once)));
        assertTrue(refused.getMessage().contains("listed twice"), refused.getMessage());
    }
}
