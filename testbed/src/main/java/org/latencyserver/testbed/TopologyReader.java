package org.latencyserver.testbed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFiles;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;

/**
 * Reads and checks a topology file (YAML). Every fault is reported at once, each as
 * {@code file:line:column: key.path: reason} with the bad value; unknown keys are faults. The
 * format ({@code docs/testbed.md} has the whole story):
 *
 * <pre>
 * name: one                                   # the testbed's name: a-z then a-z0-9, up to 12; no '-'
 * switches:
 *   - { name: sw1, management_address: 198.18.0.254/24 }
 * hosts:
 *   - { name: srv, switch: sw1, address: 198.18.0.1/24 }
 *   - { name: ws1, switch: sw1, address: 198.18.0.2/24, cpu_core: 0 }   # its snmpd reports core 0 as its CPU
 *   - { name: ws2, switch: sw1, address: 198.18.0.3/24,
 *       bottleneck: { rate_mbit: 20, burst_kbyte: 10, latency_ms: 25 } }   # tbf on the port toward ws2
 * links:                                      # optional: switch to switch
 *   - { name: trunk, between: [sw1, sw2], bottleneck: { toward: sw2, rate_mbit: 20 } }
 * </pre>
 *
 * <p>Rules: names of switches, hosts and links are a-z then a-z0-9 or '-', up to
 * {@value #MAX_NODE_NAME_CHARS} characters (an interface name is at most 15), unique across all
 * three; every address is in 198.18.0.0/15, unique, neither a network's own nor its broadcast
 * address; a host's address is in its switch's management network, and linked switches share one
 * network; links join two different switches and form no loop.
 *
 * <p>One instance reads one text; the static methods are thread-safe.
 */
public final class TopologyReader {

    /** Longest switch, host or link name: its port's interface name adds two characters, and Linux allows 15. */
    public static final int MAX_NODE_NAME_CHARS = 13;
    /** Longest testbed name. */
    public static final int MAX_TESTBED_NAME_CHARS = 12;
    /** A testbed's name: no '-', so that one testbed's namespace prefix is never the start of another's. */
    public static final Pattern TESTBED_NAME = Pattern.compile("[a-z][a-z0-9]{0," + (MAX_TESTBED_NAME_CHARS - 1) + "}");
    private static final Pattern NODE_NAME = Pattern.compile("[a-z][a-z0-9-]{0," + (MAX_NODE_NAME_CHARS - 1) + "}");
    private static final Set<String> TOP = Set.of("name", "switches", "hosts", "links");
    private static final Set<String> SWITCH = Set.of("name", "management_address");
    private static final Set<String> HOST = Set.of("name", "switch", "address", "bottleneck", "cpu_core");
    private static final Set<String> LINK = Set.of("name", "between", "bottleneck");
    private static final Set<String> HOST_BOTTLENECK = Set.of("rate_mbit", "burst_kbyte", "latency_ms");
    private static final Set<String> LINK_BOTTLENECK = Set.of("toward", "rate_mbit", "burst_kbyte", "latency_ms");
    /** Slowest bottleneck, Mbit/s: tc's rate is in whole kbit/s. */
    private static final double MIN_RATE_MBIT = 0.001;
    /** Fastest bottleneck, Mbit/s: a veth carries a few Gbit/s here at most. */
    private static final double MAX_RATE_MBIT = 100_000;

    private final InputFaults faults;
    /** Every switch, host and link name seen, with the path that named it first. */
    private final Map<String, String> names = new HashMap<>();
    /** Every address seen, with the path that used it first. */
    private final Map<Long, String> addresses = new HashMap<>();

    private TopologyReader(final String label) {
        this.faults = new InputFaults(label);
    }

    /**
     * @param file a topology file
     * @return its topology
     * @throws InputFaultsException with every fault when it cannot be read or breaks a rule
     */
    public static Topology load(final Path file) throws InputFaultsException {
        return parse(InputFiles.readText(file, "topology file"), file.toString());
    }

    /**
     * @param yaml  a topology's text
     * @param label the file's name in faults
     * @return its topology
     * @throws InputFaultsException with every fault
     */
    public static Topology parse(final String yaml, final String label) throws InputFaultsException {
        return new TopologyReader(label).read(yaml);
    }

    private Topology read(final String yaml) throws InputFaultsException {
        final InputMapping top = InputMapping.root(InputNode.parse(yaml, InputFormat.YAML, faults), "a topology", faults);
        if (top == null) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        top.allowOnly(TOP);
        final String name = top.requiredText("name", "the testbed's name (its namespaces are lt-NAME-HOST)");
        if (name != null && !TESTBED_NAME.matcher(name).matches()) {
            top.fault("name", "must be a-z then a-z0-9, up to " + MAX_TESTBED_NAME_CHARS + " characters (no '-'), was '"
                + name + "'");
        }
        final Map<String, SwitchSpec> switches = switches(top);
        final List<HostSpec> hosts = hosts(top, switches);
        final List<LinkSpec> links = links(top, switches);
        faults.throwIfAny();
        return new Topology(name, List.copyOf(switches.values()), hosts, links);
    }

    private Map<String, SwitchSpec> switches(final InputMapping top) {
        final Map<String, SwitchSpec> switches = new LinkedHashMap<>();
        final List<InputMapping> sections = top.sections("switches");
        requireItems(top, "switches", "at least one switch");
        for (final InputMapping m : sections) {
            m.allowOnly(SWITCH);
            final String name = nodeName(m);
            final Ipv4Prefix address = address(m, "management_address", "the bridge's address, where its snmpd answers");
            if (name != null && address != null) {
                switches.put(name, new SwitchSpec(name, address));
            }
        }
        return switches;
    }

    private List<HostSpec> hosts(final InputMapping top, final Map<String, SwitchSpec> switches) {
        final List<HostSpec> hosts = new ArrayList<>();
        final List<InputMapping> sections = top.sections("hosts");
        requireItems(top, "hosts", "at least one host");
        for (final InputMapping m : sections) {
            m.allowOnly(HOST);
            final String name = nodeName(m);
            final String switchName = m.requiredText("switch", "the switch it is plugged into");
            final SwitchSpec attached = switchName == null ? null : switches.get(switchName);
            if (switchName != null && attached == null && !names.containsKey(switchName)) {
                m.fault("switch", "no switch '" + switchName + "'; the switches are " + switches.keySet());
            } else if (switchName != null && attached == null) {
                m.fault("switch", "'" + switchName + "' is not a switch");
            }
            final Ipv4Prefix address = address(m, "address", "the host's address");
            if (address != null && attached != null
                && !(address.addressWithin(attached.managementAddress()) && address.prefixLength()
                    == attached.managementAddress().prefixLength())) {
                m.fault("address", "must be in switch '" + switchName + "''s network " + attached.managementAddress()
                    + " (same prefix length), was " + address);
            }
            final Optional<Bottleneck> bottleneck = bottleneck(m.section("bottleneck"), HOST_BOTTLENECK);
            final int cores = Runtime.getRuntime().availableProcessors();
            final Long core = m.has("cpu_core") ? m.integer("cpu_core", null, 0, cores - 1) : null;
            if (name != null && switchName != null && attached != null && address != null
                && (bottleneck.isPresent() || !m.has("bottleneck")) && (core != null || !m.has("cpu_core"))) {
                hosts.add(new HostSpec(name, switchName, address, bottleneck,
                    core == null ? Optional.empty() : Optional.of(core.intValue())));
            }
        }
        return hosts;
    }

    private List<LinkSpec> links(final InputMapping top, final Map<String, SwitchSpec> switches) {
        final List<LinkSpec> links = new ArrayList<>();
        final Map<String, String> component = new HashMap<>();
        switches.keySet().forEach(s -> component.put(s, s));
        for (final InputMapping m : top.sections("links")) {
            m.allowOnly(LINK);
            final String name = nodeName(m);
            final List<String> between = between(m, switches);
            final InputMapping limit = m.section("bottleneck");
            Optional<String> toward = Optional.empty();
            if (limit != null) {
                final String towardName = limit.requiredText("toward", "the switch the limited traffic goes to");
                if (towardName != null && between != null && !between.contains(towardName)) {
                    limit.fault("toward", "must be one of the link's switches " + between + ", was '" + towardName + "'");
                } else if (towardName != null) {
                    toward = Optional.of(towardName);
                }
            }
            final Optional<Bottleneck> bottleneck = bottleneck(limit, LINK_BOTTLENECK);
            if (between == null) {
                continue;
            }
            final String first = find(component, between.get(0));
            final String second = find(component, between.get(1));
            if (first.equals(second)) {
                m.fault("between", "the link closes a loop between " + between.get(0) + " and " + between.get(1)
                    + " (bridges here run no spanning tree); remove a link");
                continue;
            }
            component.put(first, second);
            final Ipv4Prefix a = switches.get(between.get(0)).managementAddress();
            final Ipv4Prefix b = switches.get(between.get(1)).managementAddress();
            if (!(a.addressWithin(b) && a.prefixLength() == b.prefixLength())) {
                m.fault("between", "linked switches share one network: " + between.get(0) + " is in " + a + ", "
                    + between.get(1) + " in " + b);
            }
            if (name != null && (limit == null || (bottleneck.isPresent() && toward.isPresent()))) {
                links.add(new LinkSpec(name, between.get(0), between.get(1), bottleneck, toward));
            }
        }
        return links;
    }

    /** @return the link's two switches, or null when faulty (reported) */
    private List<String> between(final InputMapping m, final Map<String, SwitchSpec> switches) {
        if (!m.require("between", "the two switches it joins, e.g. [sw1, sw2]")) {
            return null;
        }
        final List<InputNode> items = m.list("between");
        if (m.value("between").kind() != InputNode.Kind.LIST) {
            return null; // reported by list()
        }
        if (items.size() != 2) {
            m.fault("between", "must name exactly two switches, named " + items.size());
            return null;
        }
        final List<String> ends = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            final InputNode item = items.get(i);
            final String text = item.kind() == InputNode.Kind.SCALAR ? item.text() : null;
            if (text == null || !switches.containsKey(text)) {
                faults.at(item, m.pathOf("between") + "[" + i + "]", "no switch '" + (text == null ? item.describe() : text)
                    + "'; the switches are " + switches.keySet());
                return null;
            }
            ends.add(text);
        }
        if (ends.get(0).equals(ends.get(1))) {
            m.fault("between", "must name two different switches, named '" + ends.get(0) + "' twice");
            return null;
        }
        return ends;
    }

    private Optional<Bottleneck> bottleneck(final InputMapping m, final Set<String> keys) {
        if (m == null) {
            return Optional.empty();
        }
        m.allowOnly(keys);
        final Double rate = m.require("rate_mbit", "the rate toward the port, Mbit/s")
            ? m.decimal("rate_mbit", null, MIN_RATE_MBIT, false, MAX_RATE_MBIT) : null;
        final Long burst = m.integer("burst_kbyte", Bottleneck.DEFAULT_BURST_KBYTES, 1, 1_048_576);
        final Long latency = m.integer("latency_ms", Bottleneck.DEFAULT_LATENCY_MILLIS, 1, 60_000);
        return rate == null || burst == null || latency == null ? Optional.empty()
            : Optional.of(new Bottleneck(rate, burst, latency));
    }

    /** @return the mapping's name when valid and new, else null (reported) */
    private String nodeName(final InputMapping m) {
        final String name = m.requiredText("name", "a name (a-z then a-z0-9 or '-', up to " + MAX_NODE_NAME_CHARS + ")");
        if (name == null) {
            return null;
        }
        if (!NODE_NAME.matcher(name).matches()) {
            m.fault("name", "must be a-z then a-z0-9 or '-', up to " + MAX_NODE_NAME_CHARS + " characters, was '" + name + "'");
            return null;
        }
        final String earlier = names.putIfAbsent(name, m.pathOf("name"));
        if (earlier != null) {
            m.fault("name", "'" + name + "' is already the name at " + earlier + " (switch, host and link names are unique)");
            return null;
        }
        return name;
    }

    /** @return the key's address when valid and new, else null (reported) */
    private Ipv4Prefix address(final InputMapping m, final String key, final String what) {
        final String text = m.requiredText(key, what + ", e.g. 198.18.0.2/24");
        if (text == null) {
            return null;
        }
        final Ipv4Prefix address;
        try {
            address = Ipv4Prefix.parse(text);
        } catch (IllegalArgumentException e) {
            m.fault(key, e.getMessage());
            return null;
        }
        if (!address.networkWithin(Ipv4Prefix.BENCHMARKING_RANGE)) {
            m.fault(key, "must be in the benchmarking range " + Ipv4Prefix.BENCHMARKING_RANGE
                + " with a prefix length of at least 15 (nothing may leave the testbed), was " + text);
            return null;
        }
        if (address.isNetworkOrBroadcast()) {
            m.fault(key, "is its network's own or broadcast address, was " + text);
            return null;
        }
        final String earlier = addresses.putIfAbsent(address.address(), m.pathOf(key));
        if (earlier != null) {
            m.fault(key, address.addressText() + " is already the address at " + earlier);
            return null;
        }
        return address;
    }

    /** Reports a missing key, or a list without items (a value that is not a list is reported by its reader). */
    private static void requireItems(final InputMapping top, final String key, final String what) {
        if (top.require(key, what)) {
            final InputNode value = top.value(key);
            if (value.kind() == InputNode.Kind.LIST && value.items().isEmpty()) {
                top.fault(key, "a topology needs " + what + ", the list is empty");
            }
        }
    }

    private static String find(final Map<String, String> component, final String node) {
        String at = node;
        while (!component.get(at).equals(at)) {
            at = component.get(at);
        }
        return at;
    }
}
