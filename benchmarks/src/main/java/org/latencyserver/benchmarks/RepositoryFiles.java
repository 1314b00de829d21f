package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository files an end-to-end harness reads: found from the working directory (the
 * repository root or {@code benchmarks/}, where the harnesses are run from), and the thesis
 * testbed's configuration rewritten so that it can be used from elsewhere. Starting and stopping
 * processes is the process kit's ({@code org.latencyserver.launch.ProcessKit}).
 */
final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /**
     * @param relative a path relative to the repository root, e.g. {@code profiles}
     * @return that path from the working directory (the root itself or its {@code benchmarks/})
     */
    static Path locate(final String relative) {
        final Path here = Path.of(relative);
        return Files.exists(here) ? here : Path.of("..").resolve(relative);
    }

    /**
     * @param work where to write it
     * @return the thesis testbed's configuration with its profile paths made absolute
     * @throws IOException when a file cannot be read or written
     */
    static Path testbedConfig(final Path work) throws IOException {
        final Path config = work.resolve("thesis-testbed.yaml");
        Files.writeString(config, Files.readString(locate("examples/thesis-testbed.yaml"))
            .replace("../profiles/", locate("profiles").toAbsolutePath().normalize() + "/"));
        return config;
    }
}
