package org.latencyserver.server.snmp;

import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.table.MibReading;

/**
 * Delivers polled values to the update engine, as {@code PutMibUpdates} does, without waiting for
 * the update thread: each is merged on that thread with the row's latest values so a pushed end
 * keeps its last pushed value.
 *
 * <p>Thread-safe (it only enqueues onto the {@link EngineLoop}).
 */
public final class EngineFeed implements MibSink {

    private final EngineProxy engine;

    /**
     * @param loop the running update loop
     */
    public EngineFeed(final EngineLoop loop) {
        this.engine = new EngineProxy(loop);
    }

    @Override
    public void polled(final PolledValues values) {
        engine.postMib(values.indexRef(), latest -> values.mergeInto(latest == null ? MibReading.NONE : latest));
    }
}
