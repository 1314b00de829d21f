package org.latencyserver.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFiles;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;

/**
 * The real-network demo's load walk ({@code examples/demo/real-network-scenario.yaml}): per step, the
 * CPU load each host's core is driven to and the load offered through each bottleneck port, every
 * step holding {@code step_seconds}, looping when {@code loop} is true. A step that leaves a host or
 * port out keeps its previous value; the first step's missing values are 0 (no load).
 *
 * <p>Immutable; thread-safe.
 *
 * @param stepMillis how long each step holds, ms
 * @param loop       whether the walk starts again after its last step
 * @param steps      every step, with every host's and port's value filled in
 */
public record RealNetworkScenario(long stepMillis, boolean loop, List<Step> steps) {

    /** The highest port load a step may offer, percent of the port's rate: twice the rate is overload enough. */
    public static final int MAX_PORT_PERCENT = 200;
    private static final Set<String> TOP = Set.of("step_seconds", "loop", "steps");
    private static final Set<String> STEP = Set.of("cpu", "port");

    /**
     * One step.
     *
     * @param cpuPercent  per host, the CPU load of its core, 0..100 (0: none)
     * @param portPercent per bottleneck port, the load offered through it, 0..{@value #MAX_PORT_PERCENT} (0: none)
     */
    public record Step(Map<String, Integer> cpuPercent, Map<String, Integer> portPercent) {
        /** Copies the maps, keeping their order. */
        public Step {
            cpuPercent = Collections.unmodifiableMap(new LinkedHashMap<>(cpuPercent));
            portPercent = Collections.unmodifiableMap(new LinkedHashMap<>(portPercent));
        }
    }

    /** Copies the steps. */
    public RealNetworkScenario {
        steps = List.copyOf(steps);
    }

    /**
     * @param elapsedMillis time since the walk began, ms (not negative)
     * @return the 0-based index of the step in force, or -1 once a walk that does not loop has ended
     */
    public int stepAt(final long elapsedMillis) {
        final long index = elapsedMillis / stepMillis;
        if (index < steps.size()) {
            return (int) index;
        }
        return loop ? (int) (index % steps.size()) : -1;
    }

    /**
     * @param file  the scenario's file
     * @param hosts the hosts whose CPU load it may set
     * @param ports the bottleneck ports it may load
     * @return the scenario
     * @throws InputFaultsException with every fault, each at its file:line:column
     */
    public static RealNetworkScenario load(final Path file, final Set<String> hosts, final Set<String> ports)
        throws InputFaultsException {
        return parse(InputFiles.readText(file, "scenario file"), file.toString(), hosts, ports);
    }

    /**
     * @param yaml  a scenario's text
     * @param label the file's name in faults
     * @param hosts the hosts whose CPU load it may set
     * @param ports the bottleneck ports it may load
     * @return the scenario
     * @throws InputFaultsException with every fault
     */
    public static RealNetworkScenario parse(final String yaml, final String label, final Set<String> hosts, final Set<String> ports)
        throws InputFaultsException {
        final InputFaults faults = new InputFaults(label);
        final InputMapping top = InputMapping.root(InputNode.parse(yaml, InputFormat.YAML, faults), "a scenario", faults);
        if (top == null) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        top.allowOnly(TOP);
        final Long stepSeconds = top.requiredInteger("step_seconds", 1, 86_400, "how long each step holds, seconds");
        final boolean loop = top.bool("loop", true);
        final Map<String, Integer> cpu = new LinkedHashMap<>();
        hosts.stream().sorted().forEach(h -> cpu.put(h, 0));
        final Map<String, Integer> port = new LinkedHashMap<>();
        ports.stream().sorted().forEach(p -> port.put(p, 0));
        final List<Step> steps = new ArrayList<>();
        final List<InputMapping> sections = top.sections("steps");
        if (sections.isEmpty() && top.has("steps")) {
            top.fault("steps", "needs at least one step");
        } else {
            top.require("steps", "the steps, each with cpu and/or port");
        }
        for (final InputMapping step : sections) {
            step.allowOnly(STEP);
            values(step, "cpu", hosts, 100, "a host with a pinned agent", cpu);
            values(step, "port", ports, MAX_PORT_PERCENT, "a bottleneck port of the testbed", port);
            steps.add(new Step(cpu, port));
        }
        faults.throwIfAny();
        return new RealNetworkScenario(stepSeconds * 1000, loop, steps);
    }

    private static void values(final InputMapping step, final String key, final Set<String> known, final int maximum,
                               final String what, final Map<String, Integer> into) {
        if (!step.has(key)) {
            return;
        }
        final InputMapping values = step.section(key);
        if (values == null) {
            return;
        }
        for (final String name : values.node().fields().keySet()) {
            if (!known.contains(name)) {
                values.faultAtKey(name, "not " + what + "; known: " + known.stream().sorted().toList());
                continue;
            }
            final Long percent = values.integer(name, null, 0, maximum);
            if (percent != null) {
                into.put(name, percent.intValue());
            }
        }
    }
}
