package org.latencyserver.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {

    @TempDir
    Path directory;

    @Test
    void aFileIsReadWholeAsUtf8() throws Exception {
        final Path file = directory.resolve("t.yaml");
        Files.writeString(file, "name: größe\nsteps: []\n", StandardCharsets.UTF_8);
        assertEquals("name: größe\nsteps: []\n", InputFiles.readText(file, "topology file"));
    }

    @Test
    void anUnreadableFileIsOneFaultForTheWholeFileNamingWhatItIs() {
        final Path missing = directory.resolve("missing.yaml");
        final InputFaultsException e = assertThrows(InputFaultsException.class,
            () -> InputFiles.readText(missing, "scenario file"));
        assertEquals(1, e.faults().size());
        assertEquals(missing.toString(), e.faults().get(0).source());
        assertTrue(e.faults().get(0).reason().startsWith("cannot read the scenario file: "), e::getMessage);
        assertTrue(e.faults().get(0).reason().contains("NoSuchFileException"), e::getMessage);
    }
}
