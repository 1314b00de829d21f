package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.launch.Installation;
import picocli.CommandLine.Option;

/**
 * The options that say which testbed a command is about, shared by every subcommand: its name
 * ({@code --name}), else the name in {@code --topology}, else the only testbed with a state
 * directory in this checkout; and where its state is ({@code --state-dir}, default
 * {@code .latency/testbed/NAME/} of the checkout, or of the working directory).
 *
 * <p>Not thread-safe; picocli fills it once.
 */
public final class TestbedSelection {

    @Option(names = "--name", paramLabel = "NAME", description = "The testbed's name (default: the topology file's name:).")
    String name;

    @Option(names = "--topology", paramLabel = "FILE", description = "The topology file (YAML, docs/testbed.md).")
    Path topologyFile;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where its configs, pids and status.json are (default: .latency/testbed/NAME of the checkout).")
    Path stateDir;

    /**
     * A usage fault: the command line or the topology file; the main prints it and exits 2.
     */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(final String message) {
            super(message);
        }
    }

    /** @return the topology file's topology, renamed by {@code --name} when given */
    Topology topology() throws UsageException {
        if (topologyFile == null) {
            throw new UsageException("--topology FILE is needed (e.g. examples/testbed/one-switch.yaml)");
        }
        try {
            final Topology topology = TopologyReader.load(topologyFile);
            return name == null ? topology : topology.named(checkedName(name));
        } catch (InputFaultsException e) {
            throw new UsageException("the topology file is refused:\n" + e.getMessage());
        }
    }

    /** @return the testbed's name */
    String testbedName() throws UsageException {
        if (name != null) {
            return checkedName(name);
        }
        if (topologyFile != null) {
            return topology().name();
        }
        if (stateDir != null) {
            return checkedName(stateDir.toAbsolutePath().normalize().getFileName().toString());
        }
        final Path all = Installation.current().stateDirectory().resolve("testbed");
        final List<String> known;
        try (Stream<Path> dirs = Files.isDirectory(all) ? Files.list(all) : Stream.empty()) {
            known = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UsageException("--name NAME is needed (cannot list " + all + ": " + e.getMessage() + ")");
        }
        if (known.size() == 1) {
            return checkedName(known.get(0));
        }
        throw new UsageException("--name NAME is needed" + (known.isEmpty() ? " (no testbed is up in " + all + ")"
            : " (testbeds here: " + known + ")"));
    }

    /** @return its state directory */
    StateDirectory state() throws UsageException {
        return stateDir != null ? new StateDirectory(stateDir.toAbsolutePath().normalize())
            : StateDirectory.standard(Installation.current().stateDirectory(), testbedName());
    }

    /** @return the running testbed's status */
    TestbedStatus status() throws UsageException {
        final StateDirectory state = state();
        if (!Files.exists(state.statusFile())) {
            throw new UsageException("testbed " + testbedName() + " is not up (no " + state.statusFile() + ")");
        }
        try {
            return TestbedStatus.read(state.statusFile());
        } catch (IOException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static String checkedName(final String candidate) throws UsageException {
        try {
            return new TestbedNames(candidate).testbed();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--name: " + e.getMessage());
        }
    }
}
