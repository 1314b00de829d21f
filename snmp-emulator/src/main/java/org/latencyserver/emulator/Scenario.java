package org.latencyserver.emulator;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A validated scenario: the emulated nodes and links, and a timeline of steps giving each
 * node's CPU utilisation and each link's port utilisation (integer percent, 0..100). Each step
 * lasts its own duration; the timeline either loops or holds its last step for ever.
 *
 * <p>Time is always passed in as microseconds elapsed since the emulator started, so the model
 * is testable without a clock. Immutable and thread-safe.
 */
public final class Scenario {
    private final String source;
    private final boolean loop;
    private final List<NodeSpec> nodes;
    private final List<LinkSpec> links;
    private final List<ConnectionSpec> connections;
    private final long[] stepStartMicros;
    private final long cycleMicros;
    /** Per entity name (node or link): its percent in each step, values already carried forward. */
    private final Map<String, int[]> percentByStep;
    /** Per entity name: the integral of percent over time up to the start of each step, plus the cycle total. */
    private final Map<String, long[]> integralAtStepStart;

    /**
     * @param source where the scenario came from (file name), for messages
     * @param loop whether the timeline repeats after its last step
     * @param stepDurationMicros duration of each step, each positive
     * @param percentByStep for every node and link name, one percent (0..100) per step
     */
    Scenario(String source, boolean loop, List<NodeSpec> nodes, List<LinkSpec> links,
            List<ConnectionSpec> connections, long[] stepDurationMicros, Map<String, int[]> percentByStep) {
        this.source = Objects.requireNonNull(source);
        this.loop = loop;
        this.nodes = List.copyOf(nodes);
        this.links = List.copyOf(links);
        this.connections = List.copyOf(connections);
        int steps = stepDurationMicros.length;
        if (steps == 0) {
            throw new IllegalArgumentException("a scenario needs at least one step");
        }
        this.stepStartMicros = new long[steps + 1];
        for (int i = 0; i < steps; i++) {
            if (stepDurationMicros[i] <= 0) {
                throw new IllegalArgumentException("step " + (i + 1) + " has non-positive duration "
                        + stepDurationMicros[i] + " µs");
            }
            stepStartMicros[i + 1] = stepStartMicros[i] + stepDurationMicros[i];
        }
        this.cycleMicros = stepStartMicros[steps];
        // HashMap, not Map.copyOf: the immutable map's linear probing degrades to a scan over
        // thousands of names such as ws1..ws10000 (every request looks a name up here).
        this.percentByStep = Collections.unmodifiableMap(new HashMap<>(percentByStep));
        var integrals = new HashMap<String, long[]>();
        for (var e : this.percentByStep.entrySet()) {
            int[] percents = e.getValue();
            if (percents.length != steps) {
                throw new IllegalArgumentException(e.getKey() + " has " + percents.length + " values for "
                        + steps + " steps");
            }
            long[] acc = new long[steps + 1];
            for (int i = 0; i < steps; i++) {
                if (percents[i] < 0 || percents[i] > 100) {
                    throw new IllegalArgumentException(e.getKey() + " step " + (i + 1) + ": percent "
                            + percents[i] + " outside 0..100");
                }
                acc[i + 1] = acc[i] + (long) percents[i] * stepDurationMicros[i];
            }
            integrals.put(e.getKey(), acc);
        }
        this.integralAtStepStart = Collections.unmodifiableMap(integrals);
    }

    /** @return the file (or label) the scenario was read from */
    public String source() {
        return source;
    }

    /** @return whether the timeline repeats */
    public boolean loop() {
        return loop;
    }

    /** @return the emulated workstations, in file order */
    public List<NodeSpec> nodes() {
        return nodes;
    }

    /** @return the emulated switch ports, in file order */
    public List<LinkSpec> links() {
        return links;
    }

    /** @return the connections reported in push mode, in file order */
    public List<ConnectionSpec> connections() {
        return connections;
    }

    /** @return the number of steps in one pass of the timeline */
    public int stepCount() {
        return stepStartMicros.length - 1;
    }

    /** @return the duration of one pass of the timeline, in microseconds */
    public long cycleMicros() {
        return cycleMicros;
    }

    /**
     * @param elapsedMicros time since the emulator started, at least 0
     * @return the 0-based step in force at that time
     */
    public int stepAt(long elapsedMicros) {
        requireNonNegative(elapsedMicros);
        long t = loop ? elapsedMicros % cycleMicros : elapsedMicros;
        if (t >= cycleMicros) {
            return stepCount() - 1;
        }
        int lo = 0;
        int hi = stepCount() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (stepStartMicros[mid] <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * @param name a node or link name of this scenario
     * @param elapsedMicros time since the emulator started, at least 0
     * @return the utilisation in percent (0..100) in force at that time
     */
    public int percentAt(String name, long elapsedMicros) {
        return percents(name)[stepAt(elapsedMicros)];
    }

    /**
     * The integral of the named entity's utilisation over [0, elapsedMicros], in
     * percent·microseconds. Counters are derived from it, so that the utilisation computed
     * from any two readings is exactly the time-weighted scenario utilisation between them.
     *
     * @param name a node or link name of this scenario
     * @param elapsedMicros time since the emulator started, at least 0
     * @return Σ percent × duration, in percent·microseconds
     */
    public long percentMicrosIntegral(String name, long elapsedMicros) {
        requireNonNegative(elapsedMicros);
        long[] acc = integralAtStepStart.get(name);
        int[] percents = percents(name);
        long cycleIntegral = acc[stepCount()];
        long fullCycles;
        long t;
        if (loop) {
            fullCycles = elapsedMicros / cycleMicros;
            t = elapsedMicros % cycleMicros;
        } else if (elapsedMicros >= cycleMicros) {
            return cycleIntegral + (long) percents[stepCount() - 1] * (elapsedMicros - cycleMicros);
        } else {
            fullCycles = 0;
            t = elapsedMicros;
        }
        int step = stepAt(t);
        return fullCycles * cycleIntegral + acc[step] + (long) percents[step] * (t - stepStartMicros[step]);
    }

    private int[] percents(String name) {
        int[] p = percentByStep.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no node or link named '" + name + "' in " + source);
        }
        return p;
    }

    private static void requireNonNegative(long elapsedMicros) {
        if (elapsedMicros < 0) {
            throw new IllegalArgumentException("elapsed time must be >= 0 µs, got " + elapsedMicros);
        }
    }
}
