package org.latencyserver.orb;

import org.omg.CORBA.ORB;

/**
 * How a writer reaches the server: through its own (plain) ORB, or, when it was given a
 * certificate, through a second ORB that requires TLS. The plain ORB keeps serving everything
 * else (the naming service, peer agents, callbacks), which a TLS-only ORB could not reach.
 *
 * <p>Thread-safe once made; close it before the plain ORB.
 */
public final class ServerRoute implements AutoCloseable {

    private final ORB plainOrb;
    private final ORB tlsOrb;

    private ServerRoute(final ORB plainOrb, final ORB tlsOrb) {
        this.plainOrb = plainOrb;
        this.tlsOrb = tlsOrb;
    }

    /**
     * @param plainOrb           the process's ORB, which resolves references
     * @param stores             the writer's certificate, or null for plain IIOP
     * @param host               address the TLS ORB binds for callbacks (as the plain one)
     * @param replyTimeoutMillis how long a call over TLS may wait for its reply
     * @return the route
     */
    public static ServerRoute of(final ORB plainOrb, final TlsStores stores, final String host, final long replyTimeoutMillis) {
        return new ServerRoute(plainOrb, stores == null ? null
            : OrbSupport.init(new String[0], OrbSupport.withTlsClient(OrbSupport.properties(host, 0, replyTimeoutMillis), stores)));
    }

    /**
     * @param reference a reference to the server, resolved by the plain ORB
     * @return the same object, called over TLS when this route has a certificate
     */
    public org.omg.CORBA.Object reach(final org.omg.CORBA.Object reference) {
        return tlsOrb == null ? reference : tlsOrb.string_to_object(plainOrb.object_to_string(reference));
    }

    @Override
    public void close() {
        if (tlsOrb != null) {
            tlsOrb.shutdown(false);
        }
    }
}
