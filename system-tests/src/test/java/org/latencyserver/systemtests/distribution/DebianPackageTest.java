package org.latencyserver.systemtests.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package {@code mvn package} builds beside the tarball ({@code latency-server_VERSION_all.deb}),
 * read with {@code dpkg-deb}: its control fields, the files it installs (the tarball's tree in
 * {@code /opt/latency}, {@code /usr/bin/latency}, the units, the user, the example configurations as
 * conffiles), maintainer scripts a shell parses, and, extracted, a {@code bin/latency} that runs. The package
 * is never installed into the machine that runs the tests.
 */
class DebianPackageTest {

    private static final Path DPKG_DEB = Path.of("/usr/bin/dpkg-deb");

    @TempDir
    Path directory;

    private Path deb;

    @BeforeEach
    void findThePackage() throws Exception {
        if (!Files.isExecutable(DPKG_DEB)) {
            System.out.println("NOT CHECKED: the Debian package; missing " + DPKG_DEB + " (Debian package dpkg)");
            Assumptions.abort("no dpkg-deb");
        }
        try (Stream<Path> files = Files.list(UnpackedDistribution.BUILT)) {
            final List<Path> debs = files.filter(f -> f.getFileName().toString().matches("latency-server_.+_all\\.deb")).toList();
            assertEquals(1, debs.size(), "one package in " + UnpackedDistribution.BUILT.toAbsolutePath() + ": " + debs);
            deb = debs.get(0).toAbsolutePath();
        }
    }

    @Test
    void itIsAnArchitectureIndependentPackageThatNeedsAJava17RuntimeOnly() throws Exception {
        assertEquals("latency-server", run(DPKG_DEB.toString(), "-f", deb.toString(), "Package").strip());
        assertEquals("all", run(DPKG_DEB.toString(), "-f", deb.toString(), "Architecture").strip());
        assertEquals("default-jre-headless (>= 2:1.17) | java17-runtime-headless",
            run(DPKG_DEB.toString(), "-f", deb.toString(), "Depends").strip());
    }

    @Test
    void itInstallsTheDistributionTheUnitsTheUserAndTheConfigurationAsConffiles() throws Exception {
        final String contents = run(DPKG_DEB.toString(), "-c", deb.toString());
        final Pattern line = Pattern.compile("^(\\S+) \\S+\\s+\\d+ \\S+ \\S+ \\./(\\S+)(?: -> (\\S+))?$", Pattern.MULTILINE);
        final Set<String> files = new TreeSet<>();
        String launcherMode = null;
        String link = null;
        final Matcher m = line.matcher(contents);
        while (m.find()) {
            files.add("/" + m.group(2));
            if (m.group(2).equals("opt/latency/bin/latency")) {
                launcherMode = m.group(1);
            }
            if (m.group(2).equals("usr/bin/latency")) {
                link = m.group(3);
            }
        }
        assertEquals("-rwxr-xr-x", launcherMode, contents);
        assertEquals("/opt/latency/bin/latency", link);
        assertTrue(files.contains("/opt/latency/lib/components.tsv"), "the components registry");
        assertTrue(files.stream().anyMatch(f -> f.matches("/opt/latency/lib/latency-server-.+\\.jar")), "the server's jar");
        assertTrue(files.contains("/usr/lib/sysusers.d/latency.conf"), "the latency user");
        assertTrue(files.contains("/lib/systemd/system/latency-.service.d/10-common.conf"), "the units' shared drop-in");
        final Set<String> units = files.stream().filter(f -> f.startsWith("/lib/systemd/system/") && f.endsWith(".service"))
            .map(f -> f.substring(f.lastIndexOf('/') + 1)).collect(Collectors.toCollection(TreeSet::new));
        final Set<String> tarballUnits = files.stream().filter(f -> f.startsWith("/opt/latency/systemd/") && f.endsWith(".service"))
            .map(f -> f.substring(f.lastIndexOf('/') + 1)).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(tarballUnits, units, "every unit of the tarball, where systemd finds packaged units");
        assertEquals(7, units.size(), units::toString);

        final Path control = directory.resolve("control");
        run(DPKG_DEB.toString(), "-e", deb.toString(), control.toString());
        final Set<String> conffiles = new TreeSet<>(Files.readAllLines(control.resolve("conffiles")));
        assertEquals(Set.of("/etc/latency/latency.env", "/etc/latency/secrets.env", "/etc/latency/server.yaml"), conffiles);
        assertTrue(files.containsAll(conffiles), "each conffile is in the package");
        for (final String script : List.of("postinst", "prerm", "postrm")) {
            assertTrue(Files.isExecutable(control.resolve(script)), script + " executable");
            run("/bin/sh", "-n", control.resolve(script).toString());
        }
    }

    @Test
    void itsLauncherRunsFromTheExtractedTreeAndTellsItsVersion() throws Exception {
        final Path root = directory.resolve("root");
        run(DPKG_DEB.toString(), "-x", deb.toString(), root.toString());

        final String version = run(root.resolve("opt/latency/bin/latency").toString(), "version").strip();

        assertEquals(Files.readString(root.resolve("opt/latency/lib/VERSION")).strip(), version);
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
    }

    private static String run(final String... command) throws Exception {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        assertEquals(0, process.exitValue(), () -> String.join(" ", command) + ": " + output);
        return output;
    }
}
