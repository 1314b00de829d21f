package org.latencyserver.server.snmp;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;

/**
 * Delivers polled values to the update engine, as {@code PutMibUpdates} does, without waiting for
 * the update thread: each is merged on that thread with the row's latest values so a pushed end
 * keeps its last pushed value. On that thread it also tells how long the values took from their
 * SNMP answer to being applied (the row, and its estimate, are published right after).
 *
 * <p>Thread-safe (it only enqueues onto the {@link EngineLoop}).
 */
public final class EngineFeed implements MibSink {

    private final EngineProxy engine;
    /** Given an answer's time on the update thread: counts the time since on the poller's clock (one for every command). */
    private final LongConsumer answerApplied;

    /**
     * @param loop the running update loop
     */
    public EngineFeed(final EngineLoop loop) {
        this(loop, nanos -> { }, System::nanoTime);
    }

    /**
     * @param loop                the running update loop
     * @param answerToUpdateNanos told, on the update thread, the time from an answer to its values being applied, ns
     * @param nanoClock           the poller's monotonic clock
     */
    public EngineFeed(final EngineLoop loop, final LongConsumer answerToUpdateNanos, final LongSupplier nanoClock) {
        this.engine = new EngineProxy(loop);
        this.answerApplied = answered -> answerToUpdateNanos.accept(nanoClock.getAsLong() - answered);
    }

    @Override
    public void polled(final PolledValues values) {
        polled(values, Long.MIN_VALUE);
    }

    @Override
    public void polled(final PolledValues values, final long answeredNanos) {
        engine.post(new Command.PolledMib(values.indexRef(), values.update(), answeredNanos, answerApplied));
    }
}
