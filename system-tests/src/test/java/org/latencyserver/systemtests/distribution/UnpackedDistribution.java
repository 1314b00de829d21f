package org.latencyserver.systemtests.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The tarball {@code mvn package} built ({@code ../distribution/target/latency-VERSION.tar.gz}), unpacked
 * with {@code tar xf} into a fresh directory, as an operator unpacks it.
 *
 * @param tarball the tarball
 * @param home    the unpacked distribution's root ({@code bin/}, {@code lib/}, {@code etc/}, ...)
 */
public record UnpackedDistribution(Path tarball, Path home) {

    /** Where the distribution module leaves its tarball, relative to this module. */
    static final Path BUILT = Path.of("../distribution/target");

    /**
     * @param into a fresh directory
     * @return the distribution, unpacked there
     */
    public static UnpackedDistribution unpack(final Path into) throws IOException, InterruptedException {
        final Path tarball;
        try (Stream<Path> files = Files.list(BUILT)) {
            final List<Path> tarballs = files.filter(f -> f.getFileName().toString().matches("latency-.+\\.tar\\.gz")).toList();
            assertEquals(1, tarballs.size(), "one tarball in " + BUILT.toAbsolutePath() + " (mvn package builds it): " + tarballs);
            tarball = tarballs.get(0).toAbsolutePath();
        }
        Files.createDirectories(into);
        final Process tar = new ProcessBuilder("tar", "xf", tarball.toString(), "-C", into.toString()).redirectErrorStream(true).start();
        final String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0, "tar xf " + tarball + ": " + output);
        final String name = tarball.getFileName().toString().replaceFirst("\\.tar\\.gz$", "");
        final Path home = into.resolve(name);
        assertTrue(Files.isExecutable(home.resolve("bin/latency")), "bin/latency in " + home);
        return new UnpackedDistribution(tarball, home);
    }

    /** @return {@code bin/latency} */
    public Path launcher() {
        return home.resolve("bin").resolve("latency");
    }
}
