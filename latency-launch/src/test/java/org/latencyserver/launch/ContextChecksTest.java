package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ContextChecksTest {

    @Test
    void aBlankOrMissingValueIsRefusedNamingTheOptionWhatItMustDoAndTheValue() {
        assertEquals("--host must be an address, was ' '", assertThrows(IllegalArgumentException.class,
            () -> ContextChecks.requireNonBlank("--host", " ", "be an address")).getMessage());
        assertEquals("--server must name the server, was 'null'", assertThrows(IllegalArgumentException.class,
            () -> ContextChecks.requireNonBlank("--server", null, "name the server")).getMessage());
        assertDoesNotThrow(() -> ContextChecks.requireNonBlank("--host", "127.0.0.1", "be an address"));
    }

    @Test
    void aPortIsAcceptedFromItsLowestValueTo65535Only() {
        assertDoesNotThrow(() -> ContextChecks.requirePort("--tcp-port", -1, -1));
        assertDoesNotThrow(() -> ContextChecks.requirePort("--port", ContextChecks.MAX_PORT, 0));
        assertEquals("--port must be 0..65535, was -1", assertThrows(IllegalArgumentException.class,
            () -> ContextChecks.requirePort("--port", -1, 0)).getMessage());
        assertEquals("--udp-port must be -1..65535, was 65536", assertThrows(IllegalArgumentException.class,
            () -> ContextChecks.requirePort("--udp-port", 65_536, -1)).getMessage());
    }

    @Test
    void aValueBelowItsLeastIsRefusedWithTheLeastAndTheValue() {
        assertDoesNotThrow(() -> ContextChecks.requireAtLeast("--poll-millis", 10, 10));
        assertEquals("--poll-millis must be >= 10, was 9", assertThrows(IllegalArgumentException.class,
            () -> ContextChecks.requireAtLeast("--poll-millis", 9, 10)).getMessage());
    }
}
