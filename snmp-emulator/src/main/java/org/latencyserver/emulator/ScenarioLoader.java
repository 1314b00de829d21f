package org.latencyserver.emulator;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * <p>Thousands of agents are generated rather than listed, each group of agents on consecutive
 * loopback addresses (agent n on {@code first_address} + n − 1), all on one port:
 *
 * <pre>
 * node_groups: [ { count: 10000, name: "ws{n}", first_address: 127.1.0.1, port: 16100 } ]   # + cores, counter_refresh_seconds
 * link_groups: [ { count: 5000, name: "sw{n}", first_address: 127.2.0.1, port: 16100, if_index: 1, speed_mbps: 1000 } ]
 * # (quote a name holding {n} inside { }: YAML reads braces there as a mapping)
 * steps:                  # a key is a name, a prefix ending in '*', or a range 'first..last' in declaration order
 *   - { cpu: { "ws*": 20 }, port: { "sw*": 40 } }
 *   - { cpu: { ws1..ws3000: 80 }, seconds: 60 }                 # later keys of one step win over earlier ones
 * </pre>
 *
 * <p>The agents are read by {@link ScenarioAgentsReader}, the steps by {@link ScenarioStepsReader},
 * the connections by {@link ScenarioConnectionsReader}. One instance reads one text; the static
 * methods are thread-safe.
 */
public final class ScenarioLoader {
    /** Default step duration: the thesis's emulator changed a value every 10 s. */
    public static final double DEFAULT_STEP_SECONDS = 10.0;
    private static final int DEFAULT_CORES = 2;
    private static final Set<String> TOP = Set.of("step_seconds", "loop", "nodes", "links", "node_groups", "link_groups",
        "steps", "connections");
    private static final Set<String> NODE = Set.of("name", "port", "cores", "counter_refresh_seconds");
    private static final Set<String> LINK = Set.of("name", "port", "if_index", "speed_mbps");

    private final String file;
    private final InputFaults faults;

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
        return parse(InputFiles.readText(path, "scenario file"), path.toString());
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
        Double stepSeconds = top.decimal("step_seconds", DEFAULT_STEP_SECONDS, ScenarioStepsReader.MIN_SECONDS, false,
            ScenarioStepsReader.MAX_SECONDS);
        boolean loop = top.bool("loop", true);

        List<InputMapping> nodeSections = top.sections("nodes");
        List<InputMapping> linkSections = top.sections("links");
        List<InputMapping> nodeGroups = top.sections("node_groups");
        List<InputMapping> linkGroups = top.sections("link_groups");
        ScenarioAgentsReader.AgentValues<NodeSpec> nodeValues = ScenarioLoader::nodeValues;
        ScenarioAgentsReader.AgentValues<LinkSpec> linkValues = ScenarioLoader::linkValues;
        ScenarioAgentsReader agents = new ScenarioAgentsReader();
        Set<String> nodeNames = new LinkedHashSet<>();
        List<NodeSpec> nodes = agents.agents(nodeSections, NODE, nodeNames, nodeValues);
        nodes.addAll(agents.groups(nodeGroups, NODE, nodeNames, nodeValues));
        Set<String> linkNames = new LinkedHashSet<>();
        List<LinkSpec> links = agents.agents(linkSections, LINK, linkNames, linkValues);
        links.addAll(agents.groups(linkGroups, LINK, linkNames, linkValues));
        if (nodeSections.isEmpty() && linkSections.isEmpty() && nodeGroups.isEmpty() && linkGroups.isEmpty()
            && !faultedAt(top, "nodes") && !faultedAt(top, "links") && !faultedAt(top, "node_groups")
            && !faultedAt(top, "link_groups")) {
            faults.at(top.node(), "nodes", "a scenario needs at least one node or link (nodes, links, node_groups or link_groups)");
        }
        DeclaredAgents declaredNodes = new DeclaredAgents(nodeNames, "node", agents.namesIncomplete());
        DeclaredAgents declaredLinks = new DeclaredAgents(linkNames, "link", agents.namesIncomplete());

        List<InputNode> stepNodes = top.list("steps");
        if (stepNodes.isEmpty() && !faultedAt(top, "steps")) {
            top.fault("steps", "'steps' is missing or empty: a scenario needs at least one step");
        }
        Map<String, int[]> percents = new LinkedHashMap<>();
        nodeNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
        linkNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
        long[] durations = new ScenarioStepsReader(faults, agents.namesIncomplete())
            .steps(stepNodes, stepSeconds, declaredNodes, declaredLinks, percents);
        List<ConnectionSpec> connections = ScenarioConnectionsReader.connections(top, declaredNodes, declaredLinks);
        if (!faults.isEmpty()) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        return new Scenario(file, loop, nodes, links, connections, durations, percents);
    }

    /** A node's own values (cores, counter refresh), or null when one is faulty (reported). */
    private static ScenarioAgentsReader.AgentFactory<NodeSpec> nodeValues(InputMapping m) {
        Long cores = m.integer("cores", (long) DEFAULT_CORES, 1, 1024);
        Double refresh = m.decimal("counter_refresh_seconds", 0.0, ScenarioStepsReader.MIN_SECONDS, false,
            ScenarioStepsReader.MAX_SECONDS);
        return cores == null || refresh == null ? null
            : (name, port, address) -> new NodeSpec(name, port, cores.intValue(), Math.round(refresh * 1_000_000.0), address);
    }

    /** A link's own values (ifIndex, speed), or null when one is faulty (reported). */
    private static ScenarioAgentsReader.AgentFactory<LinkSpec> linkValues(InputMapping m) {
        Long ifIndex = m.requiredInteger("if_index", 1, Integer.MAX_VALUE, "the interface's ifIndex in the emulated MIB");
        Long speed = m.requiredInteger("speed_mbps", 1, 10_000_000, "the link's speed in Mbit/s");
        return ifIndex == null || speed == null ? null
            : (name, port, address) -> new LinkSpec(name, port, ifIndex.intValue(), speed, address);
    }

    /** @return whether a fault was already reported at or under {@code key} of {@code m} (so a second one would repeat it) */
    private boolean faultedAt(InputMapping m, String key) {
        String path = m.pathOf(key);
        return faults.inOrderFound().stream().anyMatch(f -> f.path().equals(path) || f.path().startsWith(path + "[")
            || f.path().startsWith(path + "."));
    }
}
