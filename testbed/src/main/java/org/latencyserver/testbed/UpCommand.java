package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import picocli.CommandLine.Command;

/** {@code testbed up}: builds a testbed from its topology, after removing leftovers of the same name. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Build the testbed of --topology FILE: hosts and switches as network namespaces, bridges, veth",
            "cables, tbf bottlenecks and an snmpd per host and switch; first removes what a testbed of the same name",
            "left. Writes STATE/status.json (docs/testbed.md). Needs root, ip, tc, snmpd and iperf3 (else exit 2)."})
final class UpCommand extends Subcommand {

    UpCommand() {
        super(EnumSet.allOf(Prerequisites.Tool.class));
    }

    @Override
    int run() throws TestbedSelection.UsageException, CommandFailedException, IOException, InterruptedException {
        final Topology topology = selection.topology();
        final StateDirectory state = selection.state();
        final TestbedStatus status = new Testbed(topology, Path.of(selection.topologyFile.toString()), state,
            new CommandRunner()).up();
        System.out.print(StatusText.of(status));
        System.out.println("status file: " + state.statusFile());
        return EXIT_OK;
    }
}
