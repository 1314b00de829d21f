package org.latencyserver.server.launch;

import java.nio.file.Path;

/**
 * The checks this module's contexts ({@link ServerContext}, {@link NamingServiceContext}) make in
 * {@code conclude()}: each refuses with a {@link LaunchFailure.Kind#INVALID_CONTEXT} failure naming
 * the setting, which the mains turn into their usage exit status.
 *
 * <p>Stateless; thread-safe.
 */
final class ContextRules {

    private ContextRules() {
    }

    /**
     * @param condition what must hold
     * @param message   what is wrong when it does not, naming the setting
     * @throws LaunchFailure {@link LaunchFailure.Kind#INVALID_CONTEXT} with the message when it does not hold
     */
    static void require(final boolean condition, final String message) throws LaunchFailure {
        if (!condition) {
            throw invalid(message);
        }
    }

    /** @return an {@link LaunchFailure.Kind#INVALID_CONTEXT} failure with this message */
    static LaunchFailure invalid(final String message) {
        return new LaunchFailure(LaunchFailure.Kind.INVALID_CONTEXT, message);
    }

    /**
     * @param host the address to listen on
     * @throws LaunchFailure when it is null or blank
     */
    static void requireHost(final String host) throws LaunchFailure {
        require(host != null && !host.isBlank(), "the host must not be blank");
    }

    /**
     * A component writes its IOR file and, later, its ready file: were they one file, the second
     * write would replace the first.
     *
     * @param iorFile   the IOR file, or null
     * @param readyFile the ready file, or null
     * @throws LaunchFailure naming the file when both name the same file
     */
    static void requireDistinctIorAndReadyFiles(final Path iorFile, final Path readyFile) throws LaunchFailure {
        require(iorFile == null || readyFile == null
                || !iorFile.toAbsolutePath().normalize().equals(readyFile.toAbsolutePath().normalize()),
            "the IOR file and the ready file are the same file " + readyFile);
    }
}
