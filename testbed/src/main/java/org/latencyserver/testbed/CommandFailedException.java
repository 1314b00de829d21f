package org.latencyserver.testbed;

/**
 * A command of the testbed failed: the message names it, what it was for, its exit status and its
 * standard error, so the person reading it needs nothing else.
 *
 * <p>Immutable once thrown.
 */
public final class CommandFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    /**
     * @param command  what ran
     * @param exitCode its exit status, or −1 when it did not start or ran too long
     * @param stderr   its standard error (or why it did not run)
     */
    public CommandFailedException(final Command command, final int exitCode, final String stderr) {
        super(command.purpose() + ": `" + command.line() + "` " + (exitCode < 0 ? "did not run" : "failed (exit " + exitCode + ")")
            + (stderr.isBlank() ? " with nothing on standard error" : ": " + stderr.strip()));
        this.exitCode = exitCode;
    }

    /** @return the command's exit status, or −1 when it did not start or ran too long */
    public int exitCode() {
        return exitCode;
    }
}
