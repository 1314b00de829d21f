package org.latencyserver.testbed;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * What every {@code testbed} subcommand shares: the testbed selection, the check that the machine
 * can run it (exit {@value #EXIT_CANNOT_RUN} saying what is missing), and one line on standard
 * error for a failure: {@value #EXIT_FAILED} when a command or file failed, {@value #EXIT_CANNOT_RUN}
 * for a usage fault.
 *
 * <p>Not thread-safe; one run per instance.
 */
abstract class Subcommand implements Callable<Integer> {

    /** Exit status after success. */
    static final int EXIT_OK = 0;
    /** Exit status when a command or file failed (what was made is removed). */
    static final int EXIT_FAILED = 1;
    /** Exit status when it cannot run here or was asked wrongly. */
    static final int EXIT_CANNOT_RUN = 2;

    @Mixin
    TestbedSelection selection = new TestbedSelection();

    /** The programs this subcommand runs (checked with the capabilities), or null to check nothing. */
    private final Set<Prerequisites.Tool> tools;

    /** A subcommand that runs no program and needs no capability: nothing is checked. */
    Subcommand() {
        this.tools = null;
    }

    /** @param tools the programs this subcommand runs, checked with the capabilities before it runs */
    Subcommand(final Set<Prerequisites.Tool> tools) {
        this.tools = Set.copyOf(tools);
    }

    /** Runs the subcommand once the machine is known to be able to. */
    abstract int run() throws TestbedSelection.UsageException, CommandFailedException, IOException, InterruptedException;

    @Override
    public final Integer call() throws InterruptedException {
        if (tools != null) {
            final List<String> missing = Prerequisites.missing(tools);
            if (!missing.isEmpty()) {
                System.err.println("latency testbed: cannot run here; missing: " + String.join("; ", missing));
                return EXIT_CANNOT_RUN;
            }
        }
        try {
            return run();
        } catch (TestbedSelection.UsageException e) {
            System.err.println("latency testbed: " + e.getMessage());
            return EXIT_CANNOT_RUN;
        } catch (CommandFailedException | IOException e) {
            System.err.println("latency testbed: " + e.getMessage());
            return EXIT_FAILED;
        } catch (InterruptedException e) {
            System.err.println("latency testbed: " + e.getMessage());
            return EXIT_FAILED;
        }
    }
}
