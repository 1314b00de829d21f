package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;

/**
 * Real CPU load on the demo's pinned cores, following the scenario: each emulated workstation that
 * has a core of its own gets a load driver ({@code stress-ng --cpu 1 --cpu-load P --taskset CORE}),
 * restarted at each new level, as the profiler drives load (thesis Table 3.2.1-1). The drivers are
 * children of the demo's {@link ProcessKit}, so stopping the kit stops them too.
 *
 * <p>Not thread-safe, like the kit it starts children with: the demo calls it under the lock it
 * holds the kit with.
 */
final class LoadDrivers implements ScenarioFollower.CpuLoad {

    /** Debian's package {@code stress-ng} installs it here. */
    private static final Path STRESS_NG = Path.of("/usr/bin/stress-ng");

    /** The command line of one driver: (percent, core) to program and arguments. */
    @FunctionalInterface
    interface DriverCommand {
        /**
         * @param percent the utilisation to drive, 1..100
         * @param core    the core to drive it on
         * @return the program and its arguments
         */
        List<String> of(int percent, int core);
    }

    /** {@code stress-ng}: one worker at the given load on the given core, quiet. */
    static final DriverCommand STRESS_NG_DRIVER = (percent, core) -> List.of(STRESS_NG.toString(), "--cpu", "1",
        "--cpu-load", Integer.toString(percent), "--taskset", Integer.toString(core), "--quiet");

    private final ProcessKit kit;
    private final Map<String, Integer> coreByNode;
    private final DriverCommand driverCommand;
    private final Map<String, ChildProcess> drivers = new HashMap<>();
    private final Map<String, Integer> percentByNode = new HashMap<>();

    /**
     * @param kit           starts and stops the drivers
     * @param coreByNode    node name to the core its agent and load are pinned to
     * @param driverCommand the command line of one driver ({@link #STRESS_NG_DRIVER})
     */
    LoadDrivers(final ProcessKit kit, final Map<String, Integer> coreByNode, final DriverCommand driverCommand) {
        this.kit = kit;
        this.coreByNode = Map.copyOf(coreByNode);
        this.driverCommand = driverCommand;
    }

    /** @return whether each agent can be pinned to its own core: taskset is there and there are 2 cores or more */
    static boolean canPinCores() {
        return Files.isExecutable(Path.of("/usr/bin/taskset")) && Runtime.getRuntime().availableProcessors() >= 2;
    }

    /** @return whether stress-ng is installed (Debian: apt-get install stress-ng) */
    static boolean available() {
        return Files.isExecutable(STRESS_NG);
    }

    /**
     * Drives the node's core to the given utilisation; a no-op when it already is, or when the node
     * has no core of its own.
     *
     * @param node    a node
     * @param percent 0..100; 0 stops its driver
     */
    @Override
    public void drive(final String node, final int percent) throws IOException, InterruptedException {
        final Integer core = coreByNode.get(node);
        if (core == null || Integer.valueOf(percent).equals(percentByNode.get(node))) {
            return;
        }
        final ChildProcess previous = drivers.remove(node);
        if (previous != null) {
            kit.stop(previous);
        }
        percentByNode.put(node, percent);
        if (percent > 0) {
            drivers.put(node, kit.launchProgram("load-" + node, driverCommand.of(Math.min(100, percent), core)).start());
        }
    }
}
