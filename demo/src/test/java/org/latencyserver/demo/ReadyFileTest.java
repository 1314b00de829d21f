package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ready file is one contract: what the demo writes, a reader reads back whole. */
class ReadyFileTest {

    @TempDir
    Path directory;

    private static ReadyFile sample() {
        return new ReadyFile(ReadyFile.FORMAT, "corbaloc::127.0.0.1:4000/NameService", "LatencyServer", "http://127.0.0.1:1/",
            null, List.of(new ReadyFile.Agent("lab1", "demo-agent-lab1", 0)), List.of(new ReadyFile.Agent("lab2", "peers/lab2", null)),
            Map.of("server", 42L), true, "/s.yaml", "/w", "/w/estimates.mirror");
    }

    @Test
    void whatTheDemoWritesIsReadBackWholeAndItsAgentsAndPidsAreFound() throws Exception {
        final Path file = directory.resolve("ready.json");
        sample().writeTo(file);
        final ReadyFile read = ReadyFile.read(file);
        assertEquals(sample(), read);
        assertEquals(0, read.clientAgentOf("lab1").orElseThrow().core());
        assertEquals("peers/lab2", read.peerAgentOf("lab2").orElseThrow().name());
        assertEquals(42L, read.pidOf("server").orElseThrow());
        assertTrue(read.pidOf("console").isEmpty());
    }

    @Test
    void keysANewerDemoAddsAreIgnoredButAnotherFormatIsRefused() throws Exception {
        final Path file = directory.resolve("ready.json");
        sample().writeTo(file);
        Files.writeString(file, Files.readString(file).replaceFirst("\\{", "{ \"added_later\": 1,"));
        assertEquals(sample(), ReadyFile.read(file));
        Files.writeString(file, Files.readString(file).replace(ReadyFile.FORMAT, "latency-demo-ready/9"));
        final IOException refused = assertThrows(IOException.class, () -> ReadyFile.read(file));
        assertTrue(refused.getMessage().contains("latency-demo-ready/9"), refused.getMessage());
    }
}
