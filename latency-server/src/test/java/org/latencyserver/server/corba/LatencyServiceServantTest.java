package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.TRANSIENT;

/** How the servant maps the engine's typed answers to IDL: no ORB, a real engine loop. */
class LatencyServiceServantTest {

    private final AtomicInteger saves = new AtomicInteger();

    private static ConnectionSpec measured(final int indexRef) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            "port-a", 256, 3, 0, null);
    }

    private LatencyServiceServant servant(final EngineLoop loop, final UpdateEngine engine) {
        return new LatencyServiceServant(loop, () -> 0L, WriteGuard.open(), new ServerMetrics(engine.table(), loop::counters),
            profile -> { }, timeoutMillis -> saves.incrementAndGet() > 0);
    }

    @Test
    void aWriteTheUpdateThreadCanNoLongerApplyIsTransientCompletedNoAndChangesNothing() {
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(measured(1), 0))), Map.of(),
            EngineSettings.DEFAULT, () -> 7L, () -> 0L);
        final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        final LatencyServiceServant servant = servant(loop, engine);
        loop.start();
        loop.close();

        final TRANSIENT refused = assertThrows(TRANSIENT.class,
            () -> servant.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 20, (short) 30), (short) 1));
        assertEquals(CompletionStatus.COMPLETED_NO, refused.completed, "the caller may send it again");
        assertEquals(WriteCalls.ENGINE_UNAVAILABLE_MINOR, refused.minor);
        assertTrue(refused.getMessage().contains("was not applied: the update thread is stopped"), refused.getMessage());
        assertEquals(MibReading.NONE, loop.query().row((short) 1).latest());
        assertEquals(0, saves.get(), "nothing applied, so nothing to wait for on disk");
    }

    @Test
    void aHistogramThatDoesNotExistYetIsEstimateUnavailableWithTheReason() {
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(measured(3), 0))), Map.of(),
            EngineSettings.DEFAULT, () -> 7L, () -> 0L);
        final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        final EstimateUnavailable unavailable = assertThrows(EstimateUnavailable.class,
            () -> servant(loop, engine).estimate_at_percentile((short) 3, 99));
        assertEquals(3, unavailable.index_ref);
        assertEquals("connection 3 has not been measured yet", unavailable.reason);
    }
}
