package org.latencyserver.server.standby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.ReplicaRecords;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/** The standby's applier: the primary's rows in its table, no measurement asked for until it takes over. */
class ReplicaApplierTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong tickets = new AtomicLong();

    /** One QoS 3 connection, measured: a load state makes it ask for a measurement. */
    private UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 1024, 3, 0, null, CalibrationMode.THESIS, 0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    @Test
    void aRowAwaitingAMeasurementIsCopiedWithoutOneAndTheTakeoverAsksForIt() {
        final UpdateEngine primary = engine();
        primary.applyMib((short) 4, new MibReading((short) 10, (short) 20, (short) 30), 0);
        primary.tick(SECOND);
        final ConnectionRow awaiting = primary.table().row((short) 4);
        assertTrue(awaiting.updateRequired(), "the primary awaits a measurement: " + awaiting);

        final UpdateEngine standbyEngine = engine();
        final ReplicaApplier applier = new ReplicaApplier(standbyEngine, InputLimits.DEFAULT.maxHistogramBins(), () -> SECOND);
        try {
            applier.apply(ReplicaRecords.encode(List.of(awaiting)), 30_000);
            final ConnectionRow copy = standbyEngine.table().row((short) 4);
            assertEquals(awaiting.latest(), copy.latest());
            assertNull(copy.pending(), "a standby opens no measurement");
            assertEquals(1, applier.recordsApplied());
        } finally {
            final List<Command.RestoreConnection> wanted = applier.handOver();
            assertEquals(1, wanted.size());
            assertTrue(wanted.get(0).applyTo(standbyEngine, 2 * SECOND));
        }
        assertNotNull(standbyEngine.table().row((short) 4).pending(), "the new primary asks for the measurement");
    }

    @Test
    void afterTheHandOverNoRecordIsAppliedAndTheSenderIsToldSo() {
        final UpdateEngine standbyEngine = engine();
        final ReplicaApplier applier = new ReplicaApplier(standbyEngine, InputLimits.DEFAULT.maxHistogramBins(), () -> 0L);
        applier.handOver();
        final byte[] records = ReplicaRecords.encode(List.of(engine().table().row((short) 4)));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> applier.apply(records, 30_000));
        assertTrue(refused.getMessage().contains("no longer stands by"), refused.getMessage());
    }

    @Test
    void throughTheUpdateThreadARecordIsRememberedForTheHandOverOrRefusedAfterItNeverAppliedAndForgotten() throws Exception {
        final UpdateEngine primary = engine();
        primary.applyMib((short) 4, new MibReading((short) 10, (short) 20, (short) 30), 0);
        primary.tick(SECOND);
        final byte[] awaiting = ReplicaRecords.encode(List.of(primary.table().row((short) 4)));
        final UpdateEngine standbyEngine = engine();
        final org.latencyserver.server.engine.EngineLoop loop =
            new org.latencyserver.server.engine.EngineLoop(standbyEngine, System::nanoTime, Long.MAX_VALUE / 4);
        loop.start();
        final ReplicaApplier applier = new ReplicaApplier(standbyEngine, InputLimits.DEFAULT.maxHistogramBins(), () -> SECOND);
        try {
            applier.handOver(); // it served as primary ...
            applier.useLoop(new org.latencyserver.server.engine.EngineProxy(loop));
            applier.resumeThroughLoop(); // ... stepped down, and stands by again with its update thread running
            applier.apply(awaiting, 30_000);
            assertEquals(1, applier.recordsApplied());
            assertEquals(1, applier.handOver().size(), "the record applied through the loop is in the hand-over's list");
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> applier.apply(awaiting, 30_000));
            assertTrue(refused.getMessage().contains("no longer stands by"), refused.getMessage());
            assertEquals(1, applier.recordsApplied(), "after the hand-over nothing is applied");
            assertTrue(applier.handOver().isEmpty(), "nor remembered");
        } finally {
            applier.close();
            loop.close();
        }
    }
}
