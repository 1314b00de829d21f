package org.latencyserver.orb;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * A picocli command run in the test's JVM as its main runs it, with what it wrote to standard error.
 * Standard error is this process's for the duration: not for tests that run in parallel.
 *
 * @param exit          the exit code {@code execute} returned
 * @param standardError what it wrote to standard error
 */
public record CommandRun(int exit, String standardError) {

    /**
     * @param command   the command object (a main's {@code @Command} class)
     * @param arguments its command line
     * @return its exit code and standard error
     */
    public static CommandRun of(final Object command, final String... arguments) {
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
        try {
            final int exit = new CommandLine(command).execute(arguments);
            return new CommandRun(exit, errors.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
