package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The Latency Server's side of a scenario: its {@code nodes:} and {@code links:} sections, one entry
 * per emulated agent in the server configuration's own keys ({@code docs/operator-guide.md}), each
 * polled over SNMP at the agent's address. A configuration is this text plus {@code profiles:},
 * {@code connections:} and whatever else it sets: so a scenario of ten thousand generated
 * workstations needs no hand-written node list on the server either.
 *
 * <p>Nodes get {@code node_id} 1, 2, ... in scenario order; the server reads it as an IDL short, so
 * one file holds at most 32,767 nodes. v2c when the emulator serves a community (its variable is
 * named), else v3 authPriv SHA/AES with the emulator's user and passphrase variables.
 *
 * <p>Stateless and thread-safe.
 */
public final class ServerNodesFile {
    /** The largest node_id: the IDL's client_node and peer_node are shorts. */
    public static final int MAX_NODE_ID = Short.MAX_VALUE;

    private ServerNodesFile() {
    }

    /**
     * @param scenario        the scenario
     * @param bindAddress     the address of the agents that have none of their own
     * @return every agent's address, by name, nodes first; ports as the scenario gives them
     * @throws IllegalArgumentException naming the agent when its port is 0 (only a running emulator knows it)
     */
    public static Map<String, InetSocketAddress> addressesOf(Scenario scenario, InetAddress bindAddress) {
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        Function<InetAddress, InetAddress> own = a -> a == null ? bindAddress : a;
        scenario.nodes().forEach(n -> addresses.put(n.name(), fixed(n.name(), own.apply(n.address()), n.udpPort())));
        scenario.links().forEach(l -> addresses.put(l.name(), fixed(l.name(), own.apply(l.address()), l.udpPort())));
        return addresses;
    }

    private static InetSocketAddress fixed(String name, InetAddress address, int udpPort) {
        if (udpPort == 0) {
            throw new IllegalArgumentException("'" + name + "' has port 0 (any free port): the server's node list can only"
                    + " name it once the emulator runs; give it a port or drop --dry-run");
        }
        return new InetSocketAddress(address, udpPort);
    }

    /**
     * @param scenario        the scenario the agents follow
     * @param addresses       every agent's address and port, by name
     * @param access          who may read the agents: v2c when it has a community, else v3
     * @param communityEnv    the environment variable holding the community, for the server to read
     * @param workstationType the nodes' workstation_type, as the server's profiles name it (e.g. TAC-4)
     * @return the nodes and links sections
     * @throws IllegalArgumentException when there are more nodes than node_id can number
     */
    public static String render(Scenario scenario, Map<String, InetSocketAddress> addresses, AccessConfig access,
            String communityEnv, String workstationType) {
        if (scenario.nodes().size() > MAX_NODE_ID) {
            throw new IllegalArgumentException("the scenario has " + scenario.nodes().size() + " nodes; a server numbers"
                    + " its nodes with node_id, an IDL short: at most " + MAX_NODE_ID + " per server");
        }
        String credentials = access.community().isPresent() ? "version: v2c, community_env: " + communityEnv
                : access.v3().map(u -> "version: v3, user: " + u.userName() + ", auth_protocol: SHA, auth_password_env: "
                        + AccessConfig.V3_AUTH_ENV + ", priv_protocol: AES, priv_password_env: " + AccessConfig.V3_PRIV_ENV)
                        .orElseThrow(() -> new IllegalArgumentException("the agents serve neither v2c nor v3"));
        StringBuilder text = new StringBuilder("# The Latency Server's nodes and links for the snmp-emulator's scenario ")
                .append(scenario.source()).append(": ").append(scenario.nodes().size()).append(" workstations, ")
                .append(scenario.links().size()).append(" switch ports.\n# Add profiles: and connections: to make a configuration.\n");
        text.append(scenario.nodes().isEmpty() ? "nodes: []\n" : "nodes:\n");
        int nodeId = 0;
        for (NodeSpec node : scenario.nodes()) {
            text.append("  - { name: ").append(node.name()).append(", node_id: ").append(++nodeId)
                    .append(", workstation_type: ").append(workstationType).append(", mib_source: snmp, snmp: { address: ")
                    .append(address(addresses, node.name())).append(", ").append(credentials).append(" } }\n");
        }
        if (!scenario.links().isEmpty()) {
            text.append("links:\n");
        }
        for (LinkSpec link : scenario.links()) {
            text.append("  - { name: ").append(link.name()).append(", mib_source: snmp, snmp: { address: ")
                    .append(address(addresses, link.name())).append(", ").append(credentials).append(", if_index: ")
                    .append(link.ifIndex()).append(", speed_mbps: ").append(link.speedMbps()).append(" } }\n");
        }
        return text.toString();
    }

    private static String address(Map<String, InetSocketAddress> addresses, String name) {
        InetSocketAddress a = addresses.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no address for the agent '" + name + "'");
        }
        return "\"udp:" + a.getAddress().getHostAddress() + "/" + a.getPort() + "\"";
    }

    /** Writes the text (UTF-8), replacing the file. */
    public static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
