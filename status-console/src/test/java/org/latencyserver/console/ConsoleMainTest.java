package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The console's command line, run in this JVM: what it refuses, and what it leaves behind. */
class ConsoleMainTest {

    @TempDir
    Path directory;

    @Test
    void aRefusedOptionExitsTwoAndStillDeletesTheReadyFileAnEarlierRunLeft() throws Exception {
        final Path ready = Files.writeString(directory.resolve("console.ready.json"),
            "{ \"format\": \"latency-ready/1\", \"component\": \"console\", \"pid\": 1 }");

        final int exit = new CommandLine(new ConsoleMain()).execute("--server", "corbaloc::127.0.0.1:1/LatencyServer",
            "--refresh-millis", "50", "--ready-file", ready.toString());

        assertEquals(2, exit);
        assertTrue(Files.notExists(ready), "an earlier run's file would tell a waiting program this run serves");
    }

    @Test
    void aReadyFileWithOnceIsRefusedForOnceServesNothing() {
        final int exit = new CommandLine(new ConsoleMain()).execute("--server", "corbaloc::127.0.0.1:1/LatencyServer", "--once",
            "--ready-file", directory.resolve("console.ready.json").toString());

        assertEquals(2, exit);
    }
}
