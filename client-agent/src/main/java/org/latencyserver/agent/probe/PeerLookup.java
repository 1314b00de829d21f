package org.latencyserver.agent.probe;

import org.latencyserver.idl.latency.EchoPeer;

/**
 * Where the peer agent of a node is found; the agent's is its {@code PeerDirectory}, the one its
 * measurements use. Implementations are thread-safe.
 */
public interface PeerLookup {

    /**
     * @param peerNode a connection's peer node
     * @return its echo object (not yet contacted)
     * @throws RuntimeException when no reference is known or it cannot be resolved
     */
    EchoPeer peer(String peerNode);

    /**
     * Drops the cached reference of a peer that failed, so that a restarted peer is found again.
     *
     * @param peerNode the peer node
     */
    void forget(String peerNode);
}
