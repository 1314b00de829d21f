package org.latencyserver.server.security;

import java.net.Socket;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import javax.security.auth.x500.X500Principal;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import org.jacorb.orb.giop.GIOPConnection;
import org.jacorb.orb.iiop.IIOPConnection;
import org.jacorb.orb.portableInterceptor.ORBInitInfoImpl;
import org.jacorb.orb.portableInterceptor.ServerRequestInfoImpl;
import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;
import org.omg.PortableInterceptor.Current;
import org.omg.PortableInterceptor.CurrentHelper;
import org.omg.PortableInterceptor.ForwardRequest;
import org.omg.PortableInterceptor.InvalidSlot;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitializer;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;

/**
 * Tells the servant who is calling: a server request interceptor reads, for each incoming call,
 * whether its connection is TLS, the subject of the certificate the peer presented and the
 * connection's remote address and port, and puts them in a {@code PICurrent} slot that the servant
 * reads on the same request ({@link #callers}).
 *
 * <p>Registered through the ORB property {@link #register}; JacORB instantiates it. JacORB's own
 * SSL interceptor is not used: it calls {@code getPeerCertificateChain()}, which Java 17 removed.
 *
 * <p>Thread-safe: the interceptor keeps no state of its own; slots are per request.
 */
public final class CallerCapture extends org.omg.CORBA.LocalObject implements ORBInitializer {

    private static final long serialVersionUID = 1L;
    /**
     * The operations whose caller matters (the server's writes, reads that show tickets, and
     * subscriptions, which are counted per caller; and the naming service's changes of bindings, when
     * it registers this interceptor). Every other call — {@code RequestStatus} above all, the hot
     * path, and the naming service's lookups — passes the interceptor without a look at its socket or
     * an allocation.
     */
    static final java.util.Set<String> CHECKED_OPERATIONS = java.util.Set.of("PutMibUpdates", "UpdateResponse",
        "RequestTableStatus", "submit_measurement", "submit_probe", "load_profile", "pending_measurements",
        "subscribe", "subscribe_measurements",
        "bind", "rebind", "bind_context", "rebind_context", "unbind", "bind_new_context", "destroy", "new_context");

    /** The slot each ORB allocated, by ORB (an ORB's slot ids are its own). */
    private static final Map<ORB, Integer> SLOTS = new ConcurrentHashMap<>();

    /**
     * @param orbProperties the server ORB's properties; changed in place
     * @return {@code orbProperties}
     */
    public static Properties register(final Properties orbProperties) {
        orbProperties.setProperty("org.omg.PortableInterceptor.ORBInitializerClass." + CallerCapture.class.getName(), "");
        // A missing initializer would otherwise be skipped with a warning, and every caller be plain.
        orbProperties.setProperty("jacorb.orb_initializer.fail_on_error", "on");
        return orbProperties;
    }

    /**
     * @param orb an ORB made with {@link #register}'s properties
     * @return the caller of the request the current thread serves; {@link Caller#PLAIN} (the least
     *         trusted) when none was captured, so that a missing capture can never grant a write
     * @throws IllegalStateException when the ORB was made without {@link #register}
     */
    public static Supplier<Caller> callers(final ORB orb) {
        final Integer slot = SLOTS.get(orb);
        if (slot == null) {
            throw new IllegalStateException("the ORB was initialised without CallerCapture.register");
        }
        final Current current;
        try {
            current = CurrentHelper.narrow(orb.resolve_initial_references("PICurrent"));
        } catch (org.omg.CORBA.ORBPackage.InvalidName e) {
            throw new IllegalStateException("the ORB has no PICurrent", e);
        }
        return () -> {
            try {
                final Any any = current.get_slot(slot);
                return any.type().kind() == org.omg.CORBA.TCKind.tk_string ? decode(any.extract_string()) : Caller.PLAIN;
            } catch (InvalidSlot e) {
                throw new IllegalStateException("PICurrent slot " + slot + " vanished", e);
            }
        };
    }

    @Override
    public void pre_init(final ORBInitInfo info) {
        // Nothing before the ORB's references exist.
    }

    @Override
    public void post_init(final ORBInitInfo info) {
        final int slot = info.allocate_slot_id();
        SLOTS.put(((ORBInitInfoImpl) info).getORB(), slot);
        try {
            info.add_server_request_interceptor(new Interceptor(slot, ((ORBInitInfoImpl) info).getORB()));
        } catch (org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * How a caller travels through the slot's {@link Any}: {@code TRANSPORT PEER SUBJECT}, space-separated,
     * the transport {@code plain} or {@code tls}, the peer {@code HOST:PORT} or {@code -} when unknown, the
     * subject (last, so it may hold spaces) empty when none.
     */
    private static String encode(final boolean tls, final String peer, final String subject) {
        return (tls ? "tls" : "plain") + " " + (peer == null ? "-" : peer) + " " + (subject == null ? "" : subject);
    }

    private static Caller decode(final String text) {
        final String[] parts = text.split(" ", 3);
        if (parts.length < 3) {
            return Caller.PLAIN;
        }
        final String peer = "-".equals(parts[1]) ? null : parts[1];
        if (!"tls".equals(parts[0])) {
            return new Caller(Caller.Transport.PLAIN, null, peer);
        }
        return new Caller(Caller.Transport.TLS, parts[2].isEmpty() ? null : new X500Principal(parts[2]), peer);
    }

    /**
     * @return {@code HOST:PORT} of the socket's remote end; for a connection without a socket (JacORB's
     *         in-process loopback between two ORBs of one JVM) {@code in-process-N}, N telling that connection
     *         from the others; null when the request came on no connection
     */
    private static String peerOf(final GIOPConnection connection, final Socket socket) {
        if (socket != null && socket.getInetAddress() != null) {
            return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        }
        return connection == null ? null : "in-process-" + Integer.toHexString(System.identityHashCode(connection));
    }

    private static final class Interceptor extends org.omg.CORBA.LocalObject implements ServerRequestInterceptor {
        private static final long serialVersionUID = 1L;
        private final int slot;
        private final transient ORB orb;

        Interceptor(final int slot, final ORB orb) {
            this.slot = slot;
            this.orb = orb;
        }

        @Override
        public void receive_request_service_contexts(final ServerRequestInfo ri) throws ForwardRequest {
            if (!CHECKED_OPERATIONS.contains(ri.operation())) {
                return;
            }
            final GIOPConnection connection = ri instanceof ServerRequestInfoImpl ? ((ServerRequestInfoImpl) ri).getConnection() : null;
            final Socket socket = socketOf(connection);
            final boolean tls = socket instanceof SSLSocket;
            String subject = null;
            if (tls) {
                try {
                    final Certificate[] chain = ((SSLSocket) socket).getSession().getPeerCertificates();
                    if (chain.length > 0 && chain[0] instanceof X509Certificate) {
                        subject = ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
                    }
                } catch (SSLPeerUnverifiedException e) {
                    subject = null; // a TLS caller without a certificate
                }
            }
            final Any any = orb.create_any();
            any.insert_string(encode(tls, peerOf(connection, socket), subject));
            try {
                ri.set_slot(slot, any);
            } catch (InvalidSlot e) {
                throw new IllegalStateException(e);
            }
        }

        private static Socket socketOf(final GIOPConnection connection) {
            if (connection == null || !(connection.getTransport() instanceof IIOPConnection)) {
                return null;
            }
            return ((IIOPConnection) connection.getTransport()).getSocket();
        }

        @Override
        public void receive_request(final ServerRequestInfo ri) {
            // The slot is set; nothing more per request.
        }

        @Override
        public void send_reply(final ServerRequestInfo ri) {
        }

        @Override
        public void send_exception(final ServerRequestInfo ri) {
        }

        @Override
        public void send_other(final ServerRequestInfo ri) {
        }

        @Override
        public String name() {
            return "latency-caller-capture";
        }

        @Override
        public void destroy() {
        }
    }
}
