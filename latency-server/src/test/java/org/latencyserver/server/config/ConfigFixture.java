package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.latencyserver.core.input.InputFault;

/**
 * Small configuration documents for the tests, and a way to edit them and to mark the line a
 * fault must point at ({@value #MARK} at the end of a line).
 */
final class ConfigFixture {

    /** Marks, at the end of a line, where the expected fault is. */
    static final String MARK = "# <-";

    /** A valid configuration without profiles: two TAC-4 nodes, one link, one QoS 3 connection. */
    static final String BASE = String.join("\n",
        "server:",                         // 1
        "  name: LatencyServer",           // 2
        "nodes:",                          // 3
        "  - name: ws1",                   // 4
        "    node_id: 1",                  // 5
        "    workstation_type: TAC-4",     // 6
        "  - name: ws2",                   // 7
        "    node_id: 2",                  // 8
        "    workstation_type: TAC-4",     // 9
        "links:",                          // 10
        "  - name: port-a",                // 11
        "connections:",                    // 12
        "  - index_ref: 1",                // 13
        "    client: ws1",                 // 14
        "    peer: ws2",                   // 15
        "    link: port-a",                // 16
        "    message_size_bytes: 256",     // 17
        "    qos: 3",                      // 18
        "");

    private ConfigFixture() {
    }

    /**
     * @param document a document
     * @param edits    pairs of (text that must occur exactly once, its replacement)
     * @return the edited document
     */
    static String edit(final String document, final String... edits) {
        String result = document;
        for (int i = 0; i < edits.length; i += 2) {
            final int first = result.indexOf(edits[i]);
            if (first < 0 || result.indexOf(edits[i], first + 1) >= 0) {
                throw new IllegalArgumentException("the fixture must contain '" + edits[i] + "' exactly once");
            }
            result = result.replace(edits[i], edits[i + 1]);
        }
        return result;
    }

    /** @return the 1-based number of the line carrying {@link #MARK} */
    static int markedLine(final String document) {
        final List<String> lines = document.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(MARK)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("no marked line in:\n" + document);
    }

    /** @return the 1-based column where {@code token} starts on the marked line */
    static int markedColumn(final String document, final String token) {
        final String line = document.lines().toList().get(markedLine(document) - 1);
        final int index = line.indexOf(token);
        if (index < 0) {
            throw new IllegalArgumentException("'" + token + "' is not on the marked line: " + line);
        }
        return index + 1;
    }

    static Path write(final Path directory, final String name, final String yaml) throws IOException {
        final Path file = directory.resolve(name);
        Files.writeString(file, yaml);
        return file;
    }

    /** Writes a document that must be refused and loads it; see {@link #refused(Path)}. @return its faults */
    static List<InputFault> faultsOf(final Path directory, final String name, final String yaml) throws IOException {
        return refused(write(directory, name, yaml)).faults();
    }

    /** As {@link #faultsOf}, for a document with exactly one fault. @return that fault */
    static InputFault onlyFault(final Path directory, final String name, final String yaml) throws IOException {
        final List<InputFault> faults = faultsOf(directory, name, yaml);
        assertEquals(1, faults.size(), faults::toString);
        return faults.get(0);
    }

    /** Loads a file that must be refused, and checks every fault names it. */
    static ConfigurationException refused(final Path file) {
        final ConfigurationException error = assertThrows(ConfigurationException.class, () -> ConfigurationLoader.load(file),
            "the configuration should have been refused");
        error.faults().forEach(fault -> assertEquals(file.toString(), fault.source(), fault.toString()));
        return error;
    }
}
