package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.launch.ChildProcess;

/**
 * {@code ./latency profile load FILE --server REF} against a running server: a bad file is refused
 * with every fault and the server keeps what it had; a good one is swapped in.
 */
class ProfileLoadProcessTest {

    @TempDir
    Path directory;

    @Test
    void aBadProfileIsRefusedWithItsFaultsAndAGoodOneIsSwappedIntoTheRunningServer() throws Exception {
        try (AgentTestbed testbed = AgentTestbed.start(directory, 1000, 30_000)) {
            final String thesis = Files.readString(Path.of("../profiles/thesis-tac4-corba.json"));
            final Path bad = directory.resolve("bad.json");
            Files.writeString(bad, thesis.replace("\"name\" : \"thesis-tac4-corba\"", "\"name\" : \"remeasured\"")
                .replace("\"mean_ms\" : 1.365", "\"mean_ms\" : -1"));
            final String[] refused = load(testbed, bad);
            assertEquals("1", refused[0], refused[1]);
            // The fault names the file, where in it (line:column, since the location-aware reader) and the cell's field.
            assertTrue(refused[1].matches("(?s).*bad\\.json:\\d+:\\d+: cells\\[.*") && refused[1].contains("mean_ms"), refused[1]);
            assertTrue(refused[1].contains("REFUSED"), refused[1]);
            assertFalse(names(testbed).contains("remeasured"), "nothing of the bad file reached the server");

            final Path good = directory.resolve("remeasured.json");
            Files.writeString(good, thesis.replace("\"name\" : \"thesis-tac4-corba\"", "\"name\" : \"remeasured\""));
            final String[] loaded = load(testbed, good);
            assertEquals("0", loaded[0], loaded[1]);
            assertTrue(loaded[1].contains("LOADED " + good + ": remeasured, TAC-4 CORBA, 48 cells"), loaded[1]);
            assertTrue(names(testbed).contains("remeasured"));
            assertTrue(names(testbed).contains("thesis-tac4-corba"), "the other profiles keep serving");
        }
    }

    private static List<String> names(final AgentTestbed testbed) {
        return Stream.of(testbed.service.list_profiles()).map((ProfileSummary p) -> p.name).toList();
    }

    private static String[] load(final AgentTestbed testbed, final Path file) throws Exception {
        final ChildProcess profiler = testbed.startProfiler("load", file.toString(), "--server", testbed.serverIor.toString());
        return new String[] {Integer.toString(profiler.awaitExit(Duration.ofSeconds(60))), profiler.log()};
    }
}
