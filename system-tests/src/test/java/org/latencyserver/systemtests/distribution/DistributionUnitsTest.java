package org.latencyserver.systemtests.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.Component;

/**
 * The distribution's service units: one per long-running component (each component that writes a
 * ready file, but the demo), each passing {@code systemd-analyze verify} (Debian's {@code systemd}) with
 * not one diagnostic, the shared drop-in included, once their {@code /opt/latency} is where the
 * tarball was unpacked (verify checks that every command it runs exists and is executable).
 */
class DistributionUnitsTest {

    private static final Path SYSTEMD_ANALYZE = Path.of("/usr/bin/systemd-analyze");

    @TempDir
    Path directory;

    @Test
    void everyLongRunningComponentHasAUnit() throws Exception {
        final UnpackedDistribution distribution = UnpackedDistribution.unpack(directory.resolve("unpacked"));

        final Set<String> expected = Arrays.stream(Component.values())
            .filter(c -> c.writesReadyFile() && c != Component.DEMO)
            .map(c -> "latency-" + c.command() + ".service").collect(Collectors.toCollection(TreeSet::new));

        assertEquals(expected, units(distribution.home().resolve("systemd")));
    }

    @Test
    void everyUnitPassesSystemdAnalyzeVerifyWithoutADiagnostic() throws Exception {
        if (!Files.isExecutable(SYSTEMD_ANALYZE)) {
            System.out.println("NOT CHECKED: the units with systemd-analyze verify; missing " + SYSTEMD_ANALYZE
                + " (Debian package systemd)");
            Assumptions.abort("no systemd-analyze");
        }
        final UnpackedDistribution distribution = UnpackedDistribution.unpack(directory.resolve("unpacked"));
        final Path unitDirectory = Files.createDirectories(directory.resolve("units"));
        copyWithHome(distribution.home().resolve("systemd"), unitDirectory, distribution.home());
        final Set<String> units = units(unitDirectory);

        final List<String> command = new ArrayList<>(List.of(SYSTEMD_ANALYZE.toString(), "verify"));
        units.forEach(unit -> command.add(unitDirectory.resolve(unit).toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // The units' own directory first (for the latency-.service.d drop-in), then the standard ones.
        builder.environment().put("SYSTEMD_UNIT_PATH", unitDirectory + ":");
        final Process verify = builder.start();
        final String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS), "systemd-analyze verify did not end");

        assertEquals(0, verify.exitValue(), output);
        assertEquals("", output.strip(), "systemd-analyze verify's diagnostics");
        System.out.println("units verified: " + units);
    }

    @Test
    void aBrokenUnitIsReportedByTheSameCheck() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(SYSTEMD_ANALYZE), "no systemd-analyze (reported by the test above)");
        final Path unit = directory.resolve("latency-broken.service");
        Files.writeString(unit, "[Service]\nType=exec\nExecStart=/bin/true\nRestart=sometimes\n");

        final Process verify = new ProcessBuilder(SYSTEMD_ANALYZE.toString(), "verify", unit.toString())
            .redirectErrorStream(true).start();
        final String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS));

        assertTrue(output.contains("latency-broken.service:4"), "a diagnostic naming the bad line: " + output);
    }

    private static Set<String> units(final Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".service"))
                .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** Copies the units and their drop-in directory, {@code /opt/latency} replaced by the unpacked home. */
    private static void copyWithHome(final Path from, final Path to, final Path home) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (final Path file : files.toList()) {
                final Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.writeString(target, Files.readString(file).replace("/opt/latency/", home + "/"));
                }
            }
        }
    }
}
