package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.latencyserver.emulator.ScenarioStatus;

/**
 * Follows the emulator's scenario through its status file ({@code snmp-emulator --status-file},
 * {@link ScenarioStatus}): at each new step change (a {@code sequence} not seen before) it hands the
 * CPU utilisation the step gives each followed node to a {@link CpuLoad}, once. The demo never reads
 * the scenario itself nor the emulator's output.
 *
 * <p>Not thread-safe: one thread polls.
 */
final class ScenarioFollower {

    /** Where the CPU utilisation of a step goes (the demo's load drivers). */
    @FunctionalInterface
    interface CpuLoad {
        /**
         * @param node    a followed node
         * @param percent its CPU utilisation in this step, 0..100
         * @throws IOException          when the load cannot be changed
         * @throws InterruptedException when interrupted
         */
        void drive(String node, int percent) throws IOException, InterruptedException;
    }

    private final Path statusFile;
    private final List<String> nodes;
    private final CpuLoad load;
    /** The sequence last acted on; 0 before the first (the emulator counts from 1). */
    private long lastSequence;

    /**
     * @param statusFile the emulator's status file (it may not exist yet)
     * @param nodes      the nodes whose CPU load is driven
     * @param load       where each step's levels go
     */
    ScenarioFollower(final Path statusFile, final List<String> nodes, final CpuLoad load) {
        this.statusFile = statusFile;
        this.nodes = List.copyOf(nodes);
        this.load = load;
    }

    /**
     * Reads the status file once and acts on a step change not seen before.
     *
     * @return the status acted on, or null when there was nothing new (or no file yet)
     * @throws DemoException when the file is there but unusable (the emulator writes it atomically,
     *                       so that is a fault, not a race)
     * @throws IOException          when the load cannot be changed
     * @throws InterruptedException when interrupted
     */
    ScenarioStatus poll() throws IOException, InterruptedException {
        final ScenarioStatus status;
        try {
            status = ScenarioStatus.read(statusFile);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new DemoException("the emulator's status file is unusable: " + e.getMessage());
        }
        if (status.sequence() <= lastSequence) {
            return null;
        }
        lastSequence = status.sequence();
        for (final String node : nodes) {
            final Integer percent = status.cpuPercent().get(node);
            if (percent != null) {
                load.drive(node, percent);
            }
        }
        return status;
    }
}
