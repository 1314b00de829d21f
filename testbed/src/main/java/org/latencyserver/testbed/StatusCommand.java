package org.latencyserver.testbed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code testbed status}: what runs, from the status file, checked against the machine. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Print the testbed's hosts, switches, ports (ifIndex, rate) and agents, and check that its",
            "namespaces and snmpd processes are there. Exit 0 when it is up and whole, 1 when something is gone,",
            "2 when it is not up. --json prints the status file (secrets included) for programs."})
final class StatusCommand extends Subcommand {

    @Option(names = "--json", description = "Print the status file as it is.")
    boolean json;

    @Override
    int run() throws TestbedSelection.UsageException, CommandFailedException, IOException, InterruptedException {
        final TestbedStatus status = selection.status();
        if (json) {
            System.out.println(status.toJson());
        } else {
            System.out.print(StatusText.of(status));
        }
        final List<String> gone = new ArrayList<>();
        for (final TestbedStatus.Host host : status.hosts()) {
            if (Processes.alive(host.snmpd().pid()).isEmpty()) {
                gone.add("the snmpd of " + host.name() + " (pid " + host.snmpd().pid() + ")");
            }
        }
        for (final TestbedStatus.Switch sw : status.switches()) {
            if (Processes.alive(sw.snmpd().pid()).isEmpty()) {
                gone.add("the snmpd of " + sw.name() + " (pid " + sw.snmpd().pid() + ")");
            }
        }
        if (Prerequisites.find("ip").isPresent() && Prerequisites.missing(Set.of()).isEmpty()) {
            final List<String> present = new Teardown(new TestbedNames(status.testbed()), selection.state(), new CommandRunner())
                .namespaces();
            status.hosts().stream().map(TestbedStatus.Host::namespace).filter(ns -> !present.contains(ns))
                .forEach(ns -> gone.add("namespace " + ns));
            status.switches().stream().map(TestbedStatus.Switch::namespace).filter(ns -> !present.contains(ns))
                .forEach(ns -> gone.add("namespace " + ns));
        }
        if (!gone.isEmpty()) {
            System.err.println("latency testbed: " + status.testbed() + " is not whole; gone: " + String.join(", ", gone));
            return EXIT_FAILED;
        }
        return EXIT_OK;
    }
}
