package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;

/**
 * {@code ./latency profile measure} as a planner runs it, in its own JVM, with real load drivers on
 * the two cores: a small profile that validates with histograms, built over two runs with
 * {@code --resume}; and a pair refused because a load the profiler does not control keeps its core
 * out of the state.
 */
class ProfilerProcessTest {

    @TempDir
    Path directory;

    @Test
    void aProfileMeasuredInThreeResumedRunsValidatesWithHistogramsAndProvenance() throws Exception {
        final Path out = directory.resolve("small.json");
        final Result first = measure("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100", "--warmup", "50",
            "--pairs", "LOW/LOW,LOW/MEDIUM,LOW/HIGH");
        assertEquals(0, first.exit, first.output);
        assertFalse(Files.exists(out), "three of six pairs make no profile yet:\n" + first.output);
        assertTrue(first.output.contains("6 cells measured and kept in"), first.output);
        final JsonNode partial = new ObjectMapper().readTree(directory.resolve("small.json.partial.json").toFile());
        final double lowLowMean = meanOf(partial, "LOW/LOW", 64);

        // one more pair on its own: its progress counts only its own cells, not the resumed file's
        final Result one = measure("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100", "--warmup", "50",
            "--resume", "--pairs", "MEDIUM/MEDIUM");
        assertEquals(0, one.exit, one.output);
        assertTrue(one.output.contains("2/2 cells  MEDIUM/MEDIUM"), one.output);
        assertTrue(one.output.contains("8 cells measured and kept in"), one.output);

        final Result second = measure("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100", "--warmup", "50",
            "--resume");
        assertEquals(0, second.exit, second.output);
        assertTrue(second.output.contains("resuming: 8 cells already measured"), second.output);
        final Profile profile = ProfileJson.read(out); // validates: every fault would throw
        assertEquals(12, profile.cells().size());
        assertTrue(profile.cells().stream().allMatch(ProfileCell::hasHistogram));
        assertTrue(profile.cells().stream().allMatch(c -> c.sampleCount() == 100 && c.histogram().totalCount() == 100));
        assertEquals("latency profile measure", profile.provenance().source());
        assertTrue(profile.provenance().method().contains("achieved utilisation per core"), profile.provenance().method());
        assertEquals(lowLowMean, profile.cells().stream().filter(c -> c.cpuStates().toString().equals("LOW/LOW")
            && c.messageSizeBytes() == 64).findFirst().orElseThrow().meanMillis(), 1e-12, "the resumed run kept the first run's cell");
        assertFalse(Files.exists(directory.resolve("small.json.partial.json")), "the partial file is gone once written");
    }

    @Test
    void aPairWhoseCoreALoadOutsideTheProfilersControlKeepsOutOfItsStateIsRefused() throws Exception {
        // Something else keeps the client core busy: LOW/LOW cannot be reached there.
        final Process intruder = new ProcessBuilder("/usr/bin/stress-ng", "--cpu", "1", "--cpu-load", "95", "--taskset", "0",
            "--quiet").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            final Path out = directory.resolve("refused.json");
            final Result result = measure("--out", out.toString(), "--sizes", "64", "--round-trips", "50", "--warmup", "20",
                "--pairs", "LOW/LOW");
            assertEquals(1, result.exit, result.output);
            assertTrue(result.output.contains("REFUSED") && result.output.contains("LOW/LOW (every size)"), result.output);
            assertTrue(result.output.matches("(?s).*LOW/LOW: the load read client \\d+ % \\((MEDIUM|HIGH)\\).*"), result.output);
            assertFalse(Files.exists(out));
        } finally {
            for (final ProcessHandle worker : intruder.descendants().toList()) {
                worker.destroy();
            }
            intruder.destroy();
            intruder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static double meanOf(final JsonNode partial, final String pair, final int size) {
        for (final JsonNode cell : partial) {
            if (cell.get("pair").asText().equals(pair) && cell.get("messageSizeBytes").asInt() == size) {
                return cell.get("meanMillis").asDouble();
            }
        }
        throw new AssertionError("no " + pair + " " + size + " B cell in " + partial);
    }

    @Test
    void anOutputDirectoryThatDoesNotExistIsRefusedBeforeAnythingIsMeasured() throws Exception {
        final Path out = directory.resolve("no-such-directory/profile.json");
        final Result result = measure("--out", out.toString(), "--sizes", "64");
        assertEquals(2, result.exit, result.output);
        assertTrue(result.output.contains("no-such-directory does not exist"), result.output);
        assertFalse(result.output.contains("warming up"), "refused before the warm-up: " + result.output);
    }

    private record Result(int exit, String output) {
    }

    private Result measure(final String... args) throws Exception {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=logback.xml",
            "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
            // these tests check what is recorded and refused, not the values: a short JIT warm-up will do
            ProfilerMain.class.getName(), "measure", "--jit-warmup-seconds", "2"));
        command.addAll(List.of(args));
        final Path log = Files.createTempFile(directory, "measure", ".log");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(300, TimeUnit.SECONDS), "profile measure finished");
        return new Result(process.exitValue(), Files.readString(log).replace('\r', '\n'));
    }
}
