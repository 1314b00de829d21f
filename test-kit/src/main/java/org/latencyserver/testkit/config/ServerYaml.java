package org.latencyserver.testkit.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A server configuration file built with typed calls instead of YAML text, for tests and harnesses:
 * the {@code server} block, the {@code thresholds}, {@code measurement} and {@code limits} sections,
 * {@code profiles}, {@code nodes}, {@code links} and {@code connections}, written in the order given.
 * Keys are the configuration's own (the operator guide's options table); the typed methods cover
 * what tests set often, and {@code with(key, value)} any other key, so a test can still build a
 * configuration the server refuses.
 *
 * <p>Not thread-safe: build on one thread, then {@link #text()} or {@link #writeTo(Path)}.
 */
public final class ServerYaml {

    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
        .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private final Map<String, Object> server = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> sections = new LinkedHashMap<>();
    private final List<String> profiles = new ArrayList<>();
    private final List<Map<String, Object>> nodes = new ArrayList<>();
    private final List<Map<String, Object>> links = new ArrayList<>();
    private final List<Map<String, Object>> connections = new ArrayList<>();

    private ServerYaml() {
    }

    /**
     * @param name the server's name ({@code server.name}, the name it binds in the naming service)
     * @return a configuration with only that name
     */
    public static ServerYaml named(final String name) {
        return new ServerYaml().server("name", Objects.requireNonNull(name, "name"));
    }

    /** @return a configuration whose server takes the default name ({@code LatencyServer}) */
    public static ServerYaml defaultName() {
        return new ServerYaml();
    }

    /** @return this, with {@code server.<key>} set (a value's {@code toString()} for a path) */
    public ServerYaml server(final String key, final Object value) {
        server.put(key, plain(value));
        return this;
    }

    /** @return this, with {@code server.poll_interval_millis} */
    public ServerYaml pollIntervalMillis(final long pollIntervalMillis) {
        return server("poll_interval_millis", pollIntervalMillis);
    }

    /** @return this, with {@code server.state_file} */
    public ServerYaml stateFile(final Path stateFile) {
        return server("state_file", stateFile);
    }

    /** @return this, with the Prometheus endpoint off ({@code server.metrics: {enabled: false, address: 127.0.0.1}}) */
    public ServerYaml metricsOff() {
        return server("metrics", Map.of("enabled", false, "address", "127.0.0.1"));
    }

    /** @return this, with {@code thresholds.<key>} */
    public ServerYaml thresholds(final String key, final Object value) {
        return section("thresholds", key, value);
    }

    /** @return this, with {@code measurement.<key>} */
    public ServerYaml measurement(final String key, final Object value) {
        return section("measurement", key, value);
    }

    /** @return this, with {@code limits.<key>} */
    public ServerYaml limits(final String key, final Object value) {
        return section("limits", key, value);
    }

    /**
     * @param section a top-level section other than server, profiles, nodes, links and connections
     * @return this, with {@code <section>.<key>}
     */
    public ServerYaml section(final String section, final String key, final Object value) {
        sections.computeIfAbsent(section, s -> new LinkedHashMap<>()).put(key, plain(value));
        return this;
    }

    /** @return this, with one more profile file in {@code profiles} */
    public ServerYaml profile(final Path profileFile) {
        profiles.add(profileFile.toString());
        return this;
    }

    /** @return this, with one more workstation in {@code nodes} */
    public ServerYaml node(final Node node) {
        nodes.add(node.keys);
        return this;
    }

    /** @return this, with one more switch port in {@code links} */
    public ServerYaml link(final Link link) {
        links.add(link.keys);
        return this;
    }

    /** @return this, with one more connection in {@code connections} */
    public ServerYaml connection(final Connection connection) {
        connections.add(connection.keys);
        return this;
    }

    /** @return the configuration as YAML, sections in the order server, the other sections, profiles, nodes, links, connections */
    public String text() {
        final Map<String, Object> top = new LinkedHashMap<>();
        top.put("server", server);
        top.putAll(sections);
        putUnlessEmpty(top, "profiles", profiles);
        putUnlessEmpty(top, "nodes", nodes);
        putUnlessEmpty(top, "links", links);
        putUnlessEmpty(top, "connections", connections);
        try {
            return YAML.writeValueAsString(top);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a configuration of plain values could not be written: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * @param file where to write the configuration (replaced if it exists)
     * @return the file
     */
    public Path writeTo(final Path file) {
        try {
            return Files.writeString(file, text());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void putUnlessEmpty(final Map<String, Object> top, final String key, final List<?> items) {
        if (!items.isEmpty()) {
            top.put(key, items);
        }
    }

    /** Paths become their text, numbers and booleans stay so; maps and lists as they are. */
    static Object plain(final Object value) {
        return value instanceof Path ? value.toString() : value;
    }

    /** Keys of one list item, in the order set. */
    private abstract static class Item<T extends Item<T>> {
        final Map<String, Object> keys = new LinkedHashMap<>();

        abstract T self();

        /** @return this, with {@code key: value} */
        public T with(final String key, final Object value) {
            keys.put(key, plain(value));
            return self();
        }
    }

    /** A list item whose values are pushed by default or polled over SNMP: a node or a link. */
    private abstract static class PolledItem<T extends PolledItem<T>> extends Item<T> {

        /** @return this, polled over SNMP ({@code mib_source: snmp} and its {@code snmp} block) */
        public T snmp(final Snmp snmp) {
            return with("mib_source", "snmp").with("snmp", snmp.keys);
        }
    }

    /** A workstation: {@code nodes[]}. */
    public static final class Node extends PolledItem<Node> {

        private Node() {
        }

        /**
         * @param name            {@code name}
         * @param nodeId          {@code node_id}
         * @param workstationType {@code workstation_type}, e.g. TAC-4
         * @return the workstation, its MIB values pushed (the configuration's default)
         */
        public static Node of(final String name, final int nodeId, final String workstationType) {
            return new Node().with("name", name).with("node_id", nodeId).with("workstation_type", workstationType);
        }

        @Override
        Node self() {
            return this;
        }
    }

    /** A switch port: {@code links[]}. */
    public static final class Link extends PolledItem<Link> {

        private Link() {
        }

        /** @return a port of that {@code name}, its utilisation pushed */
        public static Link named(final String name) {
            return new Link().with("name", name);
        }

        @Override
        Link self() {
            return this;
        }
    }

    /** A node's or link's {@code snmp} block. */
    public static final class Snmp extends Item<Snmp> {

        private Snmp() {
        }

        /**
         * @param address       the agent, e.g. {@code udp:127.0.0.1/1161}
         * @param communityEnv  the environment variable that holds the community ({@code community_env})
         * @return an SNMP v2c source
         */
        public static Snmp v2c(final String address, final String communityEnv) {
            return new Snmp().with("address", address).with("version", "v2c").with("community_env", communityEnv);
        }

        /** @return this, reading interface {@code if_index} (a link's port) */
        public Snmp ifIndex(final int ifIndex) {
            return with("if_index", ifIndex);
        }

        /** @return this, with the port's speed ({@code speed_mbps}) instead of the agent's ifSpeed */
        public Snmp speedMbps(final long speedMbps) {
            return with("speed_mbps", speedMbps);
        }

        @Override
        Snmp self() {
            return this;
        }
    }

    /** A connection: {@code connections[]}. */
    public static final class Connection extends Item<Connection> {

        private Connection() {
        }

        /**
         * @param indexRef {@code index_ref}
         * @param client   the client workstation's name
         * @param peer     the peer workstation's name
         * @param qos      {@code qos}, 1–4
         * @return the connection, {@code message_size_bytes: 256} until {@link #messageSizeBytes} says otherwise
         */
        public static Connection of(final int indexRef, final String client, final String peer, final int qos) {
            return new Connection().with("index_ref", indexRef).with("client", client).with("peer", peer)
                .with("message_size_bytes", 256).with("qos", qos);
        }

        /** @return this, over switch port {@code link} */
        public Connection link(final String link) {
            return with("link", link);
        }

        /** @return this, with {@code message_size_bytes} */
        public Connection messageSizeBytes(final int messageSizeBytes) {
            return with("message_size_bytes", messageSizeBytes);
        }

        /** @return this, with {@code bound_percent} (QoS 2 and 4) */
        public Connection boundPercent(final int boundPercent) {
            return with("bound_percent", boundPercent);
        }

        /** @return this, served from (or measured against) the profile of that name */
        public Connection profile(final String profileName) {
            return with("profile", profileName);
        }

        /** @return this, with {@code calibration}: thesis or adaptive */
        public Connection calibration(final String calibration) {
            return with("calibration", calibration);
        }

        /** @return this, with {@code probe_rate_per_second} (0: no probes) */
        public Connection probeRatePerSecond(final int probeRatePerSecond) {
            return with("probe_rate_per_second", probeRatePerSecond);
        }

        @Override
        Connection self() {
            return this;
        }
    }
}
