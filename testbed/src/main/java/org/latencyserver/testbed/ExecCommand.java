package org.latencyserver.testbed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code testbed exec HOST -- CMD...}: runs a command in a host's (or switch's) namespace. */
@Command(name = "exec", mixinStandardHelpOptions = true,
        description = {"Run CMD in the namespace of HOST (or of a switch), with this terminal; exits with its status.",
            "E.g. ./latency testbed exec srv -- ./latency server --config srv.yaml"})
final class ExecCommand extends Subcommand {

    @Parameters(index = "0", paramLabel = "HOST", description = "A host's or switch's name.")
    String node;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CMD", description = "The command and its arguments (after --).")
    List<String> command;

    ExecCommand() {
        super(EnumSet.of(Prerequisites.Tool.IP));
    }

    @Override
    int run() throws TestbedSelection.UsageException, IOException, InterruptedException {
        final TestbedStatus status = selection.status();
        final String ns = status.namespaceOf(node).orElseThrow(() -> new TestbedSelection.UsageException("no host or switch '"
            + node + "' in testbed " + status.testbed() + "; hosts " + status.hosts().stream().map(TestbedStatus.Host::name).toList()
            + ", switches " + status.switches().stream().map(TestbedStatus.Switch::name).toList()));
        final List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        argv.addAll(command);
        final Process process;
        try {
            process = new ProcessBuilder(argv).inheritIO().start();
        } catch (IOException e) {
            throw new IOException("cannot run `" + String.join(" ", argv) + "`: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "testbed-exec-stopped"));
        return process.waitFor();
    }
}
