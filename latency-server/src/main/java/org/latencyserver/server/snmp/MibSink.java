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

    /**
     * As {@link #polled(PolledValues)}, saying when the newest answer behind the values arrived (for
     * a sink that measures what follows; the default ignores it).
     *
     * @param values        the connection's polled values
     * @param answeredNanos monotonic time ({@code System.nanoTime()}) the newest answer behind them arrived
     */
    default void polled(final PolledValues values, final long answeredNanos) {
        polled(values);
    }
}
