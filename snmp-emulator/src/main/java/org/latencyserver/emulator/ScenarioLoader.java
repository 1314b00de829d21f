package org.latencyserver.emulator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
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
    private static final Set<String> TOP = Set.of("step_seconds", "loop", "nodes", "links", "node_groups", "link_groups",
        "steps", "connections");
    private static final Set<String> NODE = Set.of("name", "port", "cores", "counter_refresh_seconds");
    private static final Set<String> LINK = Set.of("name", "port", "if_index", "speed_mbps");
    private static final Set<String> GROUP = Set.of("count", "name", "first_address", "port");
    /** The loopback network 127/8 less its network and broadcast addresses, as 32-bit unsigned values. */
    private static final long FIRST_LOOPBACK = 0x7F00_0001L;
    private static final long LAST_LOOPBACK = 0x7FFF_FFFEL;
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    /** The placeholder a group's name pattern holds for the agent's number, 1..count. */
    static final String NUMBER_PLACEHOLDER = "{n}";
    /** Step keys ending in this name every declared agent whose name starts with what precedes it. */
    private static final String PREFIX_WILDCARD = "*";
    /** Step keys {@code first..last} name the declared agents from first to last, in declaration order. */
    private static final String RANGE = "..";
    /** How many names a fault lists before it only counts the rest. */
    private static final int NAMES_LISTED = 10;
    private static final Set<String> STEP = Set.of("cpu", "port", "seconds");
    private static final Set<String> CONNECTION = Set.of("index_ref", "client", "peer", "link");

    private final String file;
    private final InputFaults faults;
    /** Node and link names share one namespace: each names one SNMP agent of the scenario. */
    private final Map<String, String> namesSeen = new HashMap<>();
    private final Map<Long, String> portsSeen = new HashMap<>();
    /** The generated groups read so far: where each is, for overlap faults. */
    private final List<GroupRange> groupRanges = new ArrayList<>();
    /** Whether a group's names were not made because its addresses are faulty (reported). */
    private boolean namesIncomplete;

    /** The addresses and port of one generated group, and where it was written. */
    private record GroupRange(long firstAddress, long lastAddress, long port, String path) {
    }

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
        Double stepSeconds = top.decimal("step_seconds", DEFAULT_STEP_SECONDS, MIN_SECONDS, false, MAX_SECONDS);
        boolean loop = top.bool("loop", true);

        List<InputMapping> nodeSections = top.sections("nodes");
        List<InputMapping> linkSections = top.sections("links");
        List<InputMapping> nodeGroups = top.sections("node_groups");
        List<InputMapping> linkGroups = top.sections("link_groups");
        AgentValues<NodeSpec> nodeValues = ScenarioLoader::nodeValues;
        AgentValues<LinkSpec> linkValues = ScenarioLoader::linkValues;
        Set<String> nodeNames = new LinkedHashSet<>();
        List<NodeSpec> nodes = agents(nodeSections, NODE, nodeNames, nodeValues);
        nodes.addAll(groups(nodeGroups, NODE, nodeNames, nodeValues));
        Set<String> linkNames = new LinkedHashSet<>();
        List<LinkSpec> links = agents(linkSections, LINK, linkNames, linkValues);
        links.addAll(groups(linkGroups, LINK, linkNames, linkValues));
        if (nodeSections.isEmpty() && linkSections.isEmpty() && nodeGroups.isEmpty() && linkGroups.isEmpty()
            && !faultedAt(top, "nodes") && !faultedAt(top, "links") && !faultedAt(top, "node_groups")
            && !faultedAt(top, "link_groups")) {
            faults.at(top.node(), "nodes", "a scenario needs at least one node or link (nodes, links, node_groups or link_groups)");
        }
        Declared declaredNodes = new Declared(nodeNames, "node", namesIncomplete);
        Declared declaredLinks = new Declared(linkNames, "link", namesIncomplete);

        List<InputNode> stepNodes = top.list("steps");
        if (stepNodes.isEmpty() && !faultedAt(top, "steps")) {
            top.fault("steps", "'steps' is missing or empty: a scenario needs at least one step");
        }
        Map<String, int[]> percents = new LinkedHashMap<>();
        nodeNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
        linkNames.forEach(name -> percents.put(name, new int[stepNodes.size()]));
        long[] durations = steps(stepNodes, stepSeconds, declaredNodes, declaredLinks, percents);
        List<ConnectionSpec> connections = connections(top, declaredNodes, declaredLinks);
        if (!faults.isEmpty()) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        return new Scenario(file, loop, nodes, links, connections, durations, percents);
    }

    /** A node's own values (cores, counter refresh), or null when one is faulty (reported). */
    private static AgentFactory<NodeSpec> nodeValues(InputMapping m) {
        Long cores = m.integer("cores", (long) DEFAULT_CORES, 1, 1024);
        Double refresh = m.decimal("counter_refresh_seconds", 0.0, MIN_SECONDS, false, MAX_SECONDS);
        return cores == null || refresh == null ? null
            : (name, port, address) -> new NodeSpec(name, port, cores.intValue(), Math.round(refresh * 1_000_000.0), address);
    }

    /** A link's own values (ifIndex, speed), or null when one is faulty (reported). */
    private static AgentFactory<LinkSpec> linkValues(InputMapping m) {
        Long ifIndex = m.requiredInteger("if_index", 1, Integer.MAX_VALUE, "the interface's ifIndex in the emulated MIB");
        Long speed = m.requiredInteger("speed_mbps", 1, 10_000_000, "the link's speed in Mbit/s");
        return ifIndex == null || speed == null ? null
            : (name, port, address) -> new LinkSpec(name, port, ifIndex.intValue(), speed, address);
    }

    /**
     * Reads the steps into {@code percents} (each agent's value per step; a value holds until a
     * later step changes it).
     *
     * @return each step's duration, microseconds
     */
    private long[] steps(List<InputNode> stepNodes, Double stepSeconds, Declared declaredNodes, Declared declaredLinks,
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
                        + (missing.size() == 1 ? "'" + missing.get(0) + "' has none" : listed(missing) + " have none"));
                }
            }
        }
        return durations;
    }

    /** The connections (push mode), each naming declared agents and a unique index_ref. */
    private List<ConnectionSpec> connections(InputMapping top, Declared declaredNodes, Declared declaredLinks) {
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
            String client = reference(m, "client", declaredNodes);
            String peer = reference(m, "peer", declaredNodes);
            String link = reference(m, "link", declaredLinks);
            if (indexRef != null && client != null && peer != null && link != null) {
                connections.add(new ConnectionSpec(indexRef.intValue(), client, peer, link));
            }
        }
        return connections;
    }

    /** The names of one kind of agent (nodes or links) in declaration order, for step keys and references. */
    private static final class Declared {
        private final List<String> names;
        private final Map<String, Integer> positions = new HashMap<>();
        private final String kind;
        /** Whether a faulty group's names are missing, so that an unknown name is no new fault. */
        private final boolean incomplete;

        Declared(Set<String> names, String kind, boolean incomplete) {
            this.names = List.copyOf(names);
            this.kind = kind;
            this.incomplete = incomplete;
            for (int i = 0; i < this.names.size(); i++) {
                positions.put(this.names.get(i), i);
            }
        }

        /** @return what a fault says about the declared names: some of them, and how many */
        String declaredText() {
            return names.isEmpty() ? " (none are declared)" : "; declared " + kind + "s: " + listed(names);
        }
    }

    /**
     * Applies one step's map {@code key} ({@code cpu} or {@code port}). Each of its keys names one
     * agent, every agent whose name starts with a prefix ({@code ws*}), or the agents from one to
     * another in declaration order ({@code ws1..ws3000}); later keys win. Unknown names, empty
     * prefixes, backward ranges and bad percents are reported.
     *
     * @return the names given a value
     */
    private Set<String> applyPercents(InputMapping step, String key, Declared declared, Map<String, int[]> percents,
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
    private List<String> selected(InputMapping values, String selector, Declared declared, String where) {
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

    private String reference(InputMapping m, String key, Declared declared) {
        String name = m.requiredText(key, "the name of a " + declared.kind + " declared above");
        if (name != null && !declared.positions.containsKey(name)) {
            if (declared.incomplete) {
                return null;
            }
            m.fault(key, "'" + key + "' names an unknown " + declared.kind + " '" + name + "'" + declared.declaredText());
            return null;
        }
        return name;
    }

    /** @return the first few names, and how many there are in all when there are more */
    private static String listed(List<String> names) {
        String shown = String.join(", ", names.subList(0, Math.min(NAMES_LISTED, names.size())));
        return names.size() <= NAMES_LISTED ? shown : shown + " … (" + names.size() + " in all)";
    }

    /** Makes an agent's spec from its checked name, UDP port and address (null: the emulator's). */
    @FunctionalInterface
    private interface AgentFactory<T> {
        T make(String name, int udpPort, InetAddress address);
    }

    /** Reads an emulated agent's own values (besides its name, port and address). */
    @FunctionalInterface
    private interface AgentValues<T> {
        /**
         * @return what makes the agent's spec, or null when one of its own values is faulty (the fault
         *         is reported)
         */
        AgentFactory<T> read(InputMapping entry);
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
            AgentFactory<T> spec = own.read(m);
            if (name != null) {
                names.add(name);
            }
            if (name != null && port != null && spec != null) {
                agents.add(spec.make(name, port.intValue(), null));
            }
        }
        return agents;
    }

    /**
     * Generates the agents of each group: {@code count} agents named by the {@code name} pattern with
     * {@value #NUMBER_PLACEHOLDER} replaced by 1..count, agent n on {@code first_address} + n − 1, all
     * on {@code port}, each with the group's own values ({@code agentKeys} less name and port). The
     * addresses must stay within 127/8 and not overlap another group's on the same port; a name
     * taken before is reported once per group.
     *
     * @param names where the agents' names are collected, in order
     * @return the agents of the groups without a fault
     */
    private <T> List<T> groups(List<InputMapping> sections, Set<String> agentKeys, Set<String> names, AgentValues<T> own) {
        Set<String> allowed = new LinkedHashSet<>(GROUP);
        allowed.addAll(agentKeys);
        List<T> agents = new ArrayList<>();
        for (InputMapping m : sections) {
            m.allowOnly(allowed);
            Long count = m.requiredInteger("count", 1, LAST_LOOPBACK - FIRST_LOOPBACK + 1, "how many agents the group generates");
            String pattern = namePattern(m);
            Long port = m.requiredInteger("port", 1, 65535, "the UDP port every agent of the group listens on");
            Long first = loopbackAddress(m, "first_address");
            AgentFactory<T> spec = own.read(m);
            if (count == null || pattern == null) {
                namesIncomplete = true;
                continue;
            }
            boolean placed = first != null && port != null && placedWithin127(m, first, count, port);
            if (!placed) {
                // Its names are not made (there could be millions): steps that name them are not refused again.
                namesIncomplete = true;
                continue;
            }
            String taken = null;
            for (long n = 1; n <= count; n++) {
                String name = pattern.replace(NUMBER_PLACEHOLDER, Long.toString(n));
                String before = namesSeen.putIfAbsent(name, m.path());
                if (before != null) {
                    if (taken == null) {
                        taken = name;
                        m.fault("name", "the name '" + name + "' (agent " + n + " of the group) is used twice, first by "
                            + before + " (node and link names share one namespace)");
                    }
                    continue;
                }
                names.add(name);
                if (spec != null) {
                    agents.add(spec.make(name, port.intValue(), ipv4(first + n - 1)));
                }
            }
        }
        return agents;
    }

    /** @return the group's name pattern, or null when missing or unable to make valid names (reported) */
    private String namePattern(InputMapping m) {
        String pattern = m.requiredText("name", "the agents' names, with " + NUMBER_PLACEHOLDER + " for their number (e.g. ws"
            + NUMBER_PLACEHOLDER + ")");
        if (pattern == null) {
            return null;
        }
        int at = pattern.indexOf(NUMBER_PLACEHOLDER);
        if (at < 0 || pattern.indexOf(NUMBER_PLACEHOLDER, at + 1) >= 0) {
            m.fault("name", "a group's name must hold " + NUMBER_PLACEHOLDER + " exactly once, for each agent's number"
                + " (e.g. ws" + NUMBER_PLACEHOLDER + " makes ws1, ws2, ...); was '" + pattern + "'");
            return null;
        }
        String example = pattern.replace(NUMBER_PLACEHOLDER, "1");
        if (!NAME.matcher(example).matches()) {
            m.fault("name", "the names it makes (e.g. '" + example + "') must start with a letter and use only letters, digits,"
                + " '_', '.', '-'; was '" + pattern + "'");
            return null;
        }
        return pattern;
    }

    /** @return the IPv4 loopback address at {@code key} as an unsigned 32-bit value, or null when it is not one (reported) */
    private Long loopbackAddress(InputMapping m, String key) {
        String text = m.requiredText(key, "the address of the group's first agent, in 127.0.0.1..127.255.255.254");
        if (text == null) {
            return null;
        }
        var matcher = IPV4.matcher(text);
        long value = -1;
        if (matcher.matches()) {
            value = 0;
            for (int i = 1; i <= 4 && value >= 0; i++) {
                int octet = Integer.parseInt(matcher.group(i));
                value = octet > 255 ? -1 : value << 8 | octet;
            }
        }
        if (value < FIRST_LOOPBACK || value > LAST_LOOPBACK) {
            m.fault(key, "'" + key + "' must be an IPv4 address in 127.0.0.1..127.255.255.254 (the loopback network, which"
                + " Linux routes to lo without configuration); was '" + text + "'");
            return null;
        }
        return value;
    }

    /** @return whether the group's addresses fit in 127/8 and do not overlap another group's on its port (else reported) */
    private boolean placedWithin127(InputMapping m, long first, long count, long port) {
        long last = first + count - 1;
        if (last > LAST_LOOPBACK) {
            m.fault("count", count + " agents from " + ipv4Text(first) + " would end at " + ipv4Text(last)
                + ", beyond 127.255.255.254, the last loopback address: at most " + (LAST_LOOPBACK - first + 1)
                + " fit from there (start lower or generate fewer)");
            return false;
        }
        for (GroupRange other : groupRanges) {
            if (other.port() == port && first <= other.lastAddress() && other.firstAddress() <= last) {
                m.fault("first_address", "its addresses " + ipv4Text(first) + ".." + ipv4Text(last) + " overlap those of "
                    + other.path() + " (" + ipv4Text(other.firstAddress()) + ".." + ipv4Text(other.lastAddress())
                    + ") on the same port " + port);
                return false;
            }
        }
        groupRanges.add(new GroupRange(first, last, port, m.path()));
        return true;
    }

    private static InetAddress ipv4(long value) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8),
                (byte) value});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    private static String ipv4Text(long value) {
        return (value >>> 24 & 0xFF) + "." + (value >>> 16 & 0xFF) + "." + (value >>> 8 & 0xFF) + "." + (value & 0xFF);
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
