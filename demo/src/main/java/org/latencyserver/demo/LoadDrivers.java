package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Real CPU load on the demo's pinned cores, following the scenario: each emulated workstation that
 * has a core of its own gets a load driver ({@code stress-ng --cpu 1 --cpu-load P --taskset CORE}),
 * restarted at each new level, as the profiler drives load (thesis Table 3.2.1-1).
 *
 * <p>Used from one thread (the demo's step follower) and from the shutdown path; methods are
 * synchronized because the two may meet at the end.
 */
final class LoadDrivers {

    private final Map<String, Integer> coreByNode;
    private final Path logDirectory;
    private final Map<String, ChildProcess> drivers = new HashMap<>();
    private final Map<String, Integer> percentByNode = new HashMap<>();

    /**
     * @param coreByNode   node name to the core its agent and load are pinned to
     * @param logDirectory where the drivers' output goes
     */
    LoadDrivers(final Map<String, Integer> coreByNode, final Path logDirectory) {
        this.coreByNode = Map.copyOf(coreByNode);
        this.logDirectory = logDirectory;
    }

    /** @return whether stress-ng is installed (Debian: apt-get install stress-ng) */
    static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/stress-ng"));
    }

    /**
     * Drives the node's core to the given utilisation; a no-op when it already is.
     *
     * @param node    a node with a core of its own
     * @param percent 0..100; 0 stops its driver
     */
    synchronized void drive(final String node, final int percent) throws IOException, InterruptedException {
        final Integer core = coreByNode.get(node);
        if (core == null || Integer.valueOf(percent).equals(percentByNode.get(node))) {
            return;
        }
        final ChildProcess previous = drivers.remove(node);
        if (previous != null) {
            previous.stop(Duration.ofSeconds(2));
        }
        percentByNode.put(node, percent);
        if (percent > 0) {
            drivers.put(node, ChildProcess.start("load-" + node, List.of("/usr/bin/stress-ng", "--cpu", "1", "--cpu-load",
                Integer.toString(Math.min(100, percent)), "--taskset", Integer.toString(core), "--quiet"), Map.of(), logDirectory));
        }
    }

    synchronized void stopAll() throws InterruptedException {
        for (final ChildProcess driver : drivers.values()) {
            driver.stop(Duration.ofSeconds(2));
        }
        drivers.clear();
        percentByNode.clear();
    }
}
