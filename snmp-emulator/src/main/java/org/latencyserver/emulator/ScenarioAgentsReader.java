package org.latencyserver.emulator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.latencyserver.core.input.InputMapping;

/**
 * Reads a scenario's emulated agents: the listed ones ({@code nodes}, {@code links}) and the
 * generated ones ({@code node_groups}, {@code link_groups}). Names are unique among all agents
 * (nodes and links share one namespace), a listed agent's UDP port is its own, and a group's
 * loopback addresses stay within 127/8 and overlap no other group's on the same port. Each fault
 * is reported through the entry's {@link InputMapping}. One instance reads one scenario; not
 * thread-safe.
 */
final class ScenarioAgentsReader {
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
    private static final Set<String> GROUP = Set.of("count", "name", "first_address", "port");
    /** The loopback network 127/8 less its network and broadcast addresses, as 32-bit unsigned values. */
    private static final long FIRST_LOOPBACK = 0x7F00_0001L;
    private static final long LAST_LOOPBACK = 0x7FFF_FFFEL;
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    /** The placeholder a group's name pattern holds for the agent's number, 1..count. */
    private static final String NUMBER_PLACEHOLDER = "{n}";

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

    /** Makes an agent's spec from its checked name, UDP port and address (null: the emulator's). */
    @FunctionalInterface
    interface AgentFactory<T> {
        T make(String name, int udpPort, InetAddress address);
    }

    /** Reads an emulated agent's own values (besides its name, port and address). */
    @FunctionalInterface
    interface AgentValues<T> {
        /**
         * @return what makes the agent's spec, or null when one of its own values is faulty (the fault
         *         is reported)
         */
        AgentFactory<T> read(InputMapping entry);
    }

    /** @return whether a group's names were not made because its addresses are faulty (reported) */
    boolean namesIncomplete() {
        return namesIncomplete;
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
    <T> List<T> agents(List<InputMapping> sections, Set<String> allowed, Set<String> names, AgentValues<T> own) {
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
    <T> List<T> groups(List<InputMapping> sections, Set<String> agentKeys, Set<String> names, AgentValues<T> own) {
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
}
