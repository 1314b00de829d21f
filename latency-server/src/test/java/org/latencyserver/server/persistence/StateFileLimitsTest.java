package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * A state file holding a histogram over the bin limit is refused when read, as any
 * damaged state file is: set aside with the reason, and the server starts from its configuration.
 */
class StateFileLimitsTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path directory;

    private static UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec((short) 3, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, null, 256, 3, 0, null);
        final AtomicLong tickets = new AtomicLong(1);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(), EngineSettings.DEFAULT,
            tickets::incrementAndGet, () -> 42L);
    }

    /** Connection 3 measured once, with a histogram of 150 bins of 1 round trip each; the state saved. */
    private Path savedWith150Bins() throws Exception {
        final UpdateEngine engine = engine();
        engine.applyMib((short) 3, new MibReading((short) 10, (short) 10, (short) 10), 0);
        final Measurement measurement = TestMeasurements.oneRoundTripPerBin(150);
        assertTrue(engine.submitMeasurement((short) 3, engine.table().row((short) 3).pending().ticket(), measurement, "test", MS)
            .accepted());
        final Path file = directory.resolve("state.json");
        new StateStore(file, engine.table()).write();
        return file;
    }

    @Test
    void aHistogramOverTheLimitIsNamedWithItsPlaceAndSize() throws Exception {
        final Path file = savedWith150Bins();
        final String text = Files.readString(file);
        final InputFaultsException error = assertThrows(InputFaultsException.class,
            () -> StateCodec.decode(text, "state.json", 149));
        assertEquals(1, error.faults().size(), error::getMessage);
        final InputFault fault = error.faults().get(0);
        assertEquals("connections[0]", fault.path());
        assertEquals("measurement.histogram: 150 bins, more than the limit of 149 (limits.max_histogram_bins)", fault.reason());
        assertEquals(1, fault.line(), "a state file is one line");
        assertEquals(text.indexOf("{\"index_ref\"") + 1, fault.column(), "the column of the connection's record");
        assertEquals(1, StateCodec.decode(text, "state.json", 150).connections().size(), "at the limit it is read");
    }

    @Test
    void aStateFileOverTheLimitIsSetAsideAndNothingIsRestored() throws Exception {
        final Path file = savedWith150Bins();
        final UpdateEngine restarted = engine();
        assertEquals(0, new StateStore(file, restarted.table(), 149).restoreInto(restarted, 0));
        assertFalse(Files.exists(file), "moved aside");
        try (Stream<Path> files = Files.list(directory)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("state.json.corrupt-")));
        }
        assertEquals(null, restarted.table().row((short) 3).measurement(), "the connection starts from its configuration");
    }

    @Test
    void aStateFileWithinTheLimitIsRestored() throws Exception {
        final Path file = savedWith150Bins();
        final UpdateEngine restarted = engine();
        assertEquals(1, new StateStore(file, restarted.table(), 150).restoreInto(restarted, 0));
        assertEquals(150, restarted.table().row((short) 3).measurement().histogram().binCount());
    }
}
