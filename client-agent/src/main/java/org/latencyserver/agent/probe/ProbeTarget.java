package org.latencyserver.agent.probe;

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
 */
public record ProbeTarget(short indexRef, String clientNode, String peerNode, int messageSizeBytes, double ratePerSecond) {

    /**
     * @param other the same connection as listed later
     * @return whether it is still the same path (peer and size), so that its open window goes on;
     *         a rate change alone keeps the path
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
