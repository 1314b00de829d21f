package org.latencyserver.agent.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.latencyserver.agent.probe.PeerLookup;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.orb.References;
import org.omg.CORBA.ORB;

/**
 * Finds the peer agent of a measurement request's peer node: a reference given on the command line
 * ({@code --peer ws2=FILE|IOR|corbaloc}) or, failing that, the name {@code peers/NODE} in the
 * naming service, where {@code ./latency peer-agent --naming …} registers itself.
 *
 * <p>With a {@link PinnedPeerRoute} ({@code --pin-peers}) each reference is called over IIOP/TLS and
 * answered only by that node's peer certificate.
 *
 * <p>References are cached; {@link #forget} drops one after a failure so that a restarted peer
 * (new IOR in the same file or name) is found again. Thread-safe: the measuring thread and the
 * prober share one directory.
 */
final class PeerDirectory implements PeerLookup {

    private final ORB orb;
    private final Map<String, String> configured;
    private final String naming;
    private final PinnedPeerRoute pinned;
    private final Map<String, EchoPeer> cache = new ConcurrentHashMap<>();

    /**
     * @param orb        the agent's ORB
     * @param configured node name to reference text, from {@code --peer}
     * @param naming     the naming service, or null
     * @param pinned     the route of pinned calls, or null to call peers over plain IIOP
     */
    PeerDirectory(final ORB orb, final Map<String, String> configured, final String naming, final PinnedPeerRoute pinned) {
        this.orb = orb;
        this.configured = Map.copyOf(configured);
        this.naming = naming;
        this.pinned = pinned;
    }

    /** @return whether peers are called pinned, over IIOP/TLS ({@code --pin-peers}) */
    boolean pinning() {
        return pinned != null;
    }

    /**
     * @param peerNode the request's peer node name
     * @return its echo object (not yet contacted)
     * @throws References.ReferenceException when no reference is known or it cannot be resolved
     */
    @Override
    public EchoPeer peer(final String peerNode) {
        final EchoPeer cached = cache.get(peerNode);
        if (cached != null) {
            return cached;
        }
        final String text = configured.get(peerNode);
        final org.omg.CORBA.Object object;
        if (text != null) {
            object = References.resolve(orb, text, naming);
        } else if (naming != null) {
            object = References.resolve(orb, "peers/" + peerNode, naming);
        } else {
            throw new References.ReferenceException("no reference for peer node '" + peerNode
                + "': give --peer " + peerNode + "=IOR-FILE, or --naming where its peer agent is registered");
        }
        final EchoPeer peer = EchoPeerHelper.unchecked_narrow(pinned == null ? object : pinned.pin(peerNode, object));
        cache.put(peerNode, peer);
        return peer;
    }

    /** Drops the cached reference of a peer that failed. */
    @Override
    public void forget(final String peerNode) {
        cache.remove(peerNode);
    }
}
