package org.latencyserver.agent.client;

import java.util.Set;
import org.latencyserver.agent.measure.AdaptiveTarget;

/**
 * What a client agent measures and how.
 *
 * <p>Immutable and thread-safe.
 *
 * @param agentName          who measured, as the server logs it with each result
 * @param clientNodes        the client nodes this agent measures for (a request for another node
 *                           is left to that node's agent); empty means every node
 * @param pollIntervalMillis how often the open requests are also polled (the thesis's 5 s; the
 *                           fallback when a pushed request was lost), {@code >= 100}
 * @param adaptive           stop a run early once this CI target is met; null for the full count
 * @param intervalNanos      start one round trip every this many ns at most; 0 back to back. A
 *                           profile measured paced (as {@code profile measure} does) is compared
 *                           with measurements paced alike
 * @param jitWarmupNanos     unrecorded round trips back to back before a path's first
 *                           measurements, ns in all ({@code >= 0}; at least 3000 round trips are run anyway)
 */
public record AgentSettings(String agentName, Set<String> clientNodes, long pollIntervalMillis, AdaptiveTarget adaptive,
                            long intervalNanos, long jitWarmupNanos) {

    /**
     * @throws IllegalArgumentException on a poll interval below 100 ms
     */
    public AgentSettings {
        clientNodes = Set.copyOf(clientNodes);
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("the round-trip interval must be >= 0, was " + intervalNanos + " ns");
        }
        if (jitWarmupNanos < 0) {
            throw new IllegalArgumentException("the JIT warm-up must be >= 0, was " + jitWarmupNanos + " ns");
        }
        if (pollIntervalMillis < 100) {
            throw new IllegalArgumentException("the poll interval must be >= 100 ms, was " + pollIntervalMillis);
        }
    }

    /**
     * @param clientNode a request's client node
     * @return whether this agent measures for it
     */
    boolean measuresFor(final String clientNode) {
        return clientNodes.isEmpty() || clientNodes.contains(clientNode);
    }
}
