package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;

/**
 * A path of several ports is saved hop by hop — its readings and the load states its calibration is kept under — and
 * read back the same; a one-port connection's record is written exactly as before.
 */
class PathRecordPartsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);

    private static InputNode parsed(final String json) throws Exception {
        return InputNode.parse(json, InputFormat.JSON, new InputFaults("test"));
    }

    @Test
    void aPathsReadingsAreWrittenHopByHopAfterTheWorstAndReadBack() throws Exception {
        final MibReading reading = new MibReading((short) 12, (short) 30, PortPercents.of((short) 96, (short) 40, (short) 99));
        final ArrayNode array = JSON.createArrayNode();
        RecordPartsJson.writeMib(array, reading);
        assertEquals("[12,30,99,96,40,99]", array.toString());
        assertEquals(reading, RecordPartsJson.readMib(parsed(array.toString())));
    }

    @Test
    void aOnePortReadingIsWrittenAsBefore() throws Exception {
        final ArrayNode array = JSON.createArrayNode();
        RecordPartsJson.writeMib(array, new MibReading((short) 12, (short) 30, (short) 95));
        assertEquals("[12,30,95]", array.toString());
    }

    @Test
    void aPathsReadingWhoseWorstIsNotItsHopsWorstIsRefused() throws Exception {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RecordPartsJson.readMib(parsed("[12,30,40,96,40]")));
        assertTrue(refused.getMessage().contains("not the worst of the hops"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RecordPartsJson.readMib(parsed("[12,30,40,96]")), "four values");
    }

    @Test
    void aPathsLoadStateKeepsEveryHopAndAOnePortStateHasNoHopField() throws Exception {
        final ConnectionLoadState path = ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.loaded(95), PortState.NORMAL));
        final ObjectNode node = JSON.createObjectNode();
        RecordPartsJson.writeLoadState(node, path);
        assertEquals("{\"cpu_state\":11,\"port_state\":95,\"hop_states\":[95,0]}", node.toString());
        assertEquals(path, RecordPartsJson.readLoadState(parsed(node.toString())));

        final ObjectNode one = JSON.createObjectNode();
        RecordPartsJson.writeLoadState(one, new ConnectionLoadState(LOW_LOW, PortState.loaded(95)));
        assertFalse(one.has("hop_states"));
        assertEquals(new ConnectionLoadState(LOW_LOW, PortState.loaded(95)), RecordPartsJson.readLoadState(parsed(one.toString())));
    }
}
