package org.latencyserver.emulator;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.latencyserver.emulator.YamlTree.ListNode;
import org.latencyserver.emulator.YamlTree.MapNode;
import org.latencyserver.emulator.YamlTree.Node;
import org.latencyserver.emulator.YamlTree.Scalar;

/**
 * Reads and validates a scenario file (YAML). Every fault names the file, the line and column,
 * and the bad value; unknown keys are faults, never ignored. The format:
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
 * <p>Stateless and thread-safe.
 */
public final class ScenarioLoader {
    /** Default step duration: the thesis's emulator changed a value every 10 s. */
    public static final double DEFAULT_STEP_SECONDS = 10.0;
    private static final int DEFAULT_CORES = 2;
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");

    private final String file;

    private ScenarioLoader(String file) {
        this.file = file;
    }

    /**
     * Loads a scenario file.
     *
     * @throws ScenarioFault naming file, line and value when the file is unreadable or invalid
     */
    public static Scenario load(Path path) throws ScenarioFault {
        String label = path.toString();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return new ScenarioLoader(label).read(YamlTree.parse(reader, label));
        } catch (IOException e) {
            throw new ScenarioFault(label, 0, 0, null, "cannot read the scenario file: " + e);
        }
    }

    /**
     * Parses a scenario from text (used by tests and by embedded scenarios).
     *
     * @param label the name used for the file in faults
     * @throws ScenarioFault naming label, line and value when the text is invalid
     */
    public static Scenario parse(String yaml, String label) throws ScenarioFault {
        return new ScenarioLoader(label).read(YamlTree.parse(new StringReader(yaml), label));
    }

    private Scenario read(Node root) throws ScenarioFault {
        MapNode top = map(root, "the scenario");
        allowOnly(top, Set.of("step_seconds", "loop", "nodes", "links", "steps", "connections"));
        double stepSeconds = top.entries().containsKey("step_seconds")
                ? positiveSeconds(top.entries().get("step_seconds"), "step_seconds")
                : DEFAULT_STEP_SECONDS;
        boolean loop = !top.entries().containsKey("loop") || bool(top.entries().get("loop"), "loop");

        Set<String> names = new HashSet<>();
        Set<Integer> ports = new HashSet<>();
        List<NodeSpec> nodes = agents(top, "nodes", "a node", Set.of("cores", "counter_refresh_seconds"), names, ports,
                (m, name, port) -> {
                    int cores = m.entries().containsKey("cores") ? intIn(m.entries().get("cores"), "cores", 1, 1024)
                            : DEFAULT_CORES;
                    long refreshMicros = m.entries().containsKey("counter_refresh_seconds")
                            ? Math.round(positiveSeconds(m.entries().get("counter_refresh_seconds"),
                                    "counter_refresh_seconds") * 1_000_000.0) : 0;
                    return new NodeSpec(name, port, cores, refreshMicros);
                });
        List<LinkSpec> links = agents(top, "links", "a link", Set.of("if_index", "speed_mbps"), names, ports,
                (m, name, port) -> new LinkSpec(name, port,
                        intIn(required(m, "if_index"), "if_index", 1, Integer.MAX_VALUE),
                        intIn(required(m, "speed_mbps"), "speed_mbps", 1, 10_000_000)));
        if (nodes.isEmpty() && links.isEmpty()) {
            throw fault(top, null, "a scenario needs at least one node or link");
        }
        Set<String> nodeNames = new HashSet<>();
        nodes.forEach(x -> nodeNames.add(x.name()));
        Set<String> linkNames = new HashSet<>();
        links.forEach(x -> linkNames.add(x.name()));

        List<Node> stepNodes = optionalList(top, "steps");
        if (stepNodes.isEmpty()) {
            throw fault(top, null, "'steps' is missing or empty: a scenario needs at least one step");
        }
        int stepCount = stepNodes.size();
        long[] durations = new long[stepCount];
        Map<String, int[]> percents = new LinkedHashMap<>();
        for (String name : names) {
            percents.put(name, new int[stepCount]);
        }
        Map<String, Boolean> seen = new HashMap<>();
        for (int i = 0; i < stepCount; i++) {
            MapNode step = map(stepNodes.get(i), "a step");
            allowOnly(step, Set.of("cpu", "port", "seconds"));
            double seconds = step.entries().containsKey("seconds")
                    ? positiveSeconds(step.entries().get("seconds"), "seconds") : stepSeconds;
            durations[i] = Math.round(seconds * 1_000_000.0);
            for (String name : names) {
                if (i > 0) {
                    percents.get(name)[i] = percents.get(name)[i - 1];
                }
            }
            applyPercents(step, "cpu", nodeNames, "node", percents, i, seen);
            applyPercents(step, "port", linkNames, "link", percents, i, seen);
            if (i == 0) {
                for (String name : names) {
                    if (!seen.containsKey(name)) {
                        throw fault(step, null, "the first step must give a value for every node and link; '"
                                + name + "' has none");
                    }
                }
            }
        }

        List<ConnectionSpec> connections = new ArrayList<>();
        Set<Integer> indexRefs = new HashSet<>();
        for (Node n : optionalList(top, "connections")) {
            MapNode m = map(n, "a connection");
            allowOnly(m, Set.of("index_ref", "client", "peer", "link"));
            Node refNode = required(m, "index_ref");
            int indexRef = intIn(refNode, "index_ref", 0, Short.MAX_VALUE);
            if (!indexRefs.add(indexRef)) {
                throw fault(refNode, refNode.shown(), "index_ref is used by another connection");
            }
            String client = reference(required(m, "client"), nodeNames, "client", "node");
            String peer = reference(required(m, "peer"), nodeNames, "peer", "node");
            String link = reference(required(m, "link"), linkNames, "link", "link");
            connections.add(new ConnectionSpec(indexRef, client, peer, link));
        }
        return new Scenario(file, loop, nodes, links, connections, durations, percents);
    }

    /** The rest of one emulated agent's entry, once its name and UDP port are read and checked. */
    @FunctionalInterface
    private interface AgentEntry<T> {
        T read(MapNode entry, String name, int port) throws ScenarioFault;
    }

    /**
     * Reads a list of emulated agents (nodes or links): every entry is a map with a name unique
     * among all agents, a UDP port no other agent uses, and its own further keys.
     *
     * @param ownKeys the keys the entry may have besides name and port
     */
    private <T> List<T> agents(MapNode top, String key, String what, Set<String> ownKeys, Set<String> names,
            Set<Integer> ports, AgentEntry<T> rest) throws ScenarioFault {
        Set<String> allowed = new HashSet<>(ownKeys);
        allowed.add("name");
        allowed.add("port");
        List<T> agents = new ArrayList<>();
        for (Node n : optionalList(top, key)) {
            MapNode m = map(n, what);
            allowOnly(m, allowed);
            String name = uniqueName(m, names);
            agents.add(rest.read(m, name, udpPort(m, ports)));
        }
        return agents;
    }

    private void applyPercents(MapNode step, String key, Set<String> allowed, String kind,
            Map<String, int[]> percents, int stepIndex, Map<String, Boolean> seen) throws ScenarioFault {
        Node values = step.entries().get(key);
        if (values == null) {
            return;
        }
        MapNode m = map(values, "'" + key + "' (a map of " + kind + " name to percent)");
        for (var e : m.entries().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                int[] pos = m.keyPositions().get(e.getKey());
                throw new ScenarioFault(file, pos[0], pos[1], e.getKey(), "step " + (stepIndex + 1) + ": '"
                        + key + "' names an unknown " + kind + (allowed.isEmpty() ? " (none are declared)"
                        : "; declared " + kind + "s: " + String.join(", ", new java.util.TreeSet<>(allowed))));
            }
            percents.get(e.getKey())[stepIndex] = intIn(e.getValue(), key + " percent of " + e.getKey(), 0, 100);
            seen.put(e.getKey(), Boolean.TRUE);
        }
    }

    private String reference(Node node, Set<String> allowed, String key, String kind) throws ScenarioFault {
        String name = text(node, key);
        if (!allowed.contains(name)) {
            throw fault(node, name, "'" + key + "' names an unknown " + kind);
        }
        return name;
    }

    private String uniqueName(MapNode m, Set<String> names) throws ScenarioFault {
        Node node = required(m, "name");
        String name = text(node, "name");
        if (!NAME.matcher(name).matches()) {
            throw fault(node, name, "a name must start with a letter and use only letters, digits, '_', '.', '-'");
        }
        if (!names.add(name)) {
            throw fault(node, name, "the name is used twice (node and link names share one namespace)");
        }
        return name;
    }

    private int udpPort(MapNode m, Set<Integer> ports) throws ScenarioFault {
        Node node = required(m, "port");
        int port = intIn(node, "port", 0, 65535);
        if (port != 0 && !ports.add(port)) {
            throw fault(node, node.shown(), "the UDP port is used twice");
        }
        return port;
    }

    private List<Node> optionalList(MapNode m, String key) throws ScenarioFault {
        Node node = m.entries().get(key);
        if (node == null) {
            return List.of();
        }
        if (node instanceof Scalar s && s.text().isEmpty()) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw fault(node, node.shown(), "'" + key + "' must be a list");
        }
        return list.items();
    }

    private Node required(MapNode m, String key) throws ScenarioFault {
        Node node = m.entries().get(key);
        if (node == null) {
            throw fault(m, null, "missing required key '" + key + "' in " + m.shown());
        }
        return node;
    }

    private void allowOnly(MapNode m, Set<String> allowed) throws ScenarioFault {
        for (String key : m.entries().keySet()) {
            if (!allowed.contains(key)) {
                int[] pos = m.keyPositions().get(key);
                throw new ScenarioFault(file, pos[0], pos[1], key,
                        "unknown key; allowed here: " + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
    }

    private MapNode map(Node node, String what) throws ScenarioFault {
        if (node instanceof MapNode m) {
            return m;
        }
        throw fault(node, node.shown(), what + " must be a map of key: value");
    }

    private String text(Node node, String key) throws ScenarioFault {
        if (node instanceof Scalar s && !s.text().isEmpty()) {
            return s.text();
        }
        throw fault(node, node.shown(), "'" + key + "' must be a non-empty text");
    }

    private boolean bool(Node node, String key) throws ScenarioFault {
        if (node instanceof Scalar s && s.bool()) {
            return Boolean.parseBoolean(s.text());
        }
        throw fault(node, node.shown(), "'" + key + "' must be true or false");
    }

    private int intIn(Node node, String key, long min, long max) throws ScenarioFault {
        if (node instanceof Scalar s && s.numeric()) {
            try {
                long v = Long.parseLong(s.text());
                if (v >= min && v <= max) {
                    return (int) v;
                }
            } catch (NumberFormatException notAnInteger) {
                // reported below, with the value
            }
        }
        throw fault(node, node.shown(), "'" + key + "' must be a whole number in " + min + ".." + max);
    }

    private double positiveSeconds(Node node, String key) throws ScenarioFault {
        if (node instanceof Scalar s && s.numeric()) {
            double v = Double.parseDouble(s.text());
            if (v >= 0.001 && v <= 31_536_000) {
                return v;
            }
        }
        throw fault(node, node.shown(), "'" + key + "' must be a number of seconds in 0.001..31536000");
    }

    private ScenarioFault fault(Node node, String value, String reason) {
        return new ScenarioFault(file, node.line(), node.column(), value, reason);
    }
}
