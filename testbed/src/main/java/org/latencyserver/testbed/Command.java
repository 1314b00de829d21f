package org.latencyserver.testbed;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One program run with its arguments, and what it is for (said when it fails).
 *
 * <p>Immutable; thread-safe.
 *
 * @param argv    the program and its arguments
 * @param purpose e.g. {@code the namespace of host ws1}
 */
public record Command(List<String> argv, String purpose) {

    /** Copies the arguments. */
    public Command {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command needs a program");
        }
    }

    /**
     * @param purpose what it is for
     * @param argv    the program and its arguments
     * @return the command
     */
    public static Command of(final String purpose, final String... argv) {
        return new Command(List.of(argv), purpose);
    }

    /** @return the command as a shell would show it (arguments with spaces quoted) */
    public String line() {
        return argv.stream().map(a -> a.isEmpty() || a.contains(" ") ? "'" + a + "'" : a).collect(Collectors.joining(" "));
    }

    @Override
    public String toString() {
        return line();
    }
}
