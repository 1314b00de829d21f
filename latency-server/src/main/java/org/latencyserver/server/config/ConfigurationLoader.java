package org.latencyserver.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileFault;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * Reads and validates the server's YAML configuration. Every fault is reported — file, line,
 * column, key path and the bad value — and nothing starts until there is none. Unknown keys are
 * faults (a typo must not silently become a default), with the closest known key suggested.
 *
 * <p>One instance reads one file; not thread-safe.
 */
public final class ConfigurationLoader {

    private static final Set<String> TOP = Set.of("server", "thresholds", "measurement", "profiles", "nodes", "links",
        "connections");
    private static final Set<String> SERVER = Set.of("name", "state_file", "operator_calls_enabled", "planner_calls_enabled");
    private static final Set<String> THRESHOLDS = Set.of("cpu_low_upper_percent", "cpu_medium_upper_percent",
        "cpu_hysteresis_band_percent", "port_hysteresis_band_percent");
    private static final Set<String> MEASUREMENT = Set.of("round_trips", "timeout_millis", "min_interval_millis",
        "max_concurrent_measurements");
    private static final Set<String> NODE = Set.of("name", "node_id", "workstation_type", "mib_source");
    private static final Set<String> LINK = Set.of("name", "mib_source");
    private static final Set<String> CONNECTION = Set.of("index_ref", "client", "peer", "link", "message_size_bytes", "qos",
        "profile", "bound_percent");

    private final Path file;
    private final String fileName;
    private final List<ConfigurationFault> faults = new ArrayList<>();

    private ConfigurationLoader(final Path file) {
        this.file = file;
        this.fileName = file.toString();
    }

    /**
     * @param file the YAML configuration; profile paths in it are relative to its directory
     * @return the validated configuration, with its profiles loaded
     * @throws ConfigurationException with every fault
     */
    public static ServerConfiguration load(final Path file) throws ConfigurationException {
        return new ConfigurationLoader(file).load();
    }

    private ServerConfiguration load() throws ConfigurationException {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigurationException(List.of(new ConfigurationFault(fileName, 0, 0, "file", "cannot be read: " + e)));
        }
        final YamlNode root;
        try {
            root = YamlNode.parse(text);
        } catch (IOException e) {
            final int line = e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe && jpe.getLocation() != null
                ? jpe.getLocation().getLineNr() : 0;
            final String message = e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe
                ? jpe.getOriginalMessage() : e.getMessage();
            throw new ConfigurationException(List.of(new ConfigurationFault(fileName, line, 0, "file",
                "malformed YAML: " + message.lines().findFirst().orElse(message))));
        }
        if (root.kind() != YamlNode.Kind.MAP) {
            throw new ConfigurationException(List.of(new ConfigurationFault(fileName, root.line(), root.column(), "file",
                "expected a mapping with keys " + new TreeSet<>(TOP))));
        }
        knownKeys(root, "", TOP);
        final YamlNode server = optionalMap(root, "", "server");
        final String name = server == null ? "LatencyServer" : string(server, "server", "name", "LatencyServer");
        final String defaultState = file.getFileName().toString().replaceFirst("\\.ya?ml$", "") + ".state.json";
        final Path stateFile = file.toAbsolutePath().getParent()
            .resolve(server == null ? defaultState : string(server, "server", "state_file", defaultState)).normalize();
        final boolean operatorCalls = server == null || bool(server, "server", "operator_calls_enabled", true);
        final boolean plannerCalls = server == null || bool(server, "server", "planner_calls_enabled", true);
        if (server != null) {
            knownKeys(server, "server", SERVER);
        }
        final EngineSettings engine = engineSettings(root);
        final Map<String, Profile> profiles = profiles(root);
        final Map<String, NodeConfig> nodes = nodes(root);
        final List<String> links = links(root);
        final List<ConnectionSpec> connections = connections(root, nodes, links, profiles);
        if (!faults.isEmpty()) {
            faults.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
            throw new ConfigurationException(faults);
        }
        return new ServerConfiguration(file, name, stateFile, operatorCalls, plannerCalls, engine, Map.copyOf(profiles),
            List.copyOf(nodes.values()), List.copyOf(links), List.copyOf(connections));
    }

    private EngineSettings engineSettings(final YamlNode root) {
        final YamlNode thresholds = optionalMap(root, "", "thresholds");
        final YamlNode measurement = optionalMap(root, "", "measurement");
        if (thresholds != null) {
            knownKeys(thresholds, "thresholds", THRESHOLDS);
        }
        if (measurement != null) {
            knownKeys(measurement, "measurement", MEASUREMENT);
        }
        final EngineSettings d = EngineSettings.DEFAULT;
        final double low = number(thresholds, "thresholds", "cpu_low_upper_percent", 33, 0, 99);
        final double medium = number(thresholds, "thresholds", "cpu_medium_upper_percent", 66, 1, 99);
        final double cpuBand = number(thresholds, "thresholds", "cpu_hysteresis_band_percent", 2, 0, 30);
        final double portBand = number(thresholds, "thresholds", "port_hysteresis_band_percent", 1, 0, 9.99);
        CpuThresholds cpu = CpuThresholds.DEFAULT;
        try {
            cpu = new CpuThresholds(low, medium, cpuBand);
        } catch (IllegalArgumentException e) {
            fault(thresholds == null ? root : thresholds, "thresholds", e.getMessage());
        }
        final long roundTrips = integer(measurement, "measurement", "round_trips", d.roundTripsPerMeasurement(), 1, 10_000_000);
        final long timeoutMillis = integer(measurement, "measurement", "timeout_millis", 30_000, 1, 86_400_000);
        final long intervalMillis = integer(measurement, "measurement", "min_interval_millis", 5_000, 0, 86_400_000);
        final long concurrent = integer(measurement, "measurement", "max_concurrent_measurements", 2, 1, 10_000);
        return new EngineSettings(cpu, portBand, (int) roundTrips, timeoutMillis * 1_000_000L, intervalMillis * 1_000_000L,
            (int) concurrent);
    }

    private Map<String, Profile> profiles(final YamlNode root) {
        final Map<String, Profile> profiles = new LinkedHashMap<>();
        final YamlNode list = optionalList(root, "", "profiles");
        if (list == null) {
            return profiles;
        }
        final Path directory = file.toAbsolutePath().getParent();
        for (int i = 0; i < list.items().size(); i++) {
            final YamlNode item = list.items().get(i);
            final String path = "profiles[" + i + "]";
            if (item.kind() != YamlNode.Kind.SCALAR) {
                fault(item, path, "expected a profile file path");
                continue;
            }
            try {
                final Profile profile = ProfileJson.read(directory.resolve(item.text()).normalize());
                if (profiles.putIfAbsent(profile.name(), profile) != null) {
                    fault(item, path, "a second profile named '" + profile.name() + "'");
                }
            } catch (ProfileValidationException e) {
                for (final ProfileFault profileFault : e.faults()) {
                    fault(item, path, "profile refused: " + profileFault);
                }
            }
        }
        return profiles;
    }

    private Map<String, NodeConfig> nodes(final YamlNode root) {
        final Map<String, NodeConfig> nodes = new LinkedHashMap<>();
        final YamlNode list = optionalList(root, "", "nodes");
        if (list == null) {
            fault(root, "nodes", "missing: the workstations the connections join");
            return nodes;
        }
        final Map<String, Short> typeCodes = new HashMap<>(Map.of("TAC-3", (short) 3, "TAC-4", (short) 4));
        final Map<Long, String> ids = new HashMap<>();
        for (int i = 0; i < list.items().size(); i++) {
            final String path = "nodes[" + i + "]";
            final YamlNode node = itemMap(list.items().get(i), path);
            if (node == null) {
                continue;
            }
            knownKeys(node, path, NODE);
            final String name = requiredString(node, path, "name");
            final long id = requiredInteger(node, path, "node_id", 1, Short.MAX_VALUE);
            final String type = requiredString(node, path, "workstation_type");
            mibSource(node, path);
            if (name == null || id < 0 || type == null) {
                continue;
            }
            final String other = ids.putIfAbsent(id, name);
            if (other != null) {
                fault(node.fields().get("node_id"), path + ".node_id", "node_id " + id + " is already used by node '" + other + "'");
            }
            final short code = typeCodes.computeIfAbsent(type, t -> (short) (typeCodes.values().stream()
                .mapToInt(Short::intValue).max().orElse(4) + 1));
            if (nodes.putIfAbsent(name, new NodeConfig(name, (short) id, type, code)) != null) {
                fault(node.fields().get("name"), path + ".name", "a second node named '" + name + "'");
            }
        }
        return nodes;
    }

    private List<String> links(final YamlNode root) {
        final List<String> links = new ArrayList<>();
        final YamlNode list = optionalList(root, "", "links");
        if (list == null) {
            return links;
        }
        for (int i = 0; i < list.items().size(); i++) {
            final String path = "links[" + i + "]";
            final YamlNode link = itemMap(list.items().get(i), path);
            if (link == null) {
                continue;
            }
            knownKeys(link, path, LINK);
            final String name = requiredString(link, path, "name");
            mibSource(link, path);
            if (name != null && links.contains(name)) {
                fault(link.fields().get("name"), path + ".name", "a second link named '" + name + "'");
            } else if (name != null) {
                links.add(name);
            }
        }
        return links;
    }

    private void mibSource(final YamlNode node, final String path) {
        final String source = string(node, path, "mib_source", "push");
        if (!"push".equals(source)) {
            fault(node.fields().get("mib_source"), path + ".mib_source", "'" + source
                + "' is not supported by this version; use 'push' (values arrive through PutMibUpdates)");
        }
    }

    private List<ConnectionSpec> connections(final YamlNode root, final Map<String, NodeConfig> nodes, final List<String> links,
                                             final Map<String, Profile> profiles) {
        final List<ConnectionSpec> connections = new ArrayList<>();
        final YamlNode list = optionalList(root, "", "connections");
        if (list == null) {
            fault(root, "connections", "missing: a server without connections serves nothing");
            return connections;
        }
        final Map<Long, Integer> indexRefs = new HashMap<>();
        for (int i = 0; i < list.items().size(); i++) {
            final String path = "connections[" + i + "]";
            final YamlNode c = itemMap(list.items().get(i), path);
            if (c == null) {
                continue;
            }
            final int before = faults.size();
            knownKeys(c, path, CONNECTION);
            final long indexRef = requiredInteger(c, path, "index_ref", 1, Short.MAX_VALUE);
            if (indexRef > 0) {
                final Integer first = indexRefs.putIfAbsent(indexRef, i);
                if (first != null) {
                    fault(c.fields().get("index_ref"), path + ".index_ref", "index_ref " + indexRef
                        + " is already used by connections[" + first + "]");
                }
            }
            final NodeConfig client = nodeRef(c, path, "client", nodes);
            final NodeConfig peer = nodeRef(c, path, "peer", nodes);
            if (client != null && client.equals(peer)) {
                fault(c.fields().get("peer"), path + ".peer", "client and peer are the same node '" + client.name() + "'");
            }
            final String link = string(c, path, "link", null);
            if (link != null && !links.contains(link)) {
                fault(c.fields().get("link"), path + ".link", "unknown link '" + link + "'; links: " + links);
            }
            final long size = requiredInteger(c, path, "message_size_bytes", 1, Short.MAX_VALUE);
            final long qos = requiredInteger(c, path, "qos", 1, 4);
            final YamlNode boundNode = c.fields().get("bound_percent");
            double bound = 0;
            if ((qos == 2 || qos == 4) && boundNode == null) {
                fault(c, path, "QoS " + qos + " serves a bound: bound_percent is required");
            } else if ((qos == 1 || qos == 3) && boundNode != null) {
                fault(boundNode, path + ".bound_percent", "QoS " + qos + " serves a mean: bound_percent does not apply");
            } else if (boundNode != null) {
                bound = number(c, path, "bound_percent", 0, 0.0001, 100);
            }
            final String profileName = string(c, path, "profile", null);
            if (profileName != null && !profiles.containsKey(profileName)) {
                fault(c.fields().get("profile"), path + ".profile", "unknown profile '" + profileName + "'; loaded: "
                    + new TreeSet<>(profiles.keySet()));
            } else if (profileName == null && (qos == 1 || qos == 2)) {
                fault(c, path, "QoS " + qos + " is served from a profile: profile is required");
            } else if (profileName != null && client != null && !profiles.get(profileName).workstationType().equals(client.workstationType())) {
                fault(c.fields().get("profile"), path + ".profile", "profile '" + profileName + "' is for "
                    + profiles.get(profileName).workstationType() + " workstations, but client '" + client.name() + "' is a "
                    + client.workstationType());
            }
            if (faults.size() == before) {
                connections.add(new ConnectionSpec((short) indexRef, client.name(), client.nodeId(), client.workstationTypeCode(),
                    peer.name(), peer.nodeId(), peer.workstationTypeCode(), link, (int) size, (int) qos, bound, profileName));
            }
        }
        return connections;
    }

    private NodeConfig nodeRef(final YamlNode c, final String path, final String key, final Map<String, NodeConfig> nodes) {
        final String name = requiredString(c, path, key);
        if (name == null) {
            return null;
        }
        final NodeConfig node = nodes.get(name);
        if (node == null) {
            fault(c.fields().get(key), path + "." + key, "unknown node '" + name + "'; nodes: " + nodes.keySet());
        }
        return node;
    }

    // ---- typed access, each reporting its own fault ------------------------------------------

    private void knownKeys(final YamlNode map, final String path, final Set<String> known) {
        for (final String key : map.fields().keySet()) {
            if (!known.contains(key)) {
                final int[] at = map.keyLocation(key);
                final String suggestion = closest(key, known);
                faults.add(new ConfigurationFault(fileName, at[0], at[1], join(path, key), "unknown key '" + key + "'"
                    + (suggestion == null ? "; known keys: " + new TreeSet<>(known) : " - did you mean '" + suggestion + "'?")));
            }
        }
    }

    private static String closest(final String key, final Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known) {
            final int distance = editDistance(key, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 4) ? best : null;
    }

    private static int editDistance(final String a, final String b) {
        final int[] previous = new int[b.length() + 1];
        final int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            System.arraycopy(current, 0, previous, 0, current.length);
        }
        return previous[b.length()];
    }

    private YamlNode optionalMap(final YamlNode parent, final String path, final String key) {
        final YamlNode node = parent.fields().get(key);
        if (node == null || node.kind() == YamlNode.Kind.NULL) {
            return null;
        }
        if (node.kind() != YamlNode.Kind.MAP) {
            fault(node, join(path, key), "expected a mapping");
            return null;
        }
        return node;
    }

    private YamlNode optionalList(final YamlNode parent, final String path, final String key) {
        final YamlNode node = parent.fields().get(key);
        if (node == null || node.kind() == YamlNode.Kind.NULL) {
            return null;
        }
        if (node.kind() != YamlNode.Kind.LIST) {
            fault(node, join(path, key), "expected a list");
            return null;
        }
        return node;
    }

    private YamlNode itemMap(final YamlNode item, final String path) {
        if (item.kind() != YamlNode.Kind.MAP) {
            fault(item, path, "expected a mapping");
            return null;
        }
        return item;
    }

    private String string(final YamlNode map, final String path, final String key, final String fallback) {
        final YamlNode node = map == null ? null : map.fields().get(key);
        if (node == null || node.kind() == YamlNode.Kind.NULL) {
            return fallback;
        }
        if (node.kind() != YamlNode.Kind.SCALAR || node.text().isBlank()) {
            fault(node, join(path, key), "expected a non-empty text");
            return fallback;
        }
        return node.text();
    }

    private String requiredString(final YamlNode map, final String path, final String key) {
        if (!map.fields().containsKey(key)) {
            fault(map, join(path, key), "missing required key '" + key + "'");
            return null;
        }
        return string(map, path, key, null);
    }

    private boolean bool(final YamlNode map, final String path, final String key, final boolean fallback) {
        final YamlNode node = map.fields().get(key);
        if (node == null) {
            return fallback;
        }
        if (!node.isBoolean()) {
            fault(node, join(path, key), "expected true or false, was '" + node.text() + "'");
            return fallback;
        }
        return Boolean.parseBoolean(node.text());
    }

    private double number(final YamlNode map, final String path, final String key, final double fallback,
                          final double minimum, final double maximum) {
        final YamlNode node = map == null ? null : map.fields().get(key);
        if (node == null) {
            return fallback;
        }
        if (!node.isNumber()) {
            fault(node, join(path, key), "expected a number, was '" + node.text() + "'");
            return fallback;
        }
        final double value = Double.parseDouble(node.text());
        if (!(value >= minimum && value <= maximum)) {
            fault(node, join(path, key), String.format(Locale.ROOT, "must be %s..%s, was %s", trim(minimum), trim(maximum), node.text()));
            return fallback;
        }
        return value;
    }

    private long integer(final YamlNode map, final String path, final String key, final long fallback,
                         final long minimum, final long maximum) {
        final YamlNode node = map == null ? null : map.fields().get(key);
        if (node == null) {
            return fallback;
        }
        return checkedInteger(node, join(path, key), minimum, maximum, fallback);
    }

    private long requiredInteger(final YamlNode map, final String path, final String key, final long minimum, final long maximum) {
        final YamlNode node = map.fields().get(key);
        if (node == null) {
            fault(map, join(path, key), "missing required key '" + key + "'");
            return -1;
        }
        return checkedInteger(node, join(path, key), minimum, maximum, -1);
    }

    private long checkedInteger(final YamlNode node, final String path, final long minimum, final long maximum, final long fallback) {
        if (!node.isInteger()) {
            fault(node, path, "expected a whole number, was '" + node.text() + "'");
            return fallback;
        }
        final long value;
        try {
            value = Long.parseLong(node.text());
        } catch (NumberFormatException e) {
            fault(node, path, "number out of range: " + node.text());
            return fallback;
        }
        if (value < minimum || value > maximum) {
            fault(node, path, "must be " + minimum + ".." + maximum + ", was " + value);
            return fallback;
        }
        return value;
    }

    private void fault(final YamlNode at, final String path, final String reason) {
        faults.add(new ConfigurationFault(fileName, at.line(), at.column(), path, reason));
    }

    private static String join(final String path, final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String trim(final double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
