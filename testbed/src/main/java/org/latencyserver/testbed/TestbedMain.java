package org.latencyserver.testbed;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code latency testbed}: a network of hosts on one machine — network namespaces on Linux bridges
 * with {@code tbf} bottlenecks, a real {@code snmpd} per host and switch, and iperf3 load — built
 * from a topology file ({@code docs/testbed.md}). Only parses the command line; each subcommand's
 * class does its work ({@link Testbed}, {@link Teardown}, {@link PortLoad}).
 *
 * <p>Exit statuses: 0 done; 1 a command or file failed (said on standard error: which command, its
 * standard error; whatever {@code up} made is removed); 2 a usage fault, or this machine cannot run
 * it (not root, {@code ip}, {@code tc}, {@code snmpd} or {@code iperf3} missing: named).
 *
 * <p>Not thread-safe; one run per process.
 */
@Command(name = "testbed", mixinStandardHelpOptions = true,
        subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, LoadCommand.class, ExecCommand.class},
        description = {"Hosts as network namespaces on Linux bridges (the switches), bottleneck ports (tc tbf), an",
            "snmpd per host and switch, and iperf3 load; addresses from 198.18.0.0/15 only, no default route.",
            "Needs root. Topology file format, status file layout and findings: docs/testbed.md."})
public final class TestbedMain implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /**
     * @param args the command line
     */
    public static void main(final String[] args) {
        final CommandLine commandLine = new CommandLine(new TestbedMain());
        final int status = args.length == 0 ? usage(commandLine) : commandLine.execute(args);
        System.exit(status);
    }

    private static int usage(final CommandLine commandLine) {
        commandLine.usage(System.err);
        return Subcommand.EXIT_CANNOT_RUN;
    }
}
