package org.latencyserver.launch;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The command-line option of a component that tells programs when it is ready: {@code --ready-file
 * PATH}. A picocli mixin; every long-running component's main takes it this way
 * ({@code @Mixin ReadinessOptions readiness = new ReadinessOptions();}).
 *
 * <p>The contract the option promises, kept by {@link ServingLifecycle} (or by a component that
 * manages its own file the same way): a stale file at {@code PATH} is deleted at start; once the
 * component is ready, the {@link ReadyFile} is written there atomically; it is deleted again at a
 * clean stop. When a component counts as ready and which keys it writes are per component, in
 * {@code docs/ready-files.md} (the row named by the command's name, which the help text shows).
 *
 * <p>Not thread-safe: picocli fills it while parsing the command line, the main thread reads it after.
 */
public final class ReadinessOptions {

    @Option(names = "--ready-file", paramLabel = "PATH",
        description = "Once ready, write this JSON file for programs, atomically (when, and what it holds: the"
            + " ${COMMAND-NAME} row of docs/ready-files.md); deleted at start and at a clean stop.")
    private Path readyFile;

    /** @return where to write the ready file, or null when {@code --ready-file} was not given */
    public Path readyFile() {
        return readyFile;
    }
}
