package org.latencyserver.server.snmp;

import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * Delivers polled values to the update engine, as {@code PutMibUpdates} does, without waiting for
 * the update thread: each is merged on that thread with the row's latest values so a pushed end
 * keeps its last pushed value.
 *
 * <p>Thread-safe (it only enqueues onto the {@link EngineLoop}).
 */
public final class EngineFeed implements MibSink {

    private final EngineLoop loop;

    /**
     * @param loop the running update loop
     */
    public EngineFeed(final EngineLoop loop) {
        this.loop = loop;
    }

    @Override
    public void polled(final PolledValues values) {
        loop.post(nowNanos -> {
            final UpdateEngine engine = loop.engine();
            final ConnectionRow row = engine.table().row(values.indexRef());
            final MibReading current = row == null ? MibReading.NONE : row.latest();
            engine.applyMib(values.indexRef(), values.mergeInto(current == null ? MibReading.NONE : current), nowNanos);
        });
    }
}
