package org.latencyserver.testbed;

import java.io.IOException;
import java.util.EnumSet;
import picocli.CommandLine.Command;

/** {@code testbed down}: removes a testbed by PID and by name. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = {"Remove the testbed: end its snmpd, loads and every process in its namespaces, delete the",
            "namespaces (with their interfaces, bridges and qdiscs) and its state directory. Safe to repeat."})
final class DownCommand extends Subcommand {

    DownCommand() {
        super(EnumSet.of(Prerequisites.Tool.IP));
    }

    @Override
    int run() throws TestbedSelection.UsageException, CommandFailedException, IOException, InterruptedException {
        final TestbedNames names = new TestbedNames(selection.testbedName());
        final Teardown.Removed removed = new Teardown(names, selection.state(), new CommandRunner()).run();
        System.out.println(removed.any()
            ? "testbed " + names.testbed() + " removed: " + removed.namespaces().size() + " namespaces, "
                + removed.processes() + " processes"
            : "testbed " + names.testbed() + ": nothing to remove");
        return EXIT_OK;
    }
}
