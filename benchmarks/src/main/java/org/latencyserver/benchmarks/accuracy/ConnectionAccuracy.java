package org.latencyserver.benchmarks.accuracy;

import java.util.List;

/**
 * How one connection's estimates held: per load state, and pooled (the last entry).
 *
 * @param indexRef         the connection
 * @param quality          its QoS level
 * @param clientNode       its client node
 * @param peerNode         its peer node
 * @param messageSizeBytes its message size
 * @param checkable        whether its path was played (agents on both its nodes); otherwise only reads were made
 * @param bound            whether it serves bounds (QoS 2, 4) rather than means
 * @param states           per state in {@link LoadState} order, then pooled
 */
public record ConnectionAccuracy(int indexRef, int quality, String clientNode, String peerNode, int messageSizeBytes,
                                 boolean checkable, boolean bound, List<StateAccuracy> states) {
}
