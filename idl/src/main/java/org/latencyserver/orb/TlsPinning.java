package org.latencyserver.orb;

import java.math.BigInteger;
import java.net.Socket;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import org.jacorb.orb.giop.ClientConnection;
import org.jacorb.orb.iiop.IIOPConnection;
import org.jacorb.orb.iiop.IIOPProfile;
import org.jacorb.orb.portableInterceptor.ClientRequestInfoImpl;
import org.jacorb.orb.portableInterceptor.ORBInitInfoImpl;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.CORBA.SetOverrideType;
import org.omg.CORBA.SystemException;
import org.omg.PortableInterceptor.ClientRequestInfo;
import org.omg.PortableInterceptor.ClientRequestInterceptor;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitializer;

/**
 * Pinned references: calls that go only over IIOP/TLS, and only to an end whose certificate chains to the
 * deployment's CA (the ORB's trust store) and is the {@link PinnedIdentity} the caller expects of that reference.
 *
 * <p>Use: make an ORB with {@link #pinningClient} (every call of it requires TLS; it reaches no plain-only
 * object), turn a reference of it into a pinned one with {@link #pin}, and call it. A call whose connection is
 * not TLS, whose other end presents another certificate, or whose handshake refused the other end's certificate
 * fails with {@link NO_PERMISSION} minor {@link #REFUSED_MINOR} and the reason as its message
 * ({@link #isRefusal}); a call through the ORB to a reference that is not pinned is refused too, and so is a call
 * JacORB would serve in-process (an object of an ORB in the same JVM with JacORB's loopback on: no socket, no TLS).
 * A reference without a TLS address is refused by JacORB itself, before connecting ({@link NO_PERMISSION} minor 0).
 *
 * <p>When the check runs: a client request interceptor checks, before a request is written, the certificate of
 * a connection that is already open, and, when the reply has come, the certificate of the connection it came
 * on; a reply from an end that is not the pinned one is never returned to the caller. The first request on a
 * new connection is written before its handshake can be looked at (JacORB connects while writing it), so its
 * payload reaches an end whose chain the trust store accepted, whatever its subject; callers that pin must send
 * nothing secret. The verdict is cached in the TLS
 * session ({@link SSLSession#putValue}): later calls on a checked connection cost a map look-up.
 *
 * <p>Why the handshake failed: the ORB's trust manager ({@link PinningTrustManager}) checks the chain against the
 * trust store as JSSE would and keeps why it refused, by the other end's address, for the call that failed.
 *
 * <p>Revoked certificates: an ORB made with a {@link RevokedSerialsWatch} refuses an end whose certificate's serial the
 * list in force holds, at the handshake (the trust manager: no request reaches it) and at every call on a connection
 * opened before the serial was listed (the interceptor), as any other pin failure.
 *
 * <p>Thread-safe: the interceptor keeps no state of its own; the refusal reasons are in a concurrent map.
 */
public final class TlsPinning {

    /** The minor code of {@link NO_PERMISSION} when a pinned call is refused ("LS" and 0x50). */
    public static final int REFUSED_MINOR = 0x4C530050;
    /** The policy type that carries a reference's pinned identity (a private, process-local type). */
    static final int IDENTITY_POLICY_TYPE = 0x4C530051;
    /**
     * The ORB property naming the {@link RevokedSerialsWatch} in force ({@link RevokedSerialsWatch#register}); absent:
     * no certificate is revoked.
     */
    static final String REVOKED_SERIALS_PROPERTY = "latency.tls.revoked_serials";
    /** The key of the verified identity in a TLS session's values. */
    private static final String SESSION_KEY = "org.latencyserver.pinned-identity";
    /** Handshake refusals not yet told, by ORB (weakly: a shut-down ORB's go with it) and by the refused end's {@code IP:PORT}. */
    static final Map<ORB, Map<String, HandshakeRefusal>> HANDSHAKE_REFUSALS =
        java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    /**
     * How long a handshake refusal may explain a failed call, ns: the call that made the handshake fails within
     * its connect; an older note (its call failed otherwise) must not explain a later failure (10 s).
     */
    static final long HANDSHAKE_REFUSAL_FRESH_NANOS = 10_000_000_000L;

    /**
     * Why a handshake refused the other end's chain, and when ({@link System#nanoTime()}).
     *
     * @param reason     what was refused and why
     * @param notedNanos when the trust manager refused it
     */
    record HandshakeRefusal(String reason, long notedNanos) {
    }

    private TlsPinning() {
    }

    /**
     * The properties of an ORB for pinned calls: every call over IIOP/TLS with the given certificate, checked by
     * this class's interceptor and trust manager.
     *
     * @param properties from {@link OrbSupport#properties}; changed in place
     * @param stores     this process's certificate and the deployment's CA
     * @return {@code properties}
     */
    public static Properties pinningClient(final Properties properties, final TlsStores stores) {
        return pinningClient(properties, stores, null);
    }

    /**
     * As {@link #pinningClient(Properties, TlsStores)}, and refusing every end whose certificate serial is in the list
     * the watch has in force when the handshake or the call is made.
     *
     * @param properties from {@link OrbSupport#properties}; changed in place
     * @param stores     this process's certificate and the deployment's CA
     * @param revoked    the revoked serials, or null for none; registered here ({@link RevokedSerialsWatch#register}),
     *                   to be closed by the caller after the ORB is shut down
     * @return {@code properties}
     */
    public static Properties pinningClient(final Properties properties, final TlsStores stores,
                                           final RevokedSerialsWatch revoked) {
        OrbSupport.withTlsClient(properties, stores);
        if (revoked != null) {
            properties.setProperty(REVOKED_SERIALS_PROPERTY, revoked.register());
        }
        properties.setProperty("org.omg.PortableInterceptor.ORBInitializerClass." + Initializer.class.getName(), "");
        // A missing initializer would otherwise be skipped with a warning, and no call checked.
        properties.setProperty("jacorb.orb_initializer.fail_on_error", "on");
        properties.setProperty("jacorb.security.ssl.client.trust_manager", PinningTrustManager.class.getName());
        return properties;
    }

    /**
     * @param reference a reference of an ORB made with {@link #pinningClient}
     * @param expected  who must answer it
     * @return the same object, its calls checked against {@code expected}
     */
    public static org.omg.CORBA.Object pin(final org.omg.CORBA.Object reference, final PinnedIdentity expected) {
        return reference._set_policy_override(new Policy[] {new IdentityPolicy(expected)}, SetOverrideType.ADD_OVERRIDE);
    }

    /**
     * @param failure what a call failed with
     * @return whether it is a pinned call refused: not over TLS, or to an end that is not the pinned one
     */
    public static boolean isRefusal(final SystemException failure) {
        return failure instanceof NO_PERMISSION;
    }

    /** Registers the interceptor; JacORB instantiates it from {@link #pinningClient}'s properties. */
    public static final class Initializer extends org.omg.CORBA.LocalObject implements ORBInitializer {
        private static final long serialVersionUID = 1L;

        @Override
        public void pre_init(final ORBInitInfo info) {
            // Nothing before the ORB's references exist.
        }

        @Override
        public void post_init(final ORBInitInfo info) {
            final ORB orb = ((ORBInitInfoImpl) info).getORB();
            try {
                info.add_client_request_interceptor(new Interceptor(HANDSHAKE_REFUSALS.computeIfAbsent(orb,
                    key -> new ConcurrentHashMap<>()), revokedSerialsOf(((org.jacorb.orb.ORB) orb).getConfiguration())));
            } catch (org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * @param configuration a pinning ORB's
     * @return the revoked serials its properties name, or null for none
     * @throws IllegalStateException when they name a watch that is not registered (closed before the ORB was made)
     */
    static RevokedSerialsWatch revokedSerialsOf(final org.jacorb.config.Configuration configuration) {
        try {
            return RevokedSerialsWatch.registered(configuration.getAttribute(REVOKED_SERIALS_PROPERTY, null));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * @param revoked the watch in force, or null
     * @param serial  the other end's certificate serial
     * @return why the end is refused when the serial is revoked, else null
     */
    static String revocation(final RevokedSerialsWatch revoked, final BigInteger serial) {
        return revoked != null && revoked.current().contains(serial)
            ? "its certificate's serial " + RevokedSerials.hex(serial) + " is revoked (listed in " + revoked.file() + ")" : null;
    }

    /** A connection's verified identity and the serial of the certificate it was verified with. */
    private record Verified(PinnedIdentity identity, BigInteger serial) {
    }

    /** The pinned identity of a reference, carried as a client-side policy override. */
    private static final class IdentityPolicy extends org.omg.CORBA.LocalObject implements Policy {
        private static final long serialVersionUID = 1L;
        private final PinnedIdentity identity;

        IdentityPolicy(final PinnedIdentity identity) {
            this.identity = identity;
        }

        @Override
        public int policy_type() {
            return IDENTITY_POLICY_TYPE;
        }

        @Override
        public Policy copy() {
            return this;
        }

        @Override
        public void destroy() {
            // Immutable: nothing to release.
        }
    }

    private static final class Interceptor extends org.omg.CORBA.LocalObject implements ClientRequestInterceptor {
        private static final long serialVersionUID = 1L;
        private final transient Map<String, HandshakeRefusal> handshakeRefusals;
        private final transient RevokedSerialsWatch revoked;

        Interceptor(final Map<String, HandshakeRefusal> handshakeRefusals, final RevokedSerialsWatch revoked) {
            this.handshakeRefusals = handshakeRefusals;
            this.revoked = revoked;
        }

        @Override
        public void send_request(final ClientRequestInfo ri) {
            verify(ri, false, revoked);
        }

        @Override
        public void receive_reply(final ClientRequestInfo ri) {
            verify(ri, true, revoked);
        }

        @Override
        public void receive_exception(final ClientRequestInfo ri) {
            // A handshake that refused the other end's chain surfaces as TRANSIENT or COMM_FAILURE: say why instead.
            final org.omg.CORBA.Any received = ri.received_exception();
            final String id = ri.received_exception_id();
            if (id == null || !(id.equals(org.omg.CORBA.TRANSIENTHelper.id()) || id.equals(org.omg.CORBA.COMM_FAILUREHelper.id()))
                || received == null) {
                return;
            }
            final String address = tlsAddress(ri);
            final HandshakeRefusal refusal = address == null ? null : handshakeRefusals.remove(address);
            if (refusal != null && System.nanoTime() - refusal.notedNanos() < HANDSHAKE_REFUSAL_FRESH_NANOS) {
                throw refused(expectedOf(ri), "the TLS handshake with " + address + " refused it: " + refusal.reason(),
                    CompletionStatus.COMPLETED_NO);
            }
        }

        @Override
        public void receive_other(final ClientRequestInfo ri) {
        }

        @Override
        public void send_poll(final ClientRequestInfo ri) {
        }

        @Override
        public String name() {
            return "latency-tls-pinning";
        }

        @Override
        public void destroy() {
        }
    }

    /**
     * Checks the call's connection against the reference's pinned identity.
     *
     * @param replied whether the reply has come (the connection is open); before sending, a connection not yet
     *                open is left to the check of the reply
     * @param revoked the revoked serials in force, or null
     * @throws NO_PERMISSION when it is not the pinned identity's, or its certificate is revoked
     */
    private static void verify(final ClientRequestInfo ri, final boolean replied, final RevokedSerialsWatch revoked) {
        final PinnedIdentity expected = expectedOf(ri);
        final CompletionStatus status = replied ? CompletionStatus.COMPLETED_MAYBE : CompletionStatus.COMPLETED_NO;
        if (expected == null) {
            throw refused(null, "the reference is not pinned (TlsPinning.pin); this ORB makes pinned calls only", status);
        }
        final ClientConnection connection = ((ClientRequestInfoImpl) ri).getConnection();
        final Socket socket = connection == null || !(connection.getGIOPConnection().getTransport() instanceof IIOPConnection)
            ? null : ((IIOPConnection) connection.getGIOPConnection().getTransport()).getSocket();
        if (socket == null || socket.isClosed()) {
            if (!replied) {
                return; // not connected yet: checked when the reply has come
            }
            throw refused(expected, "the call went over no TLS socket (an in-process or closed connection)", status);
        }
        if (!(socket instanceof SSLSocket)) {
            throw refused(expected, "the call went over plain IIOP, not TLS", status);
        }
        final SSLSession session = ((SSLSocket) socket).getSession();
        if (session.getValue(SESSION_KEY) instanceof Verified verified && expected.equals(verified.identity())) {
            // Listed since the connection was opened: refused from now on, as at a new handshake.
            final String revocation = revocation(revoked, verified.serial());
            if (revocation != null) {
                throw refused(expected, revocation, status);
            }
            return;
        }
        final Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            throw refused(expected, "the other end presented no certificate (or the handshake failed)", status);
        }
        final String mismatch = chain.length > 0 && chain[0] instanceof X509Certificate
            ? expected.mismatch((X509Certificate) chain[0]) : "it presented no X.509 certificate";
        if (mismatch != null) {
            throw refused(expected, mismatch, status);
        }
        final BigInteger serial = ((X509Certificate) chain[0]).getSerialNumber();
        final String revocation = revocation(revoked, serial);
        if (revocation != null) {
            throw refused(expected, revocation, status);
        }
        session.putValue(SESSION_KEY, new Verified(expected, serial));
    }

    private static PinnedIdentity expectedOf(final ClientRequestInfo ri) {
        final Policy policy = ((ClientRequestInfoImpl) ri).getDelegate().get_client_policy(IDENTITY_POLICY_TYPE);
        return policy instanceof IdentityPolicy identity ? identity.identity : null;
    }

    /** @return {@code IP:TLSPORT} of the call's target, as the trust manager keys its refusals; null when unknown */
    private static String tlsAddress(final ClientRequestInfo ri) {
        final ClientConnection connection = ((ClientRequestInfoImpl) ri).getConnection();
        if (connection == null || !(connection.getRegisteredProfile() instanceof IIOPProfile profile)
            || profile.getSSL() == null) {
            return null;
        }
        return ((org.jacorb.orb.iiop.IIOPAddress) profile.getAddress()).getIP() + ":" + profile.getSSLPort();
    }

    private static NO_PERMISSION refused(final PinnedIdentity expected, final String why, final CompletionStatus status) {
        return new NO_PERMISSION("pinned call refused" + (expected == null ? "" : ", expecting " + expected.describe())
            + ": " + why, REFUSED_MINOR, status);
    }
}
