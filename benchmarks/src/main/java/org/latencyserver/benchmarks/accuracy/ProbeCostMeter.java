package org.latencyserver.benchmarks.accuracy;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.latencyserver.demo.DemoReady;

/** Two readings of the probe counter and of the client agent's CPU time, at the start and end of a window. */
public final class ProbeCostMeter {

    private final ProbeCounter counter;
    private final Long clientAgentPid;
    private long startNanos;
    private Optional<Map<Integer, Double>> startCounts = Optional.empty();
    private OptionalLong startCpuNanos = OptionalLong.empty();

    /** @param ready the running demo */
    public ProbeCostMeter(final DemoReady ready) {
        this.counter = ready.metricsUrl().map(ProbeCounter::new).orElse(null);
        this.clientAgentPid = ready.pidOf("client-agent").orElse(null);
    }

    /** Takes the first readings. */
    public void start() {
        startNanos = System.nanoTime();
        startCounts = counter == null ? Optional.empty() : counter.read();
        startCpuNanos = clientAgentPid == null ? OptionalLong.empty() : ProcessCpu.cpuNanos(clientAgentPid);
    }

    /** @return the cost between {@link #start()} and now */
    public ProbeCost finish() {
        final double seconds = (System.nanoTime() - startNanos) / 1e9;
        final Optional<Map<Integer, Double>> endCounts = counter == null ? Optional.empty() : counter.read();
        final OptionalLong endCpuNanos = clientAgentPid == null ? OptionalLong.empty() : ProcessCpu.cpuNanos(clientAgentPid);
        final Map<Integer, Double> rates = new TreeMap<>();
        if (endCounts.isPresent()) {
            // A counter that appeared during the window started from 0.
            final Map<Integer, Double> before = startCounts.orElse(Map.of());
            endCounts.get().forEach((key, count) -> rates.put(key, (count - before.getOrDefault(key, 0.0)) / seconds));
        }
        final double cpuPercent = startCpuNanos.isPresent() && endCpuNanos.isPresent()
            ? 100.0 * (endCpuNanos.getAsLong() - startCpuNanos.getAsLong()) / (seconds * 1e9) : Double.NaN;
        return new ProbeCost(seconds, rates, cpuPercent);
    }
}
