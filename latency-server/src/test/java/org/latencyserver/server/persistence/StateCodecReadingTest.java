package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;

class StateCodecReadingTest {

    private static List<InputFault> faults(final String text) {
        final InputFaultsException error = assertThrows(InputFaultsException.class,
            () -> StateCodec.decode(text, "state.json", 20_000));
        error.faults().forEach(f -> assertEquals("state.json", f.source(), f::toString));
        return error.faults();
    }

    @Test
    void everyBadRecordIsReportedAtItsColumnNotOnlyTheFirst() {
        final String text = "{\"format\":\"latency-server-state/2\",\"connections\":[{\"qos\":3},{\"index_ref\":2}]}";
        final List<InputFault> faults = faults(text);
        assertEquals(List.of("connections[0]", "connections[1]"), faults.stream().map(InputFault::path).toList(),
            faults::toString);
        assertEquals("index_ref: expected a whole number", faults.get(0).reason());
        assertEquals("qos: expected a whole number", faults.get(1).reason());
        assertEquals(text.indexOf("{\"qos\"") + 1, faults.get(0).column());
        assertEquals(text.indexOf("{\"index_ref\"") + 1, faults.get(1).column());
    }

    @Test
    void aBadFormatAndABadRecordAreReportedTogether() {
        final List<InputFault> faults = faults("{\"format\":\"latency-server-state/9\",\"connections\":[{\"qos\":3}]}");
        assertEquals(List.of("format", "connections[0]"), faults.stream().map(InputFault::path).toList(), faults::toString);
        assertEquals("expected 'latency-server-state/3', found 'latency-server-state/9'", faults.get(0).reason());
    }

    @Test
    void malformedJsonIsOneFaultAtItsPlace() {
        final List<InputFault> faults = faults("{\"format\":\n");
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("file", faults.get(0).path());
        assertEquals(2, faults.get(0).line(), faults::toString);
        assertTrue(faults.get(0).reason().startsWith("malformed or truncated JSON: "), faults::toString);
    }

    @Test
    void anEmptyFileNamesTheFormatItShouldHave() {
        final List<InputFault> faults = faults("");
        assertEquals(1, faults.size(), faults::toString);
        assertTrue(faults.get(0).reason().contains("format 'latency-server-state/3'"), faults::toString);
    }

    @Test
    void aCurrentFileNeedsAGeneration() {
        final List<InputFault> faults = faults("{\"format\":\"latency-server-state/3\",\"generation\":0,\"connections\":[]}");
        assertEquals(List.of("generation"), faults.stream().map(InputFault::path).toList(), faults::toString);
        assertEquals("expected a whole number of at least 1", faults.get(0).reason());
    }

    @Test
    void anOlderFormatWithoutRecordsReadsAsGenerationZero() throws Exception {
        final StateCodec.Decoded decoded = StateCodec.decode("{\"format\":\"latency-server-state/2\",\"connections\":[]}",
            "state.json", 20_000);
        assertEquals(0, decoded.generation());
        assertTrue(decoded.connections().isEmpty());
    }
}
