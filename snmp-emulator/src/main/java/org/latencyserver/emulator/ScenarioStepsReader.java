package org.latencyserver.emulator;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;

/**
 * Reads a scenario's {@code steps}: each step's duration and the percents it gives its nodes'
 * CPUs and links' ports, by name, prefix ({@code ws*}) or range ({@code ws1..ws3000}) of the
 * declared agents. A value holds until a later step changes it; the first step gives every agent
 * one. Every fault is reported. One instance reads one scenario; not thread-safe.
 */
final class ScenarioStepsReader {
    /** Shortest and longest step or counter refresh, in seconds: a millisecond to a year. */
    static final double MIN_SECONDS = 0.001;
    static final double MAX_SECONDS = 31_536_000;
    /** Step keys ending in this name every declared agent whose name starts with what precedes it. */
    private static final String PREFIX_WILDCARD = "*";
    /** Step keys {@code first..last} name the declared agents from first to last, in declaration order. */
    private static final String RANGE = "..";
    private static final Set<String> STEP = Set.of("cpu", "port", "seconds");

    private final InputFaults faults;
    /** Whether a faulty group's names are missing, so that a name without a value is no new fault. */
    private final boolean namesIncomplete;

    /**
     * @param faults          where faults are reported
     * @param namesIncomplete whether a faulty group's names are missing (reported already)
     */
    ScenarioStepsReader(InputFaults faults, boolean namesIncomplete) {
        this.faults = faults;
        this.namesIncomplete = namesIncomplete;
    }

    /**
     * Reads the steps into {@code percents} (each agent's value per step; a value holds until a
     * later step changes it).
     *
     * @return each step's duration, microseconds
     */
    long[] steps(List<InputNode> stepNodes, Double stepSeconds, DeclaredAgents declaredNodes, DeclaredAgents declaredLinks,
                  Map<String, int[]> percents) {
        long[] durations = new long[stepNodes.size()];
        for (int i = 0; i < stepNodes.size(); i++) {
            final int step = i;
            percents.values().forEach(values -> values[step] = step == 0 ? 0 : values[step - 1]);
            InputNode node = stepNodes.get(i);
            String path = "steps[" + i + "]";
            if (node.kind() != InputNode.Kind.MAP) {
                faults.at(node, path, "a step must be a mapping with cpu, port and seconds, was " + node.describe());
                continue;
            }
            InputMapping m = new InputMapping(node, path, faults);
            m.allowOnly(STEP);
            Double seconds = m.decimal("seconds", stepSeconds, MIN_SECONDS, false, MAX_SECONDS);
            // A bad duration is reported; 1 µs only fills the slot, since a scenario with a fault is not built.
            durations[i] = seconds == null ? 1 : Math.round(seconds * 1_000_000.0);
            Set<String> given = new LinkedHashSet<>();
            given.addAll(applyPercents(m, "cpu", declaredNodes, percents, i));
            given.addAll(applyPercents(m, "port", declaredLinks, percents, i));
            if (i == 0) {
                List<String> missing = percents.keySet().stream().filter(name -> !given.contains(name)).toList();
                if (!missing.isEmpty() && !namesIncomplete) {
                    faults.at(node, path, "the first step must give a value for every node and link; "
                        + (missing.size() == 1 ? "'" + missing.get(0) + "' has none" : DeclaredAgents.listed(missing) + " have none"));
                }
            }
        }
        return durations;
    }

    /**
     * Applies one step's map {@code key} ({@code cpu} or {@code port}). Each of its keys names one
     * agent, every agent whose name starts with a prefix ({@code ws*}), or the agents from one to
     * another in declaration order ({@code ws1..ws3000}); later keys win. Unknown names, empty
     * prefixes, backward ranges and bad percents are reported.
     *
     * @return the names given a value
     */
    private Set<String> applyPercents(InputMapping step, String key, DeclaredAgents declared, Map<String, int[]> percents,
            int stepIndex) {
        InputMapping values = step.section(key);
        if (values == null) {
            return Set.of();
        }
        Set<String> given = new LinkedHashSet<>();
        for (Map.Entry<String, InputNode> e : values.node().fields().entrySet()) {
            String selector = e.getKey();
            List<String> names = selected(values, selector, declared, "step " + (stepIndex + 1) + ": '" + key + "'");
            if (names.isEmpty()) {
                continue;
            }
            given.addAll(names);
            Long percent = InputMapping.integerIn(e.getValue(), values.pathOf(selector), 0, 100, faults);
            if (percent != null) {
                names.forEach(name -> percents.get(name)[stepIndex] = percent.intValue());
            }
        }
        return given;
    }

    /** @return the declared names a step key selects; empty when it selects none (reported) */
    private List<String> selected(InputMapping values, String selector, DeclaredAgents declared, String where) {
        Integer single = declared.positions.get(selector);
        if (single != null) {
            return List.of(selector);
        }
        if (selector.endsWith(PREFIX_WILDCARD)) {
            String prefix = selector.substring(0, selector.length() - PREFIX_WILDCARD.length());
            List<String> names = declared.names.stream().filter(n -> n.startsWith(prefix)).toList();
            if (names.isEmpty() && !declared.incomplete) {
                values.faultAtKey(selector, where + " names no " + declared.kind + ": none starts with '" + prefix + "'"
                    + declared.declaredText());
            }
            return names;
        }
        int range = selector.indexOf(RANGE);
        if (range > 0) {
            String from = selector.substring(0, range);
            String to = selector.substring(range + RANGE.length());
            Integer first = declared.positions.get(from);
            Integer last = declared.positions.get(to);
            if ((first == null || last == null) && declared.incomplete) {
                return List.of();
            }
            if (first == null || last == null) {
                values.faultAtKey(selector, where + ": the range '" + selector + "' must run from one declared " + declared.kind
                    + " to another; '" + (first == null ? from : to) + "' is not one" + declared.declaredText());
                return List.of();
            }
            if (first > last) {
                values.faultAtKey(selector, where + ": the range '" + selector + "' runs backwards: '" + to
                    + "' is declared before '" + from + "'");
                return List.of();
            }
            return declared.names.subList(first, last + 1);
        }
        if (!declared.incomplete) {
            values.faultAtKey(selector, where + " names an unknown " + declared.kind + " '" + selector + "'" + declared.declaredText());
        }
        return List.of();
    }
}
