package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicJsonFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A small versioned layout, as the ready and status files are. */
    record Sample(@JsonProperty("format") String format, @JsonProperty("count") int count) {
    }

    @TempDir
    Path directory;

    @Test
    void writingCreatesMissingDirectoriesAndLeavesNoTemporaryFileBehind() throws IOException {
        final Path file = directory.resolve("a/b/sample.json");

        AtomicJsonFile.write(file, new Sample("sample/1", 3), JSON);

        assertEquals(new Sample("sample/1", 3), AtomicJsonFile.read(file, Sample.class, JSON, "a sample", Sample::format, "sample/1"));
        try (Stream<Path> left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList());
        }
    }

    @Test
    void rewritingReplacesTheWholeContent() throws IOException {
        final Path file = directory.resolve("sample.json");
        AtomicJsonFile.write(file, new Sample("sample/1", 1), JSON);

        AtomicJsonFile.write(file, new Sample("sample/1", 2), JSON);

        assertEquals(2, AtomicJsonFile.read(file, Sample.class, JSON, "a sample", Sample::format, "sample/1").count());
    }

    @Test
    void anotherFormatIsRefusedNamingTheFileAndBothFormats() throws IOException {
        final Path file = directory.resolve("sample.json");
        AtomicJsonFile.write(file, new Sample("sample/2", 1), JSON);

        final IOException refused = assertThrows(IOException.class,
            () -> AtomicJsonFile.read(file, Sample.class, JSON, "a sample", Sample::format, "sample/1"));

        assertEquals(file + ": format 'sample/2', expected 'sample/1'", refused.getMessage());
    }

    @Test
    void textThatIsNotTheLayoutIsRefusedNamingTheFileAndItsKind() throws IOException {
        final Path file = Files.writeString(directory.resolve("sample.json"), "not json");

        final IOException refused = assertThrows(IOException.class,
            () -> AtomicJsonFile.read(file, Sample.class, JSON, "a sample", Sample::format, "sample/1"));

        assertTrue(refused.getMessage().startsWith(file + ": not a sample: "), refused.getMessage());
    }
}
