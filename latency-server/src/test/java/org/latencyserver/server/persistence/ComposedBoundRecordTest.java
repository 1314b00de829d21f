package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ComposedBound;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;
import org.latencyserver.server.table.ServedEstimate;

/** A composed path bound's methods and values are written with the connection's record and read back; older records load. */
class ComposedBoundRecordTest {

    private static final ComposedBound COMPOSED = new ComposedBound(BoundMethod.INDEPENDENT, 48.7, 41.25);

    private static ConnectionRow row(final ComposedBound composed) {
        final ConnectionLoadState load = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
            List.of(PortState.loaded(95), PortState.loaded(98)));
        final Estimate estimate = TestRows.average(3, 41.25, "composed");
        return ConnectionRow.initial(TestRows.spec(3, null, CalibrationMode.THESIS), 0)
            .withMib(new MibReading((short) 10, (short) 10, PortPercents.of((short) 95, (short) 97)), load, 1)
            .withServed(estimate, null, new ServedEstimate(estimate, null, EstimateSource.PROFILE, 0, "", composed));
    }

    private static InputNode parsed(final ObjectNode record) throws Exception {
        return InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test"));
    }

    @Test
    void theComposedBoundIsWrittenWithTheRecordAndReadBack() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(COMPOSED), null);
        assertEquals("{\"served\":\"independent hops\",\"union_ms\":48.7,\"independent_ms\":41.25}",
            record.get("composed_bound").toString());
        final ConnectionRecordCodec.SavedConnection saved = ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000);
        assertEquals(COMPOSED, saved.served().composed());
    }

    @Test
    void aRecordWithoutOneAsOlderFilesAreLoadsWithNone() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(null), null);
        assertFalse(record.has("composed_bound"), "nothing composed: nothing written");
        assertNull(ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000).served().composed());
    }

    @Test
    void aDamagedOneIsRefusedNamingTheField() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(COMPOSED), null);
        ((ObjectNode) record.get("composed_bound")).put("served", "guesswork");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000));
        assertTrue(e.getMessage().contains("composed_bound.served: unknown path bound method 'guesswork'"), e.getMessage());
        ((ObjectNode) record.get("composed_bound")).put("served", "union bound").put("union_ms", -1.0);
        final IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000));
        assertTrue(range.getMessage().startsWith("composed_bound: a composed bound needs"), range.getMessage());
    }
}
