package org.latencyserver.agent.measure;

/**
 * One round trip: send a message and wait for its echo. Implementations hold their payload and
 * must not allocate per call on their own side (the transport may).
 */
@FunctionalInterface
public interface RoundTrip {

    /**
     * @throws Exception when the peer cannot be reached or answers wrongly
     */
    void once() throws Exception;
}
