package org.latencyserver.agent.probe;

import java.util.Optional;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * One connection to probe, as the server lists it and after its values were checked
 * ({@link ProbeTargets}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param indexRef         the connection
 * @param clientNode       its client node: this agent's, and the report's {@code client_node_name}
 * @param peerNode         the node whose peer agent echoes the probes
 * @param messageSizeBytes the size of each probe message, bytes (the connection's message size)
 * @param ratePerSecond    mean probe round trips per second, finite and {@code > 0}
 * @param traffic          the connection's declared traffic shape, which its probes reproduce; empty to draw each
 *                         train's shape from the default family
 */
public record ProbeTarget(short indexRef, String clientNode, String peerNode, int messageSizeBytes, double ratePerSecond,
                          Optional<TrafficShape> traffic) {

    /**
     * @param other the same connection as listed later
     * @return whether it is still the same path (peer and size), so that its open window goes on;
     *         a change of rate or traffic alone keeps the path
     */
    boolean samePath(final ProbeTarget other) {
        return indexRef == other.indexRef && clientNode.equals(other.clientNode) && peerNode.equals(other.peerNode)
            && messageSizeBytes == other.messageSizeBytes;
    }

    /** @return e.g. "connection 4 (ws1 -> ws2, 256 B)", for the log */
    String describe() {
        return "connection " + indexRef + " (" + clientNode + " -> " + peerNode + ", " + messageSizeBytes + " B)";
    }
}
