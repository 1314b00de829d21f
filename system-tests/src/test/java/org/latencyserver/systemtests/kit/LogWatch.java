package org.latencyserver.systemtests.kit;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.launch.ChildProcess;

/**
 * Waits for a line in a child's log: for tests of what a program prints for people (an agent's
 * account of a ticket it measured, a lost binding it reports), never to learn that a component is
 * ready (its ready file says that; {@link SystemUnderTest#start}).
 *
 * <p>Stateless; thread-safe.
 */
public final class LogWatch {

    private static final long POLL_MILLIS = 50;

    private LogWatch() {
    }

    /** As {@link #await(ChildProcess, String, int, Duration)} from the log's start. */
    public static Matcher await(final ChildProcess child, final String regex, final Duration timeout) throws InterruptedException {
        return await(child, regex, 0, timeout);
    }

    /**
     * @param child    the process
     * @param regex    what to find
     * @param fromChar look only after this many characters of the log (a later event than one seen)
     * @param timeout  how long to wait
     * @return the first match
     * @throws AssertionError when it does not appear in time or the process exits first, quoting the log
     */
    public static Matcher await(final ChildProcess child, final String regex, final int fromChar, final Duration timeout)
        throws InterruptedException {
        final Pattern pattern = Pattern.compile(regex);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            final String text = child.log();
            final Matcher matcher = pattern.matcher(text);
            if (matcher.find(Math.min(fromChar, text.length()))) {
                return matcher;
            }
            if (!child.isAlive()) {
                throw new AssertionError(child.name() + " exited before logging /" + regex + "/:\n" + text);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(child.name() + " did not log /" + regex + "/ within " + timeout + ":\n" + text);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
