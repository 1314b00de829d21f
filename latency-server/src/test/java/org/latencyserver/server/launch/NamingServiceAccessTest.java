package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.orb.EchoingPeer;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.Partitions;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.orb.References;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.naming.NamingPrincipalsFile;
import org.latencyserver.server.naming.NamingWritePolicy;
import org.latencyserver.server.naming.NamingWritePolicy.RefusalKind;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.testkit.FreePorts;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * A naming service that checks who binds, in this JVM, called over loopback by real ORBs: a plain
 * one (anyone), and TLS ones holding the server's, a peer agent's and a client agent's certificates
 * from a local certificate authority.
 */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
class NamingServiceAccessTest {

    private static final String PASSWORD = "test-pass-1";

    @TempDir
    static Path directory;
    private static NamingServiceNode naming;
    private static LocalCertificateAuthority ca;
    private static ORB plain;
    private static ORB server;
    private static ORB peerWs2;
    private static ORB agentWs1;
    private static org.omg.CORBA.Object serverObject;
    private static org.omg.CORBA.Object impostorObject;

    @BeforeAll
    static void startANamingServiceThatChecksWhoBinds() throws Exception {
        ca = LocalCertificateAuthority.open(directory.resolve("certs"), PASSWORD);
        ca.issue("naming-service", LocalCertificateAuthority.subject("naming-service", "naming-service"),
            LocalCertificateAuthority.Usage.SERVER);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER_AND_CLIENT);
        ca.issue("peer-ws2", LocalCertificateAuthority.subject("peer", "ws2"), LocalCertificateAuthority.Usage.CLIENT);
        ca.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
        final Path principals = directory.resolve("naming-principals");
        Files.writeString(principals, "# who may bind\n"
            + "server " + LocalCertificateAuthority.subject("server", "server") + "\n"
            + "peer ws2 " + LocalCertificateAuthority.subject("peer", "ws2") + "\n");
        final int port = FreePorts.belowEphemeralRange();
        int tlsPort = FreePorts.belowEphemeralRange();
        while (tlsPort == port) {
            tlsPort = FreePorts.belowEphemeralRange();
        }
        naming = NamingServiceNode.launch(new NamingServiceContext().port(port).databaseDirectory(directory.resolve("nsdb"))
            .tls(stores(ca, "naming-service"), tlsPort)
            .writePolicy(new NamingWritePolicy(List.of(List.of("LatencyServer")), NamingPrincipalsFile.read(principals)))
            .metrics("127.0.0.1", 0));
        plain = PlainOrbs.withoutRetries();
        server = tlsClient(stores(ca, "server"));
        peerWs2 = tlsClient(stores(ca, "peer-ws2"));
        agentWs1 = tlsClient(stores(ca, "agent-ws1"));
        serverObject = OrbSupport.serveOnRootPoa(plain, new EchoPeerPOATie(echo()), "the server's object");
        impostorObject = OrbSupport.serveOnRootPoa(plain, new EchoPeerPOATie(echo()), "the impostor's object");
    }

    @AfterAll
    static void stopEverything() {
        for (final ORB orb : new ORB[] {plain, server, peerWs2, agentWs1}) {
            if (orb != null) {
                orb.shutdown(true);
            }
        }
        if (naming != null) {
            naming.close();
        }
    }

    @Test
    void theServerBindsItsNameOverTlsAndAnyoneResolvesItOverPlainIiop() throws Exception {
        References.bind(server, naming.tlsCorbaloc(), "LatencyServer", serverObject);

        assertTrue(plainRoot().resolve_str("LatencyServer")._is_equivalent(serverObject));
    }

    @Test
    void aPlainCallerCannotRebindUnbindOrPutAContextInPlaceOfTheServersName() throws Exception {
        References.bind(server, naming.tlsCorbaloc(), "LatencyServer", serverObject);
        final NamingContextExt root = plainRoot();
        final long before = naming.refusals().get(RefusalKind.PLAIN_IIOP);

        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.rebind(root.to_name("LatencyServer"), impostorObject));
        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.unbind(root.to_name("LatencyServer")));
        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.bind_new_context(root.to_name("LatencyServer")));

        assertTrue(root.resolve_str("LatencyServer")._is_equivalent(serverObject), "the server's binding is unchanged");
        assertEquals(before + 3, naming.refusals().get(RefusalKind.PLAIN_IIOP), "each refusal is counted");
    }

    @Test
    void theMetricsPageCountsARefusedRebindByReasonAndTheServersRebindByOperation() throws Exception {
        final String url = naming.metricsUrl().orElseThrow();
        assertTrue(url.startsWith("http://127.0.0.1:"), "on loopback: " + url);
        final MetricsText before = MetricsText.scrape(url);
        for (final RefusalKind kind : RefusalKind.values()) {
            assertTrue(before.has("latency_naming_write_refusals_total", "reason", kind.word()), "a series for " + kind);
        }
        final NamingContextExt root = plainRoot();

        References.bind(server, naming.tlsCorbaloc(), "LatencyServer", serverObject);
        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.rebind(root.to_name("LatencyServer"), impostorObject));

        final MetricsText after = MetricsText.scrape(url);
        assertEquals(before.get("latency_naming_write_refusals_total", "reason", "plain_iiop") + 1,
            after.get("latency_naming_write_refusals_total", "reason", "plain_iiop"), "the plain caller's rebind, refused");
        assertEquals(before.get("latency_naming_write_refusals_total", "reason", "not_its_name"),
            after.get("latency_naming_write_refusals_total", "reason", "not_its_name"));
        assertEquals(before.get("latency_naming_writes_total", "operation", "rebind") + 1,
            after.get("latency_naming_writes_total", "operation", "rebind"), "the server's rebind over TLS, made");
        assertEquals(naming.refusals().get(RefusalKind.PLAIN_IIOP), after.get("latency_naming_write_refusals_total", "reason",
            "plain_iiop"), 0.0, "the page shows the guard's count");
    }

    @Test
    void aPlainCallerCannotRebindAPeersNameNeitherThroughTheRootNorThroughThePeersContext() throws Exception {
        References.bind(peerWs2, naming.tlsCorbaloc(), "peers/ws2", serverObject);
        final NamingContextExt root = plainRoot();
        final NamingContextExt peers = NamingContextExtHelper.narrow(root.resolve_str("peers"));

        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.rebind(root.to_name("peers/ws2"), impostorObject));
        assertRefused(RefusalKind.PLAIN_IIOP, () -> peers.rebind(peers.to_name("ws2"), impostorObject));
        assertRefused(RefusalKind.PLAIN_IIOP, () -> peers.unbind(peers.to_name("ws2")));
        assertRefused(RefusalKind.PLAIN_IIOP, () -> root.unbind(root.to_name("peers")));

        assertTrue(root.resolve_str("peers/ws2")._is_equivalent(serverObject), "the peer's binding is unchanged");
    }

    @Test
    void aCertificateOfTheWrongRoleIsRefusedOverTls() throws Exception {
        References.bind(server, naming.tlsCorbaloc(), "LatencyServer", serverObject);
        References.bind(peerWs2, naming.tlsCorbaloc(), "peers/ws2", serverObject);
        final NamingContextExt agentRoot = tlsRoot(agentWs1);
        final NamingContextExt peerRoot = tlsRoot(peerWs2);
        final NamingContextExt serverRoot = tlsRoot(server);

        assertRefused(RefusalKind.UNKNOWN_SUBJECT, () -> agentRoot.rebind(agentRoot.to_name("LatencyServer"), impostorObject));
        assertRefused(RefusalKind.UNKNOWN_SUBJECT, () -> agentRoot.rebind(agentRoot.to_name("peers/ws2"), impostorObject));
        assertRefused(RefusalKind.NOT_ITS_NAME, () -> peerRoot.rebind(peerRoot.to_name("LatencyServer"), impostorObject));
        assertRefused(RefusalKind.NOT_ITS_NAME, () -> peerRoot.rebind(peerRoot.to_name("peers/ws3"), impostorObject));
        assertRefused(RefusalKind.NOT_ITS_NAME, () -> peerRoot.unbind(peerRoot.to_name("peers")));
        assertRefused(RefusalKind.NOT_ITS_NAME, () -> serverRoot.rebind(serverRoot.to_name("peers/ws2"), impostorObject));

        final NamingContextExt root = plainRoot();
        assertTrue(root.resolve_str("LatencyServer")._is_equivalent(serverObject), "the server's binding is unchanged");
        assertTrue(root.resolve_str("peers/ws2")._is_equivalent(serverObject), "the peer's binding is unchanged");
    }

    @Test
    void theServerMayBindNamesUnderItsNameAndKeepsThemWithANameKeeperOverTls() throws Exception {
        final NamingContextExt serverRoot = tlsRoot(server);
        References.bind(server, naming.tlsCorbaloc(), "LatencyServer", serverObject);
        serverRoot.unbind(serverRoot.to_name("LatencyServer"));
        try (NameKeeper keeper = NameKeeper.bind(server, naming.tlsCorbaloc(),
            List.of("LatencyServer/by-client/ws1", "LatencyServer/p1"), serverObject, NameKeeper.DEFAULT_CHECK_INTERVAL_MILLIS)) {
            final NamingContextExt root = plainRoot();
            assertTrue(root.resolve_str("LatencyServer/by-client/ws1")._is_equivalent(serverObject));
            assertTrue(root.resolve_str("LatencyServer/p1")._is_equivalent(serverObject));
            assertRefused(RefusalKind.PLAIN_IIOP, () -> root.rebind(root.to_name("LatencyServer/by-client/ws1"), impostorObject));
        } finally {
            for (final String name : List.of("LatencyServer/by-client/ws1", "LatencyServer/p1", "LatencyServer/by-client")) {
                serverRoot.unbind(serverRoot.to_name(name));
            }
            serverRoot.unbind(serverRoot.to_name("LatencyServer"));
        }
    }

    @Test
    void anOrbThatServesOverTlsAndPlainAsTheServersDoesBindsUnderItsNameOverTlsInSubContexts() throws Exception {
        final Properties properties = OrbSupport.withTlsServer(PlainOrbs.properties(), stores(ca, "server"), 0);
        properties.setProperty("jacorb.retries", "0");
        final ORB serverLike = ORB.init(new String[0], properties);
        try {
            References.bind(serverLike, naming.tlsCorbaloc(), "LatencyServer/by-client/ws7", serverObject);
            assertTrue(plainRoot().resolve_str("LatencyServer/by-client/ws7")._is_equivalent(serverObject));
            final NamingContextExt byClient = NamingContextExtHelper.narrow(plainRoot().resolve_str("LatencyServer/by-client"));
            assertRefused(RefusalKind.PLAIN_IIOP, () -> byClient.unbind(byClient.to_name("ws7")));
        } finally {
            final NamingContextExt serverRoot = tlsRoot(server);
            for (final String name : List.of("LatencyServer/by-client/ws7", "LatencyServer/by-client", "LatencyServer")) {
                serverRoot.unbind(serverRoot.to_name(name));
            }
            serverLike.shutdown(true);
        }
    }

    @Test
    void anOrbThatServesPlainButDoesTlsWhereAskedAsThePeerAgentsDoesBindsItsPeerNameOverTls() throws Exception {
        final Properties properties = OrbSupport.withTlsWhereAsked(PlainOrbs.properties(), stores(ca, "peer-ws2"));
        properties.setProperty("jacorb.retries", "0");
        final ORB peerLike = ORB.init(new String[0], properties);
        try {
            final org.omg.CORBA.Object echo = OrbSupport.serveOnRootPoa(peerLike, new EchoPeerPOATie(echo()), "the peer's echo");
            References.bind(peerLike, naming.tlsCorbaloc(), "peers/ws2", echo);
            assertTrue(plainRoot().resolve_str("peers/ws2")._is_equivalent(echo));
            final NamingContextExt peerRoot = tlsRoot(peerLike);
            assertRefused(RefusalKind.NOT_ITS_NAME, () -> peerRoot.rebind(peerRoot.to_name("peers/ws3"), echo));
            assertFalse(plainRoot().resolve_str("peers/ws2")._non_existent(), "its echo serves (plain IIOP)");
        } finally {
            References.bind(peerWs2, naming.tlsCorbaloc(), "peers/ws2", serverObject);
            peerLike.shutdown(true);
        }
    }

    @Test
    void aPartitionsServerClaimsItsNamesAndOnRestartClearsItsOldRangesOverTls() throws Exception {
        final Properties properties = OrbSupport.withTlsServer(PlainOrbs.properties(), stores(ca, "server"), 0);
        properties.setProperty("jacorb.retries", "0");
        final ORB serverLike = ORB.init(new String[0], properties);
        unbindTree(tlsRoot(server), "LatencyServer"); // another test's single server
        try {
            final List<String> first = Partitions.claim(serverLike, naming.tlsCorbaloc(), "LatencyServer", "p1",
                Partitions.rangesOf(java.util.Set.of(1, 2)), false, List.of("ws1"));
            final ORB earlierRun = PlainOrbs.withoutRetries();
            final org.omg.CORBA.Object earlierServer = OrbSupport.serveOnRootPoa(earlierRun, new EchoPeerPOATie(echo()),
                "the earlier run's server");
            for (final String name : first) {
                References.bind(serverLike, naming.tlsCorbaloc(), name, earlierServer);
            }
            earlierRun.shutdown(true); // the earlier run stopped: its partition may be claimed again
            final List<String> again = Partitions.claim(serverLike, naming.tlsCorbaloc(), "LatencyServer", "p1",
                Partitions.rangesOf(java.util.Set.of(7)), false, List.of("ws1"));

            final String oldRange = first.stream().filter(name -> name.contains(Partitions.INDEX_RANGES)).findFirst().orElseThrow();
            assertThrows(org.omg.CosNaming.NamingContextPackage.NotFound.class, () -> plainRoot().resolve_str(oldRange),
                "the range of the earlier run is unbound (over TLS: a plain unbind would have been refused)");
            assertTrue(again.stream().anyMatch(name -> name.contains(Partitions.INDEX_RANGES)), again.toString());
        } finally {
            unbindTree(tlsRoot(server), "LatencyServer");
            serverLike.shutdown(true);
        }
    }

    /**
     * Unbinds a name and, when it is a context, everything under it first (through the root, over
     * TLS). What a name is bound to is read from its parent's listing: the bound objects are plain-only.
     */
    private static void unbindTree(final NamingContextExt root, final String name) throws Exception {
        final org.omg.CosNaming.NameComponent[] components = root.to_name(name);
        final org.omg.CosNaming.NamingContext parent = components.length == 1 ? root
            : org.omg.CosNaming.NamingContextHelper.unchecked_narrow(
                root.resolve(java.util.Arrays.copyOf(components, components.length - 1)));
        final String last = root.to_string(new org.omg.CosNaming.NameComponent[] {components[components.length - 1]});
        org.omg.CosNaming.BindingType type = null;
        for (final org.omg.CosNaming.Binding binding : bindingsOf(parent)) {
            if (root.to_string(binding.binding_name).equals(last)) {
                type = binding.binding_type;
            }
        }
        if (type == null) {
            return;
        }
        if (type == org.omg.CosNaming.BindingType.ncontext) {
            for (final org.omg.CosNaming.Binding binding
                : bindingsOf(org.omg.CosNaming.NamingContextHelper.unchecked_narrow(root.resolve(components)))) {
                unbindTree(root, name + "/" + root.to_string(binding.binding_name));
            }
        }
        root.unbind(components);
    }

    private static org.omg.CosNaming.Binding[] bindingsOf(final org.omg.CosNaming.NamingContext context) {
        final org.omg.CosNaming.BindingListHolder list = new org.omg.CosNaming.BindingListHolder();
        context.list(1000, list, new org.omg.CosNaming.BindingIteratorHolder());
        return list.value;
    }

    private interface NamingCall {
        void run() throws Exception;
    }

    private static void assertRefused(final RefusalKind kind, final NamingCall call) {
        final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class, call::run);
        assertEquals(kind.minor(), refused.minor, "the minor code says why: " + refused);
    }

    private static NamingContextExt plainRoot() {
        return NamingContextExtHelper.narrow(plain.string_to_object(naming.corbaloc()));
    }

    private static NamingContextExt tlsRoot(final ORB orb) {
        return NamingContextExtHelper.narrow(orb.string_to_object(naming.tlsCorbaloc()));
    }

    private static TlsStores stores(final LocalCertificateAuthority ca, final String party) {
        return new TlsStores(ca.directory().resolve(party + ".p12"), ca.trustStore(), PASSWORD);
    }

    private static ORB tlsClient(final TlsStores stores) {
        final Properties properties = OrbSupport.withTlsClient(PlainOrbs.properties(), stores);
        properties.setProperty("jacorb.retries", "0");
        return ORB.init(new String[0], properties);
    }

    private static EchoingPeer echo() {
        return new EchoingPeer() {
            @Override
            protected void beforeAnswer() {
                // a plain echo
            }
        };
    }
}
