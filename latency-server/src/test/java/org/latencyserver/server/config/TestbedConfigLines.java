package org.latencyserver.server.config;

import java.nio.file.Path;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;

/**
 * Blocks of whole YAML lines that the configurations of several tests, in this module and in
 * system-tests, share word for word. Each block is one element of the {@code String.join("\n", ...)}
 * that writes a configuration; the test writes the lines around it that make its own case.
 */
public final class TestbedConfigLines {

    /** Two TAC-4 workstations ws1 and ws2 and the link atm-port, all with their MIB data pushed. */
    public static final String PUSHED_WS1_WS2_ON_ATM_PORT = String.join("\n",
        "nodes:",
        "  - { name: ws1, node_id: 1, workstation_type: TAC-4, mib_source: push }",
        "  - { name: ws2, node_id: 2, workstation_type: TAC-4, mib_source: push }",
        "links:",
        "  - { name: atm-port, mib_source: push }");

    /** The three connections over port1 the metrics tests read: QoS 1 and 3 from ws1, QoS 2 from lab1 with a 96 % bound. */
    public static final String METRICS_CONNECTIONS = String.join("\n",
        "  - { index_ref: 1, client: ws1, peer: ws2, link: port1, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }",
        "  - { index_ref: 2, client: lab1, peer: lab2, link: port1, message_size_bytes: 256, qos: 2, bound_percent: 96,"
            + " profile: measured-loopback-jacorb }",
        "  - { index_ref: 3, client: ws1, peer: ws2, link: port1, message_size_bytes: 256, qos: 3 }");

    private TestbedConfigLines() {
    }

    /** The build's profiles directory, absolute (the tests run in a module directory beside it). */
    public static Path profiles() {
        return Path.of("../profiles").toAbsolutePath().normalize();
    }

    /**
     * The metrics tests' profiles (the thesis's TAC-4 one and the measured loopback one) and their
     * four nodes: ws1 and ws2 (TAC-4), lab1 and lab2 (LOCAL-2CORE).
     */
    public static String metricsProfilesAndNodes() {
        return String.join("\n",
            "profiles:",
            "  - " + profiles().resolve("thesis-tac4-corba.json"),
            "  - " + profiles().resolve("measured-loopback-jacorb.json"),
            "nodes:",
            "  - { name: ws1, node_id: 1, workstation_type: TAC-4 }",
            "  - { name: ws2, node_id: 2, workstation_type: TAC-4 }",
            "  - { name: lab1, node_id: 3, workstation_type: LOCAL-2CORE }",
            "  - { name: lab2, node_id: 4, workstation_type: LOCAL-2CORE }");
    }

    /**
     * @param config     a configuration being built
     * @param clientNode the name of the first workstation (ws1 in {@link #PUSHED_WS1_WS2_ON_ATM_PORT})
     * @return the configuration with the same workstations and link as {@link #PUSHED_WS1_WS2_ON_ATM_PORT}
     */
    public static ServerYaml pushedWs1Ws2OnAtmPort(final ServerYaml config, final String clientNode) {
        return config.node(Node.of(clientNode, 1, "TAC-4").with("mib_source", "push"))
            .node(Node.of("ws2", 2, "TAC-4").with("mib_source", "push"))
            .link(Link.named("atm-port").with("mib_source", "push"));
    }
}
