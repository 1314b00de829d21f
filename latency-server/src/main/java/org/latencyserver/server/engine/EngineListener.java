package org.latencyserver.server.engine;

import org.latencyserver.server.table.ConnectionRow;

/**
 * Told of every published change, on the update thread. Implementations must return at once
 * (hand the work to their own threads): a slow listener would stall the table.
 */
public interface EngineListener {

    /**
     * @param before the row that was published
     * @param after  the row now published
     */
    default void rowChanged(ConnectionRow before, ConnectionRow after) {
    }

    /**
     * A measurement request opened (or was re-issued after a time-out).
     *
     * @param row the row with its {@link ConnectionRow#pending()} request
     */
    default void measurementRequested(ConnectionRow row) {
    }
}
