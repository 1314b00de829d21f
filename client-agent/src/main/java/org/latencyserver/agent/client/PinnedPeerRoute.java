package org.latencyserver.agent.client;

import java.nio.file.Path;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.PinnedIdentity;
import org.latencyserver.orb.RevokedSerialsWatch;
import org.latencyserver.orb.TlsPinning;
import org.latencyserver.orb.TlsStores;
import org.omg.CORBA.ORB;

/**
 * How a pinning agent ({@code --pin-peers}) reaches its peers: through a second ORB whose every call goes over
 * IIOP/TLS with the agent's certificate, each peer's reference pinned to that node's peer certificate
 * ({@link TlsPinning}): a round trip is answered only by a peer whose certificate chains to the deployment's CA
 * and is {@code CN=NODE,OU=peer}. References are still resolved by the agent's plain ORB (the naming service,
 * {@code --peer}); only the calls go through this one. With a revoked-serials file, a peer whose certificate's serial it
 * lists is refused as any other pin failure ({@link TlsPinning}).
 *
 * <p>Thread-safe once made; close it before the plain ORB.
 */
final class PinnedPeerRoute implements AutoCloseable {

    private final ORB plainOrb;
    private final ORB pinningOrb;
    private final RevokedSerialsWatch revoked;

    private PinnedPeerRoute(final ORB plainOrb, final ORB pinningOrb, final RevokedSerialsWatch revoked) {
        this.plainOrb = plainOrb;
        this.pinningOrb = pinningOrb;
        this.revoked = revoked;
    }

    /**
     * @param plainOrb           the agent's ORB, which resolves references
     * @param stores             the agent's certificate and the deployment's CA
     * @param revokedSerials     the revoked-serials file ({@code --tls-revoked-serials}), re-read every
     *                           {@value RevokedSerialsWatch#DEFAULT_CHECK_INTERVAL_MILLIS} ms when it changed; null: none
     * @param host               address the pinning ORB binds (as the plain one)
     * @param replyTimeoutMillis how long a round trip over TLS may wait for its reply
     * @return the route
     * @throws IllegalArgumentException naming the revoked-serials file when it cannot be read
     */
    static PinnedPeerRoute of(final ORB plainOrb, final TlsStores stores, final Path revokedSerials,
                              final String host, final long replyTimeoutMillis) {
        final RevokedSerialsWatch revoked = revokedSerials == null ? null : RevokedSerialsWatch.open(revokedSerials);
        try {
            final ORB pinningOrb = OrbSupport.init(new String[0],
                TlsPinning.pinningClient(OrbSupport.properties(host, 0, replyTimeoutMillis), stores, revoked));
            if (revoked != null) {
                revoked.start(RevokedSerialsWatch.DEFAULT_CHECK_INTERVAL_MILLIS);
            }
            return new PinnedPeerRoute(plainOrb, pinningOrb, revoked);
        } catch (RuntimeException e) {
            if (revoked != null) {
                revoked.close();
            }
            throw e;
        }
    }

    /**
     * @param peerNode  the node whose peer agent the reference names
     * @param reference the reference, resolved by the plain ORB
     * @return the same object, called over TLS and answered only by {@code peerNode}'s peer certificate
     */
    org.omg.CORBA.Object pin(final String peerNode, final org.omg.CORBA.Object reference) {
        return TlsPinning.pin(pinningOrb.string_to_object(plainOrb.object_to_string(reference)), PinnedIdentity.peer(peerNode));
    }

    @Override
    public void close() {
        try {
            pinningOrb.shutdown(false);
        } finally {
            if (revoked != null) {
                revoked.close();
            }
        }
    }
}
