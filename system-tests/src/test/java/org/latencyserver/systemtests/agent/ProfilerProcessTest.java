package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.agent.profiler.ProfileRun;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.MachineContention.OtherWork;
import org.latencyserver.systemtests.kit.MachineContention.QuietCores;
import org.latencyserver.systemtests.kit.MachineContention;
import org.latencyserver.systemtests.kit.SystemUnderTest;

/**
 * {@code ./latency profile measure} as a planner runs it, in its own JVM, with real load drivers on
 * the two cores: a small profile that validates with histograms, built over three runs with
 * {@code --resume}. What it refuses without measuring anything is {@link ProfilerRefusalProcessTest},
 * which runs beside other classes.
 *
 * <p>Beside other work on the machine (another build, {@code stress-ng}) the profiler rightly
 * refuses a state it cannot reach: the resumed-runs test waits for quiet cores, then accepts a
 * refusal only when it is the documented one and other work was measured beside it
 * ({@link MachineContention}), and says on its output what it could not check.
 */
@Isolated // runs alone (junit-platform.properties): drives CPU load with stress-ng and measures round trips
class ProfilerProcessTest {

    @TempDir
    Path directory;
    private int measureRuns;

    @Test
    void aProfileMeasuredInThreeResumedRunsValidatesWithHistogramsAndProvenanceOrRefusesOnlyWhatOtherWorkMadeUnreachable()
        throws Exception {
        // LOW needs a core nearly idle: wait for quiet cores, and beside other work that never
        // stops, accept a pair refused while it ran (the product's right answer), never one refused
        // on a quiet machine, and check every run whichever way its pairs went.
        final QuietCores quiet = MachineContention.awaitQuietCores(Duration.ofSeconds(60));
        final List<String> checked = new ArrayList<>(List.of(quiet.describe()));
        final Path out = directory.resolve("small.json");
        final Path partialFile = directory.resolve("small.json.partial.json");
        final Set<String> kept = new LinkedHashSet<>();
        try {
            final List<String> firstPairs = List.of("LOW/LOW", "LOW/MEDIUM", "LOW/HIGH");
            final Result first = measureOrRefuseUnderOtherWork("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100",
                "--warmup", "50", "--pairs", String.join(",", firstPairs));
            kept.addAll(first.measuredOf(firstPairs, kept));
            if (first.refused().isEmpty()) {
                assertTrue(first.output.contains("6 cells measured and kept in"), first.output);
            }
            assertFalse(Files.exists(out), "three of six pairs make no profile yet:\n" + first.output);
            assertPartialHolds(partialFile, kept);
            checked.add("run 1: " + first.describe());
            // the 64 B means of the cells kept by runs 1 and 2, to find unchanged in the profile
            final Map<String, Double> meanByKeptPair = new TreeMap<>();
            for (final String pair : kept) {
                meanByKeptPair.put(pair, meanOf(partialFile, pair, 64));
            }

            // one more pair on its own: its progress counts only its own cells, not the resumed file's
            final Result one = measureOrRefuseUnderOtherWork("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100",
                "--warmup", "50", "--resume", "--pairs", "MEDIUM/MEDIUM");
            if (one.refused().isEmpty()) {
                assertTrue(one.output.contains("2/2 cells  MEDIUM/MEDIUM"), one.output);
                kept.add("MEDIUM/MEDIUM");
                assertTrue(one.output.contains(2 * kept.size() + " cells measured and kept in"), one.output);
            }
            assertPartialHolds(partialFile, kept);
            checked.add("run 2: " + one.describe());
            for (final String pair : kept) {
                meanByKeptPair.putIfAbsent(pair, meanOf(partialFile, pair, 64));
            }

            final Result second = measureOrRefuseUnderOtherWork("--out", out.toString(), "--sizes", "64,512", "--round-trips", "100",
                "--warmup", "50", "--resume");
            if (!kept.isEmpty()) {
                assertTrue(second.output.contains("resuming: " + 2 * kept.size() + " cells already measured"), second.output);
            }
            kept.addAll(second.measuredOf(ProfileRun.PAIRS.stream().map(Object::toString).toList(), kept));
            checked.add("run 3: " + second.describe());
            if (!second.refused().isEmpty()) {
                assertFalse(Files.exists(out), "a refused pair leaves no profile");
                assertPartialHolds(partialFile, kept);
                checked.add("NOT CHECKED: the written profile (a pair was refused under other work; see above)");
                return;
            }
            final Profile profile = ProfileJson.read(out); // validates: every fault would throw
            assertEquals(12, profile.cells().size());
            assertTrue(profile.cells().stream().allMatch(ProfileCell::hasHistogram));
            assertTrue(profile.cells().stream().allMatch(c -> c.sampleCount() == 100 && c.histogram().totalCount() == 100));
            assertEquals("latency profile measure", profile.provenance().source());
            assertTrue(profile.provenance().method().contains("achieved utilisation per core"), profile.provenance().method());
            if (meanByKeptPair.isEmpty()) {
                checked.add("NOT CHECKED: that a resumed run keeps earlier cells (runs 1 and 2 kept none)");
            }
            meanByKeptPair.forEach((pair, mean) -> assertEquals(mean, profile.cells().stream()
                .filter(c -> c.cpuStates().toString().equals(pair) && c.messageSizeBytes() == 64).findFirst().orElseThrow()
                .meanMillis(), 1e-12, "the resumed run kept " + pair));
            checked.add("the profile validates with histograms and kept " + meanByKeptPair.keySet() + " from the runs before");
            assertFalse(Files.exists(partialFile), "the partial file is gone once written");
        } finally {
            System.out.println("ProfilerProcessTest, three resumed runs:\n  " + String.join("\n  ", checked));
        }
    }

    /** The partial file holds both sizes of exactly the pairs kept, or is absent when none are. */
    private static void assertPartialHolds(final Path partialFile, final Set<String> kept) throws IOException {
        if (kept.isEmpty()) {
            assertFalse(Files.exists(partialFile), "no pair kept, no partial file");
            return;
        }
        final Map<String, Integer> cellsByPair = new TreeMap<>();
        for (final JsonNode cell : new ObjectMapper().readTree(partialFile.toFile())) {
            cellsByPair.merge(cell.get("pair").asText(), 1, Integer::sum);
        }
        final Map<String, Integer> expected = new TreeMap<>();
        kept.forEach(pair -> expected.put(pair, 2));
        assertEquals(expected, cellsByPair, "the partial file keeps both sizes of every pair measured, and nothing refused");
    }

    private static double meanOf(final Path partialFile, final String pair, final int size) throws IOException {
        final JsonNode partial = new ObjectMapper().readTree(partialFile.toFile());
        for (final JsonNode cell : partial) {
            if (cell.get("pair").asText().equals(pair) && cell.get("messageSizeBytes").asInt() == size) {
                return cell.get("meanMillis").asDouble();
            }
        }
        throw new AssertionError("no " + pair + " " + size + " B cell in " + partial);
    }

    /**
     * A run of {@code profile measure}: its exit, its output, and the other work on the machine
     * while it ran.
     */
    private record Result(int exit, String output, OtherWork otherWork) {

        Set<String> refused() {
            return ProfilerRefusal.refusedPairs(output);
        }

        /** @return the pairs of {@code chosen} this run measured and kept: neither refused nor kept before */
        List<String> measuredOf(final List<String> chosen, final Set<String> keptBefore) {
            final Set<String> refused = refused();
            return chosen.stream().filter(pair -> !refused.contains(pair) && !keptBefore.contains(pair)).toList();
        }

        String describe() {
            final Set<String> refused = refused();
            return (refused.isEmpty() ? "every pair measured" : "refused " + refused + " under other work") + "; "
                + otherWork.describe();
        }
    }

    private Result measureOrRefuseUnderOtherWork(final String... args) throws Exception {
        final Result result = measure(args);
        ProfilerRefusal.assertMeasuredOrRefusedUnderOtherWork(result.exit, result.output, result.otherWork);
        return result;
    }

    /**
     * Runs {@code profile measure} (which starts its own peer agent) once; each run has its own log, {@code measure-N.log},
     * and its own {@code java.io.tmpdir}, {@code tmp-N}, empty again when the run has ended.
     */
    private Result measure(final String... args) throws Exception {
        measureRuns++;
        final Path temporary = Files.createDirectory(directory.resolve("tmp-" + measureRuns));
        try (OtherWork otherWork = MachineContention.sampleOtherWork(); SystemUnderTest system = SystemUnderTest.measuringIn(directory)) {
            final ChildProcess profiler = system.launch(Component.PROFILER).name("measure-" + measureRuns)
                .jvmOption("-Djava.io.tmpdir=" + temporary)
                // these tests check what is recorded and refused, not the values: a short JIT warm-up will do
                .args("measure", "--jit-warmup-seconds", "2").args(args).start();
            final int exit = profiler.awaitExit(Duration.ofSeconds(300));
            final String output = profiler.log().replace('\r', '\n');
            try (Stream<Path> left = Files.list(temporary)) {
                assertEquals(List.of(), left.toList(), "the run's own directory (its peer agent's log and IOR file) is gone:\n"
                    + output);
            }
            return new Result(exit, output, otherWork);
        }
    }
}
