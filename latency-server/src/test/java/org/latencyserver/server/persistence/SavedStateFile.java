package org.latencyserver.server.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A saved state file changed as an operator's hand or a fault would change it, for the restart tests: read as JSON,
 * changed in place, written back, and its journal removed so that the file alone is what the next start reads.
 */
final class SavedStateFile {

    /** A change to the parsed file; may assert on what it finds. */
    @FunctionalInterface
    interface Change {
        void apply(JsonNode root) throws IOException;
    }

    private SavedStateFile() {
    }

    /**
     * @param file   the state file
     * @param change what to change in its parsed tree
     */
    static void edit(final Path file, final Change change) throws IOException {
        final ObjectMapper json = new ObjectMapper();
        final JsonNode root = json.readTree(file.toFile());
        change.apply(root);
        Files.writeString(file, json.writeValueAsString(root));
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".journal"));
    }
}
