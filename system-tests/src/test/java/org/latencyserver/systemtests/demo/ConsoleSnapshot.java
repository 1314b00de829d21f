package org.latencyserver.systemtests.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads the console's {@code /api/snapshot} JSON (the status-console's {@code ConsoleSnapshot}). */
final class ConsoleSnapshot {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ConsoleSnapshot() {
    }

    /** @return connection {@code indexRef}'s cpu_state code as the console shows it, or "absent" */
    static String cpuStateOf(final String json, final int indexRef) {
        try {
            for (final JsonNode connection : JSON.readTree(json).path("connections")) {
                if (connection.path("indexRef").asInt() == indexRef) {
                    return connection.path("cpuState").asText();
                }
            }
            return "absent";
        } catch (IOException e) {
            throw new UncheckedIOException("the console's snapshot is not JSON: " + json, e);
        }
    }
}
