package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.ObjectInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.jacorb.naming.NamingContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.orb.EchoingPeer;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.orb.References;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.naming.NamingPrincipal;
import org.latencyserver.server.naming.NamingWritePolicy;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.testkit.FreePorts;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * A naming service that checks who binds keeps its bindings across a clean restart in JacORB's own
 * files (plain {@code NamingContextImpl}s), and checks them again once they are read back.
 */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
class GuardedNamingRestartTest {

    private static final String PASSWORD = "test-pass-1";

    @TempDir
    Path directory;

    @Test
    void bindingsSavedByAGuardedNamingServiceAreJacorbsFilesAndStayGuardedAfterARestart() throws Exception {
        final LocalCertificateAuthority ca = LocalCertificateAuthority.open(directory.resolve("certs"), PASSWORD);
        ca.issue("naming-service", LocalCertificateAuthority.subject("naming-service", "naming-service"),
            LocalCertificateAuthority.Usage.SERVER);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER_AND_CLIENT);
        final int port = FreePorts.belowEphemeralRange();
        int tlsPort = FreePorts.belowEphemeralRange();
        while (tlsPort == port) {
            tlsPort = FreePorts.belowEphemeralRange();
        }
        final Path database = directory.resolve("nsdb");
        final NamingWritePolicy policy = new NamingWritePolicy(List.of(List.of("LatencyServer")), List.of(new NamingPrincipal(
            new javax.security.auth.x500.X500Principal(LocalCertificateAuthority.subject("server", "server")),
            NamingPrincipal.Kind.SERVER, null)));
        final ORB serverOrb = tlsClient(new TlsStores(ca.directory().resolve("server.p12"), ca.trustStore(), PASSWORD));
        final ORB plain = PlainOrbs.withoutRetries();
        try {
            final org.omg.CORBA.Object server = OrbSupport.serveOnRootPoa(plain, new EchoPeerPOATie(echo()), "the server");
            final String tlsCorbaloc;
            try (NamingServiceNode naming = NamingServiceNode.launch(context(ca, port, tlsPort, database, policy))) {
                tlsCorbaloc = naming.tlsCorbaloc();
                References.bind(serverOrb, tlsCorbaloc, "LatencyServer/by-client/ws1", server);
            }
            try (InputStream in = Files.newInputStream(database.resolve("_nsdb_root"))) {
                assertEquals(NamingContextImpl.class, new ObjectInputStream(in).readObject().getClass(),
                    "the root context is saved as JacORB's own class");
            }

            // Another client ORB: the first one's connections were to the stopped naming service.
            final ORB later = PlainOrbs.withoutRetries();
            try (NamingServiceNode naming = NamingServiceNode.launch(context(ca, port, tlsPort, database, policy))) {
                final NamingContextExt root = NamingContextExtHelper.narrow(later.string_to_object(naming.corbaloc()));
                assertTrue(root.resolve_str("LatencyServer/by-client/ws1")._is_equivalent(server), "the binding survived");
                final NamingContextExt byClient = NamingContextExtHelper.narrow(root.resolve_str("LatencyServer/by-client"));
                assertThrows(NO_PERMISSION.class, () -> byClient.unbind(byClient.to_name("ws1")),
                    "a context read back from its file is guarded again");
            } finally {
                later.shutdown(true);
            }
        } finally {
            serverOrb.shutdown(true);
            plain.shutdown(true);
        }
    }

    private static NamingServiceContext context(final LocalCertificateAuthority ca, final int port, final int tlsPort,
                                                final Path database, final NamingWritePolicy policy) {
        return new NamingServiceContext().port(port).databaseDirectory(database)
            .tls(new TlsStores(ca.directory().resolve("naming-service.p12"), ca.trustStore(), PASSWORD), tlsPort)
            .writePolicy(policy);
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
