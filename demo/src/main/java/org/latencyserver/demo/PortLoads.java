package org.latencyserver.demo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.latencyserver.testbed.CommandFailedException;
import org.latencyserver.testbed.LoadTarget;
import org.latencyserver.testbed.PortLoad;
import org.latencyserver.testbed.StateDirectory;

/**
 * The iperf3 load through each bottleneck port of the demo's testbed, following the scenario's per-port values:
 * each port is driven on its own ({@link PortLoad}: one load per port, its pid files under the testbed's state
 * directory), restarted only when its value changes, stopped at 0.
 *
 * <p>Not thread-safe: the demo calls it under the lock it holds the testbed with.
 */
final class PortLoads {

    /** Starts and stops one port's load; {@link #IPERF3} in the demo, a recorder in tests. */
    interface Driver {
        /**
         * @param target  where
         * @param percent of the port's rate, 1..{@value RealNetworkScenario#MAX_PORT_PERCENT}
         */
        void start(LoadTarget target, int percent) throws IOException, CommandFailedException, InterruptedException;

        /** @param port a port whose load is to end (a no-op when none runs) */
        void stop(String port) throws InterruptedException;
    }

    private final Map<String, LoadTarget> targets;
    private final Driver driver;
    private final Map<String, Integer> percentByPort = new LinkedHashMap<>();

    /**
     * @param targets per port the scenario may load, where its load goes
     * @param driver  starts and stops a port's load
     */
    PortLoads(final Map<String, LoadTarget> targets, final Driver driver) {
        this.targets = new LinkedHashMap<>(targets);
        this.driver = driver;
        targets.keySet().forEach(port -> percentByPort.put(port, 0));
    }

    /** @return iperf3 through {@link PortLoad}, forever (0 seconds: until stopped) */
    static Driver iperf3(final PortLoad portLoad, final StateDirectory state) {
        return new Driver() {
            @Override
            public void start(final LoadTarget target, final int percent)
                throws IOException, CommandFailedException, InterruptedException {
                portLoad.start(target, percent, 0);
            }

            @Override
            public void stop(final String port) throws InterruptedException {
                PortLoad.stop(state, port);
            }
        };
    }

    /**
     * Drives every port to its value; a port the map leaves out is idle.
     *
     * @param percentByPortWanted per port, percent of its rate (0: no load)
     */
    void apply(final Map<String, Integer> percentByPortWanted) throws IOException, CommandFailedException, InterruptedException {
        for (final Map.Entry<String, LoadTarget> target : targets.entrySet()) {
            final String port = target.getKey();
            final int wanted = percentByPortWanted.getOrDefault(port, 0);
            if (wanted == percentByPort.get(port)) {
                continue;
            }
            if (wanted == 0) {
                driver.stop(port);
            } else {
                driver.start(target.getValue(), wanted);
            }
            percentByPort.put(port, wanted);
        }
    }

    /** Ends every port's load, whatever this instance believes runs (a load may outlive a failed start). */
    void stopAll() throws InterruptedException {
        for (final String port : targets.keySet()) {
            driver.stop(port);
            percentByPort.put(port, 0);
        }
    }

    /** @return per port, the load in force, percent (0: none), in the targets' order */
    Map<String, Integer> percentByPort() {
        return new LinkedHashMap<>(percentByPort);
    }

    /** @return for people: "port toward ws2 idle" or "trunk 95 % (iperf3 srv -> ld2), ws2 idle" */
    String describe() {
        final List<String> parts = new ArrayList<>();
        for (final Map.Entry<String, LoadTarget> target : targets.entrySet()) {
            final int percent = percentByPort.get(target.getKey());
            parts.add(target.getKey() + " " + (percent == 0 ? "idle" : percent + " % of its rate (iperf3 "
                + target.getValue().sender().name() + " -> " + target.getValue().receiver().name() + ")"));
        }
        return parts.stream().collect(Collectors.joining(", "));
    }
}
