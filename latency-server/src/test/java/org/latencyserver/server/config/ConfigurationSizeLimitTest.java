package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigurationSizeLimitTest {

    /**
     * Long enough for a starved JVM on a busy machine; a reader that does not stop at the limit never ends
     * (or runs out of memory), so this catches a hang without timing the refusal.
     */
    private static final Duration HANG = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @Test
    void aHundredMegabyteFileIsRefusedWithTheLimitBeforeItIsReadWhole() throws Exception {
        final Path huge = directory.resolve("huge.yaml");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(100L * 1024 * 1024);
        }
        final ConfigurationException error = assertTimeoutPreemptively(HANG,
            () -> ConfigFixture.refused(huge));
        assertEquals(1, error.faults().size(), error::getMessage);
        assertTrue(error.getMessage().contains("larger than the limit of 4 MiB"), error::getMessage);
        assertTrue(error.getMessage().contains("huge.yaml"), error::getMessage);
    }

    @Test
    void anEndlessFileIsRefusedWithTheLimitInsteadOfRunningOutOfMemory() {
        final Path endless = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(endless), "no /dev/zero here");
        final ConfigurationException error = assertTimeoutPreemptively(HANG,
            () -> ConfigFixture.refused(endless));
        assertTrue(error.getMessage().contains("larger than the limit of"), error::getMessage);
    }

    @Test
    void aFileJustWithinTheLimitIsReadAndJudgedOnItsContent() throws Exception {
        final Path padded = ConfigFixture.write(directory, "padded.yaml",
            "#".repeat(4 * 1024 * 1024 - 1) + "\n");
        final ConfigurationException error = ConfigFixture.refused(padded);
        assertTrue(error.getMessage().contains("the file is empty"), error::getMessage);
    }
}
