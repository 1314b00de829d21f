package org.latencyserver.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.ProfileSummary;

/**
 * {@code ./latency profile load FILE --server REF} against a running server: a bad file is refused
 * with every fault and the server keeps what it had; a good one is swapped in.
 */
class ProfileLoadProcessTest {

    @TempDir
    Path directory;

    @Test
    void aBadProfileIsRefusedWithItsFaultsAndAGoodOneIsSwappedIntoTheRunningServer() throws Exception {
        try (Testbed testbed = Testbed.start(directory, 1000, 30_000)) {
            final String thesis = Files.readString(Path.of("../profiles/thesis-tac4-corba.json"));
            final Path bad = directory.resolve("bad.json");
            Files.writeString(bad, thesis.replace("\"name\" : \"thesis-tac4-corba\"", "\"name\" : \"remeasured\"")
                .replace("\"mean_ms\" : 1.365", "\"mean_ms\" : -1"));
            final String[] refused = load(testbed, bad);
            assertEquals("1", refused[0], refused[1]);
            assertTrue(refused[1].contains("bad.json: cells[") && refused[1].contains("mean_ms"), refused[1]);
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

    private static List<String> names(final Testbed testbed) {
        return Stream.of(testbed.service.list_profiles()).map((ProfileSummary p) -> p.name).toList();
    }

    private static String[] load(final Testbed testbed, final Path file) throws Exception {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=logback.xml",
            "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
            "org.latencyserver.agent.profiler.ProfilerMain", "load", file.toString(), "--server", testbed.serverIor.toString()));
        final Path log = Files.createTempFile(testbed.directory, "load", ".log");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), Files.readString(log)};
    }
}
