package org.latencyserver.testbed;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Locale;
import org.latencyserver.core.input.InputFaultsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code testbed load PORT}: drives a bottleneck port to a utilisation with iperf3. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Drive bottleneck PORT (a host's name: the port toward it; or a link's name) to --percent of its",
            "rate with iperf3 over UDP, from another host (--from) to a host beyond the port, for --seconds or until",
            "stopped (Ctrl-C, SIGTERM, or load PORT --stop from anywhere). --background returns at once."})
final class LoadCommand extends Subcommand {

    @Parameters(index = "0", paramLabel = "PORT", description = "The bottleneck port: a host's or a link's name.")
    String port;

    @Option(names = "--percent", paramLabel = "P", description = "Utilisation, percent of the port's rate; above 100 overloads it.")
    Double percent;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
            description = "How long; 0 (the default) until stopped.")
    long seconds;

    @Option(names = "--from", paramLabel = "HOST", description = "The sending host (default: the first other host on the sending side).")
    String from;

    @Option(names = "--background", description = "Start the load and return; stop it with --stop or down.")
    boolean background;

    @Option(names = "--stop", description = "End the load on PORT that another process started.")
    boolean stop;

    /** The highest percent: twice the rate is overload enough. */
    private static final double MAX_PERCENT = 200;

    LoadCommand() {
        super(EnumSet.of(Prerequisites.Tool.IP, Prerequisites.Tool.IPERF3));
    }

    @Override
    int run() throws TestbedSelection.UsageException, CommandFailedException, IOException, InterruptedException {
        final TestbedStatus status = selection.status();
        final StateDirectory state = selection.state();
        if (stop) {
            System.out.println(PortLoad.stop(state, port) ? "load on " + port + " stopped" : "no load on " + port);
            return EXIT_OK;
        }
        if (percent == null || !(percent > 0) || percent > MAX_PERCENT) {
            throw new TestbedSelection.UsageException("--percent must be in (0, " + (int) MAX_PERCENT + "], was " + percent);
        }
        if (seconds < 0) {
            throw new TestbedSelection.UsageException("--seconds must be >= 0, was " + seconds);
        }
        final Topology topology;
        try {
            topology = TopologyReader.load(state.root().resolve("topology.yaml")).named(status.testbed());
        } catch (InputFaultsException e) {
            throw new IOException("the testbed's copy of its topology is refused: " + e.getMessage(), e);
        }
        final LoadTarget target;
        try {
            target = LoadTarget.of(status, topology, port, from);
        } catch (IllegalArgumentException e) {
            throw new TestbedSelection.UsageException(e.getMessage());
        }
        final PortLoad.Running running = new PortLoad(state, new CommandRunner()).start(target, percent, seconds);
        System.out.println(String.format(Locale.ROOT, "load on %s: %s%% of %s Mbit/s from %s to %s (iperf3 -b %d, pids %d/%d)%s",
            port, plain(percent), plain(target.limit().rateMbit()), target.sender().name(), target.receiver().name(),
            LoadRate.payloadBitsPerSecond(percent, target.limit().rateMbit()), running.client().pid(), running.server().pid(),
            seconds == 0 ? ", until stopped" : ", for " + seconds + " s"));
        if (background) {
            return EXIT_OK;
        }
        final Thread onStop = new Thread(() -> {
            try {
                PortLoad.stop(state, port);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "testbed-load-stopped");
        Runtime.getRuntime().addShutdownHook(onStop);
        System.out.println(PortLoad.awaitEnd(running));
        return EXIT_OK;
    }

    private static String plain(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
