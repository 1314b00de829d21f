package org.latencyserver.server.snmp;

/**
 * Where the poller delivers changed values (the update engine, through {@link EngineFeed}, or a
 * test's recorder).
 *
 * <p>Implementations must be thread-safe and must not block: the poller's thread calls them.
 */
@FunctionalInterface
public interface MibSink {

    /**
     * @param values the connection's polled values; only called when they changed since the last call
     */
    void polled(PolledValues values);
}
