package org.latencyserver.launch;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * Runs a main's body in the test's JVM with its standard error captured, for the tests of what a
 * main reports and the status it exits with. {@code System.err} is the JVM's: the tests of a class
 * that uses this run one at a time.
 */
public final class StderrCapture {

    /**
     * @param status the body's exit status
     * @param stderr what it wrote to standard error
     */
    public record Run(int status, String stderr) {
    }

    private StderrCapture() {
    }

    /** @return the body's status and what it wrote to standard error; System.err is restored after */
    public static Run run(final Callable<Integer> body) throws Exception {
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            final int status = body.call();
            return new Run(status, captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
