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
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.SystemUnderTest;

/**
 * {@code ./latency profile measure} in its own JVM refusing what it must not measure: a pair whose
 * client core a load outside the profiler's control keeps out of its state, and an output directory
 * that does not exist.
 *
 * <p>Runs beside other classes (not {@code @Isolated} as {@link ProfilerProcessTest} is): nothing
 * here is compared with a measurement. Other work on the machine only makes the loaded core busier,
 * which is the refusal the first test expects; the second is refused before anything is measured.
 * Each test has its own directory and the kit's children (the profiler, its peer agent, stress-ng)
 * stop with it; no fixed port.
 */
class ProfilerRefusalProcessTest {

    @TempDir
    Path directory;

    @Test
    void aPairWhoseCoreALoadOutsideTheProfilersControlKeepsOutOfItsStateIsRefused() throws Exception {
        // Something else keeps the client core busy: LOW/LOW cannot be reached there.
        try (SystemUnderTest intruders = SystemUnderTest.measuringIn(directory)) {
            intruders.launchProgram("stress-ng", List.of("/usr/bin/stress-ng", "--cpu", "1", "--cpu-load", "95", "--taskset", "0",
                "--quiet")).start();
            final Path out = directory.resolve("refused.json");
            final Run run = measure("refused", "--out", out.toString(), "--sizes", "64", "--round-trips", "50", "--warmup", "20",
                "--pairs", "LOW/LOW");
            assertEquals(1, run.exit, run.output);
            assertTrue(run.output.contains("REFUSED") && run.output.contains("LOW/LOW (every size)"), run.output);
            assertTrue(run.output.matches("(?s).*LOW/LOW: the load read client \\d+ % \\((MEDIUM|HIGH)\\).*"), run.output);
            assertFalse(Files.exists(out));
            assertEquals(List.of(), run.leftInTemporaryDirectory(),
                "the refused run's own directory (its peer agent's log and IOR file) is gone with it");
        } // stress-ng and its workers stop with the kit
    }

    @Test
    void anOutputDirectoryThatDoesNotExistIsRefusedBeforeAnythingIsMeasured() throws Exception {
        final Path out = directory.resolve("no-such-directory/profile.json");
        final Run run = measure("no-directory", "--out", out.toString(), "--sizes", "64");
        assertEquals(2, run.exit, run.output);
        assertTrue(run.output.contains("no-such-directory does not exist"), run.output);
        assertFalse(run.output.contains("warming up"), "refused before the warm-up: " + run.output);
    }

    private record Run(int exit, String output, List<String> leftInTemporaryDirectory) {
    }

    /**
     * Runs {@code profile measure} (which starts its own peer agent) once; its log is {@code measure-NAME.log}
     * and its {@code java.io.tmpdir} is {@code tmp-NAME}, whose entries after the run are in the result.
     */
    private Run measure(final String name, final String... args) throws Exception {
        final Path temporary = Files.createDirectory(directory.resolve("tmp-" + name));
        try (SystemUnderTest system = SystemUnderTest.measuringIn(directory)) {
            final ChildProcess profiler = system.launch(Component.PROFILER).name("measure-" + name)
                .jvmOption("-Djava.io.tmpdir=" + temporary)
                // these tests check what is refused, not values: a short JIT warm-up will do
                .args("measure", "--jit-warmup-seconds", "2").args(args).start();
            final int exit = profiler.awaitExit(Duration.ofSeconds(300));
            try (Stream<Path> left = Files.list(temporary)) {
                return new Run(exit, profiler.log().replace('\r', '\n'),
                    left.map(path -> path.getFileName().toString()).sorted().toList());
            }
        }
    }
}
