package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.corba.PolledSources;

class PolledConnectionsTest {

    @TempDir
    Path directory;

    @Test
    void eachConnectionNamesItsPolledEndsFoundByNameAndConnectionsWithNonePolledAreLeftOut() throws Exception {
        final Path file = Files.writeString(directory.resolve("polled.yaml"), String.join("\n",
            "nodes:",
            "  - { name: ws1, node_id: 1, workstation_type: TAC-4, mib_source: snmp,",
            "      snmp: { address: udp:127.0.0.1/16101, version: v2c, community_env: C } }",
            "  - { name: ws2, node_id: 2, workstation_type: TAC-4 }",
            "  - { name: ws3, node_id: 3, workstation_type: TAC-4 }",
            "links:",
            "  - { name: port-a, mib_source: snmp,",
            "      snmp: { address: udp:127.0.0.1/16102, version: v2c, community_env: C, if_index: 3 } }",
            "  - { name: port-b }",
            "connections:",
            "  - { index_ref: 1, client: ws2, peer: ws1, link: port-b, message_size_bytes: 256, qos: 3 }",
            "  - { index_ref: 2, client: ws2, peer: ws3, link: port-a, message_size_bytes: 256, qos: 3 }",
            "  - { index_ref: 3, client: ws2, peer: ws3, message_size_bytes: 256, qos: 3 }",
            ""));

        final Map<Short, PolledSources> polled = PolledConnections.of(ConfigurationLoader.load(file));

        assertEquals(Map.of((short) 1, new PolledSources(null, "ws1", null, true),
            (short) 2, new PolledSources(null, null, "port-a", true)), polled);
    }
}
