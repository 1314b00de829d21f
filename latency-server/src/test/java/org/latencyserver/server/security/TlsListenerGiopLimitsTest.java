package org.latencyserver.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.LatencyServicePOATie;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.ServerRoute;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.transport.ConnectionLimits;
import org.latencyserver.server.transport.IiopConnections;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.ORB;
import org.omg.CORBA.SystemException;
import org.omg.PortableServer.POAHelper;

/**
 * The transport limits on the IIOP/TLS listener of a JacORB ORB set up as the server's
 * ({@link ConnectionLimits#applyTo}, then {@link ReloadingSslServerSocketFactory#installIn}), met by
 * raw TLS clients with a trusted certificate: the GIOP checks run on the decrypted stream, and
 * JacORB's idle time-out and connection cap hold there too. After each refusal a real JacORB call
 * over TLS is still answered.
 */
class TlsListenerGiopLimitsTest {

    private static final String PASSWORD = "test-pass-3";
    private static final long MAX_MESSAGE_BYTES = 1L << 20;
    private static final int REQUEST = 0;
    private static final int CLOSE_CONNECTION = 5;

    @TempDir
    static Path certificates;
    private static LocalCertificateAuthority ca;

    private ServerTlsCredentials credentials;
    private ORB orb;
    private int tlsPort;
    private String ior;
    private final List<SSLSocket> held = new ArrayList<>();
    /** Who called {@code pending_measurements} last, as the caller capture saw it. */
    private final AtomicReference<Caller> lastCaller = new AtomicReference<>();

    /** keytool is slow to start: the CA and its stores are made once. */
    @BeforeAll
    static void makeTheAuthority() throws Exception {
        ca = LocalCertificateAuthority.open(certificates.resolve("certs"), PASSWORD);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        ca.issue("agent-ws1", LocalCertificateAuthority.subject("agent", "ws1"), LocalCertificateAuthority.Usage.CLIENT);
    }

    @AfterEach
    void stop() throws IOException {
        for (final SSLSocket socket : held) {
            socket.close();
        }
        if (orb != null) {
            orb.shutdown(false);
            orb.destroy();
        }
        if (credentials != null) {
            credentials.close();
        }
    }

    @Test
    void aMessageDeclaringMoreThanTheLimitOverTlsClosesItsConnectionUnreadAndTheListenerKeepsServing() throws Exception {
        serve(new ConnectionLimits(MAX_MESSAGE_BYTES, 0, 100));
        final long refusedBefore = IiopConnections.oversizedCount();
        try (SSLSocket socket = TlsTestParty.connect(ca, "agent-ws1", PASSWORD, tlsPort)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(requestHeader(200L << 20));
            socket.getOutputStream().flush();
            assertClosedWithoutAnswer(socket);
        }
        assertEquals(refusedBefore + 1, IiopConnections.oversizedCount(), "refused from its header, before the body");
        assertEquals(0, listProfilesOverTls(), "a call over TLS after the refusal is answered");
    }

    @Test
    void aGiop12RequestWithResponseFlagsJacOrbCannotTakeOverTlsClosesItsConnection() throws Exception {
        serve(new ConnectionLimits(MAX_MESSAGE_BYTES, 0, 100));
        final long refusedBefore = IiopConnections.badResponseFlagsCount();
        final byte[] body = new byte[16];
        body[4] = 0x22;
        try (SSLSocket socket = TlsTestParty.connect(ca, "agent-ws1", PASSWORD, tlsPort)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(ByteBuffer.allocate(12 + body.length).put(requestHeader(12 + body.length)).put(body)
                .array());
            socket.getOutputStream().flush();
            assertClosedWithoutAnswer(socket);
        }
        assertEquals(refusedBefore + 1, IiopConnections.badResponseFlagsCount());
        assertEquals(0, listProfilesOverTls(), "a call over TLS after the refusal is answered");
    }

    @Test
    void anIdleTlsConnectionIsClosedByTheServerWithCloseConnection() throws Exception {
        serve(new ConnectionLimits(MAX_MESSAGE_BYTES, 1_000, 100));
        try (SSLSocket socket = TlsTestParty.connect(ca, "agent-ws1", PASSWORD, tlsPort)) {
            socket.setSoTimeout(30_000);
            socket.startHandshake();
            final byte[] said = socket.getInputStream().readNBytes(12);
            assertEquals(12, said.length, "one GIOP message before the end of the stream");
            assertEquals(CLOSE_CONNECTION, said[7], "the server closes an idle TLS connection with CloseConnection");
        }
    }

    @Test
    void aTlsConnectionBeyondTheCapIsClosed() throws Exception {
        serve(new ConnectionLimits(MAX_MESSAGE_BYTES, 0, 2));
        for (int i = 0; i < 2; i++) {
            final SSLSocket socket = TlsTestParty.connect(ca, "agent-ws1", PASSWORD, tlsPort);
            held.add(socket);
            socket.setSoTimeout(10_000);
            socket.startHandshake();
        }
        assertThrows(SystemException.class, this::listProfilesOverTls, "a third connection is closed at once");
    }

    @Test
    void aCallerOverTheCheckedTlsListenerIsStillKnownByItsCertificate() throws Exception {
        serve(new ConnectionLimits(MAX_MESSAGE_BYTES, 0, 100));
        final TlsStores agent = new TlsStores(ca.directory().resolve("agent-ws1.p12"), ca.trustStore(), PASSWORD);
        final ORB client = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 5000));
        final ServerRoute route = ServerRoute.of(client, agent, "127.0.0.1", 5000);
        try {
            LatencyServiceHelper.narrow(route.reach(client.string_to_object(ior))).pending_measurements();
        } finally {
            route.close();
            client.shutdown(false);
            client.destroy();
        }
        final Caller caller = lastCaller.get();
        assertEquals(Caller.Transport.TLS, caller.transport(), "the socket JacORB hands the caller capture is a TLS one");
        assertEquals(LocalCertificateAuthority.subject("agent", "ws1"), caller.subject().getName(),
            "the certificate read from the checked socket's session");
    }

    /** Reads until the server closes the connection; fails if it answers anything. */
    private static void assertClosedWithoutAnswer(final SSLSocket socket) {
        try {
            final InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "no reply: the connection is closed");
        } catch (IOException closedWithoutCloseNotify) {
            // The server closed the connection: what is asserted.
            if (closedWithoutCloseNotify instanceof java.net.SocketTimeoutException) {
                throw new AssertionError("the server kept the connection open for 10 s", closedWithoutCloseNotify);
            }
        }
    }

    /** A GIOP 1.2 Request header, big-endian, declaring {@code messageBytes} in all (header included). */
    private static byte[] requestHeader(final long messageBytes) {
        return ByteBuffer.allocate(12).put(new byte[] {'G', 'I', 'O', 'P', 1, 2, 0, REQUEST}).putInt((int) (messageBytes - 12))
            .array();
    }

    /** An ORB set up as the server's TLS listener is, serving a service whose {@code list_profiles} answers none. */
    private void serve(final ConnectionLimits limits) throws Exception {
        credentials = ServerTlsCredentials.open(new ServerTlsFiles(ca.directory().resolve("server.p12"), ca.trustStore(),
            null, PASSWORD));
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            tlsPort = free.getLocalPort();
        }
        final Properties properties = OrbSupport.withTlsServer(OrbSupport.properties("127.0.0.1", 0, 5000),
            new TlsStores(ca.directory().resolve("server.p12"), ca.trustStore(), PASSWORD), tlsPort);
        limits.applyTo(properties);
        ReloadingSslServerSocketFactory.installIn(properties, credentials);
        CallerCapture.register(properties);
        // JacORB passes calls between ORBs of one JVM through an in-memory loopback, not the TLS socket.
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        orb = OrbSupport.init(new String[0], properties);
        POAHelper.narrow(orb.resolve_initial_references("RootPOA")).the_POAManager().activate();
        final java.util.function.Supplier<Caller> callers = CallerCapture.callers(orb);
        final LatencyServiceOperations service = (LatencyServiceOperations) Proxy.newProxyInstance(
            LatencyServiceOperations.class.getClassLoader(), new Class<?>[] {LatencyServiceOperations.class},
            (proxy, method, args) -> {
                if (method.getName().equals("list_profiles")) {
                    return new ProfileSummary[0];
                }
                if (method.getName().equals("pending_measurements")) {
                    lastCaller.set(callers.get());
                    return new MeasurementRequest[0];
                }
                throw new NO_IMPLEMENT(method.getName());
            });
        ior = orb.object_to_string(POAHelper.narrow(orb.resolve_initial_references("RootPOA"))
            .servant_to_reference(new LatencyServicePOATie(service)));
        OrbSupport.runInBackground(orb, "tls-limits-test-server-orb");
    }

    /** Calls {@code list_profiles} from a new client ORB whose calls to the server go over TLS with the agent's certificate. */
    private int listProfilesOverTls() {
        final TlsStores agent = new TlsStores(ca.directory().resolve("agent-ws1.p12"), ca.trustStore(), PASSWORD);
        final ORB client = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 5000));
        final ServerRoute route = ServerRoute.of(client, agent, "127.0.0.1", 5000);
        try {
            return LatencyServiceHelper.narrow(route.reach(client.string_to_object(ior))).list_profiles().length;
        } finally {
            route.close();
            client.shutdown(false);
            client.destroy();
        }
    }
}
