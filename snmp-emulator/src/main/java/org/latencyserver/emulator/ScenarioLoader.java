package org.latencyserver.emulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;

/**
 * Reads and validates a scenario file (YAML). Every fault is reported, all at once, each as
 * {@code file:line:column: key.path: reason} with the bad value; unknown keys are faults, never
 * ignored. The format:
 *
 * <pre>
 * step_seconds: 10        # optional, default 10: duration of each step
 * loop: true              # optional, default true
 * nodes: [ { name: ws1, port: 16101, cores: 2 } ]              # cores optional, default 2
 *   # optional per node: counter_refresh_seconds: 5 — CPU counters change only every 5 s, as net-snmp's
 * links: [ { name: atm, port: 16110, if_index: 3, speed_mbps: 155 } ]
 * steps:                  # values hold until changed; step 1 must set every node and link
 *   - { cpu: { ws1: 10 }, port: { atm: 50 } }
 *   - { cpu: { ws1: 50 }, seconds: 5 }                          # seconds optional per step
 * connections: [ { index_ref: 1, client: ws1, peer: ws1, link: atm } ]   # push mode only
 * </pre>
 *
 * <p>One instance reads one text; the static methods are thread-safe.
 */
public final class ScenarioLoader {
    /** Default step duration: the thesis's emulator changed a value every 10 s. */
    public static final double DEFAULT_STEP_SECONDS = 10.0;
    private static final int DEFAULT_CORES = 2;
    /** Shortest and longest step or counter refresh, in seconds: a millisecond to a year. */
    private static final double MIN_SECONDS = 0.001;
    private static final double MAX_SECONDS = 31_536_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
    private static final Set<String> TOP = Set.of("step_seconds", "loop", "nodes", "links", "steps", "connections");
    private static final Set<String> NODE = Set.of("name", "port", "cores", "counter_refresh_seconds");
    private static final Set<String> LINK = Set.of("name", "port", "if_index", "speed_mbps");
    private static final Set<String> STEP = Set.of("cpu", "port", "seconds");
    private static final Set<String> CONNECTION = Set.of("index_ref", "client", "peer", "link");

    private final String file;
    private final InputFaults faults;
    /** Node and link names share one namespace: each names one SNMP agent of the scenario. */
    private final Map<String, String> namesSeen = new HashMap<>();
    private final Map<Long, String> portsSeen = new HashMap<>();

    private ScenarioLoader(String file) {
        this.file = file;
        this.faults = new InputFaults(file);
    }

    /**
     * Loads a scenario file.
     *
     * @throws InputFaultsException with every fault, each naming file, line, column and value,
     *                              when the file is unreadable or invalid
     */
    public static Scenario load(Path path) throws InputFaultsException {
        String label = path.toString();
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            InputFaults unreadable = new InputFaults(label);
            unreadable.whole("cannot read the scenario file: " + e);
            throw new InputFaultsException(unreadable.inFileOrder());
        }
        return parse(text, label);
    }

    /**
     * Parses a scenario from text (used by tests and by embedded scenarios).
     *
     * @param label the name used for the file in faults
     * @throws InputFaultsException with every fault, each naming label, line, column and value
     */
    public static Scenario parse(String yaml, String label) throws InputFaultsException {
        return new ScenarioLoader(label).read(yaml);
    }

    private Scenario read(String yaml) throws InputFaultsException {
        InputMapping top = InputMapping.root(InputNode.parse(yaml, InputFormat.YAML, faults), "a scenario", faults);
        if (top == null) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        top.allowOnly(TOP);
        Double stepSeconds = top.decimal("step_seconds", DEFAULT_STEP_SECONDS, MIN_SECONDS, false, MAX_SECONDS);
        boolean loop = top.bool("loop", true);

        List<InputMapping> nodeSections = top.sections("nodes");
        List<InputMapping> linkSections = top.sections("links");
        Set<String> nodeNames = new LinkedHashSet<>();
        List<NodeSpec> nodes = agents(nodeSections, NODE, nodeNames, m -> {
            Long cores = m.integer("cores", (long) DEFAULT_CORES, 1, 1024);
            Double refresh = m.decimal("counter_refresh_seconds", 0.0, MIN_SECONDS, false, MAX_SECONDS);
            return cores == null || refresh == null ? null
                : (name, port) -> new NodeSpec(name, port, cores.intValue(), Math.round(refresh * 1_000_000.0));
        });
        Set<String> linkNames = new LinkedHashSet<>();
        List<LinkSpec> links = agents(linkSections, LINK, linkNames, m -> {
            Long ifIndex = m.requiredInteger("if_index", 1, Integer.MAX_VALUE, "the interface's ifIndex in the emulated MIB");
            Long speed = m.requiredInteger("speed_mbps", 1, 10_000_000, "the link's speed in Mbit/s");
            return ifIndex == null || speed == null ? null : (name, port) -> new LinkSpec(name, port, ifIndex.intValue(), speed);
        });
        if (nodeSections.isEmpty() && linkSections.isEmpty() && !faultedAt(top, "nodes") && !faultedAt(top, "links")) {
            faults.at(top.node(), "nodes", "a scenario needs at least one node or link");
        }

        List<InputNode> stepNodes = top.list("steps");
        if (stepNodes.isEmpty() && !faultedAt(top, "steps")) {
            top.fault("steps", "'steps' is missing or empty: a scenario needs at least one step");
        }
        Map<String, int[]> percents = new LinkedHashMap<>();
        nodeNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
        linkNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
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
            given.addAll(applyPercents(m, "cpu", nodeNames, "node", percents, i));
            given.addAll(applyPercents(m, "port", linkNames, "link", percents, i));
            if (i == 0) {
                for (String name : percents.keySet()) {
                    if (!given.contains(name)) {
                        faults.at(node, path, "the first step must give a value for every node and link; '" + name
                            + "' has none");
                    }
                }
            }
        }

        List<ConnectionSpec> connections = new ArrayList<>();
        Map<Long, String> indexRefs = new HashMap<>();
        for (InputMapping m : top.sections("connections")) {
            m.allowOnly(CONNECTION);
            Long indexRef = m.requiredInteger("index_ref", 0, Short.MAX_VALUE, "the connection's index_ref");
            if (indexRef != null) {
                String first = indexRefs.putIfAbsent(indexRef, m.path());
                if (first != null) {
                    m.fault("index_ref", "index_ref " + indexRef + " is used by another connection, " + first);
                }
            }
            String client = reference(m, "client", nodeNames, "node");
            String peer = reference(m, "peer", nodeNames, "node");
            String link = reference(m, "link", linkNames, "link");
            if (indexRef != null && client != null && peer != null && link != null) {
                connections.add(new ConnectionSpec(indexRef.intValue(), client, peer, link));
            }
        }
        if (!faults.isEmpty()) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        return new Scenario(file, loop, nodes, links, connections, durations, percents);
    }

    /** @return the names given a value in this step's map {@code key}; unknown names and bad percents are reported */
    private Set<String> applyPercents(InputMapping step, String key, Set<String> allowed, String kind,
            Map<String, int[]> percents, int stepIndex) {
        InputMapping values = step.section(key);
        if (values == null) {
            return Set.of();
        }
        Set<String> given = new LinkedHashSet<>();
        for (Map.Entry<String, InputNode> e : values.node().fields().entrySet()) {
            String name = e.getKey();
            if (!allowed.contains(name)) {
                values.faultAtKey(name, "step " + (stepIndex + 1) + ": '" + key + "' names an unknown " + kind + " '" + name
                    + "'" + (allowed.isEmpty() ? " (none are declared)"
                        : "; declared " + kind + "s: " + String.join(", ", new TreeSet<>(allowed))));
                continue;
            }
            given.add(name);
            Long percent = InputMapping.integerIn(e.getValue(), values.pathOf(name), 0, 100, faults);
            if (percent != null) {
                percents.get(name)[stepIndex] = percent.intValue();
            }
        }
        return given;
    }

    private String reference(InputMapping m, String key, Set<String> allowed, String kind) {
        String name = m.requiredText(key, "the name of a " + kind + " declared above");
        if (name != null && !allowed.contains(name)) {
            m.fault(key, "'" + key + "' names an unknown " + kind + " '" + name + "'" + (allowed.isEmpty()
                ? " (none are declared)" : "; declared " + kind + "s: " + String.join(", ", new TreeSet<>(allowed))));
            return null;
        }
        return name;
    }

    /** @return the node's or link's name, or null when missing, malformed or taken (reported) */
    /** Reads an emulated agent's own values (besides its name and port). */
    @FunctionalInterface
    private interface AgentValues<T> {
        /**
         * @return what makes the agent's spec from its checked name and UDP port, or null when one of
         *         its own values is faulty (the fault is reported)
         */
        BiFunction<String, Integer, T> read(InputMapping entry);
    }

    /**
     * Reads a list of emulated agents (nodes or links): each entry has only the {@code allowed} keys,
     * a name unique among all agents and a UDP port no other agent uses, and its own values. Every
     * value is read, so that all faults are reported; a name is collected even when the rest is
     * faulty, so that steps and connections naming it are not refused again.
     *
     * @param names where the agents' names are collected, in file order
     * @return the agents without a fault
     */
    private <T> List<T> agents(List<InputMapping> sections, Set<String> allowed, Set<String> names, AgentValues<T> own) {
        List<T> agents = new ArrayList<>();
        for (InputMapping m : sections) {
            m.allowOnly(allowed);
            String name = uniqueName(m);
            Long port = udpPort(m);
            BiFunction<String, Integer, T> spec = own.read(m);
            if (name != null) {
                names.add(name);
            }
            if (name != null && port != null && spec != null) {
                agents.add(spec.apply(name, port.intValue()));
            }
        }
        return agents;
    }

    private String uniqueName(InputMapping m) {
        String name = m.requiredText("name", "the name steps and connections use");
        if (name == null) {
            return null;
        }
        if (!NAME.matcher(name).matches()) {
            m.fault("name", "a name must start with a letter and use only letters, digits, '_', '.', '-'; was '" + name + "'");
            return null;
        }
        String first = namesSeen.putIfAbsent(name, m.path());
        if (first != null) {
            m.fault("name", "the name '" + name + "' is used twice, first by " + first
                + " (node and link names share one namespace)");
            return null;
        }
        return name;
    }

    /** @return the agent's UDP port (0: any free port), or null when missing, bad or taken (reported) */
    private Long udpPort(InputMapping m) {
        Long port = m.requiredInteger("port", 0, 65535, "the UDP port of its SNMP agent (0: any free port)");
        if (port != null && port != 0) {
            String first = portsSeen.putIfAbsent(port, m.path());
            if (first != null) {
                m.fault("port", "the UDP port " + port + " is used twice, first by " + first);
                return null;
            }
        }
        return port;
    }

    /** @return whether a fault was already reported at or under {@code key} of {@code m} (so a second one would repeat it) */
    private boolean faultedAt(InputMapping m, String key) {
        String path = m.pathOf(key);
        return faults.inOrderFound().stream().anyMatch(f -> f.path().equals(path) || f.path().startsWith(path + "[")
            || f.path().startsWith(path + "."));
    }
}
