package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.testbed.TestbedStatus;

class RealNetworkConfigTest {

    private static TestbedStatus status(final TestbedStatus.Limit limit) {
        final TestbedStatus.Agent agent = new TestbedStatus.Agent("198.18.0.9", 1, "/x");
        return new TestbedStatus(TestbedStatus.FORMAT, "demo", "lt-demo-", "/t.yaml", "/state", "2025-01-01T00:00:00Z",
            new TestbedStatus.Snmp(161, "c0ffee", "latserv", "SHA", "a", "AES", "p"),
            List.of(new TestbedStatus.Host("srv", "lt-demo-srv", "sw1", "198.18.0.1", 24, "eth0", new TestbedStatus.Agent("198.18.0.1", 2, "/s")),
                new TestbedStatus.Host("ws1", "lt-demo-ws1", "sw1", "198.18.0.2", 24, "eth0", new TestbedStatus.Agent("198.18.0.2", 3, "/s")),
                new TestbedStatus.Host("ws2", "lt-demo-ws2", "sw1", "198.18.0.3", 24, "eth0", new TestbedStatus.Agent("198.18.0.3", 4, "/s"))),
            List.of(new TestbedStatus.Switch("sw1", "lt-demo-sw1", "br0", "198.18.0.254", 24,
                new TestbedStatus.Agent("198.18.0.254", 5, "/s"),
                List.of(new TestbedStatus.Port("ws1", "p-ws1", 3, "ws1", null), new TestbedStatus.Port("ws2", "p-ws2", 7, "ws2", limit)))),
            List.of());
    }

    @Test
    void theServerPollsEachHostsAgentAndTheSwitchsPortWithItsIfIndexAndTheBottlenecksSpeed() {
        final String yaml = RealNetworkConfig.yaml(status(new TestbedStatus.Limit(20.0, 20, 10, 25)), Path.of("/p"), Path.of("/c"));
        assertTrue(yaml.contains("address: \"udp:198.18.0.2/161\""), yaml);
        assertTrue(yaml.contains("address: \"udp:198.18.0.3/161\""), yaml);
        assertTrue(yaml.contains("address: \"udp:198.18.0.254/161\""), yaml);
        assertTrue(yaml.contains("if_index: 7, speed_mbps: 20"), "the bottleneck port's, not ws1's (3): " + yaml);
        assertTrue(yaml.contains("discards_oid: 1.3.6.1.2.1.2.2.1.19.7"), "its tbf drops, as the switch serves them: " + yaml);
        assertTrue(yaml.contains("port_states: bands"), yaml);
        assertTrue(yaml.contains("settle_millis: 5100"), yaml);
        assertTrue(yaml.contains("community_env: TESTBED_COMMUNITY") && !yaml.contains("c0ffee"), "the secret stays out of the file");
        assertTrue(yaml.contains("/p/measured-loopback-jacorb.json"), yaml);
        for (int qos = 1; qos <= 4; qos++) {
            assertTrue(yaml.contains("index_ref: " + qos + ", client: ws1, peer: ws2, link: sw1-ws2") && yaml.contains("qos: " + qos),
                "QoS " + qos + ": " + yaml);
        }
        assertTrue(yaml.contains("roles: [agent], node: ws1"), "ws1's agent writes its measurements: " + yaml);
    }

    @Test
    void theAgentsShareOfThePortIsFiveByDefaultAndWhatIsAsked() {
        final TestbedStatus status = status(new TestbedStatus.Limit(20.0, 20, 10, 25));
        assertTrue(RealNetworkConfig.yaml(status, Path.of("/p"), Path.of("/c")).contains("path_share_percent: 5 "));
        assertTrue(RealNetworkConfig.yaml(status, Path.of("/p"), Path.of("/c"), 20).contains("path_share_percent: 20 "));
        assertTrue(RealNetworkConfig.yaml(status, Path.of("/p"), Path.of("/c"), 2.5).contains("path_share_percent: 2.5 "));
    }

    @Test
    void aTestbedWithoutTheBottleneckIsRefusedByName() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RealNetworkConfig.yaml(status(null), Path.of("/p"), Path.of("/c")));
        assertTrue(e.getMessage().contains("bottleneck") && e.getMessage().contains("ws2"), e.getMessage());
    }

    @Test
    void withAProfileGivenEveryConnectionServesFromItAndBothWorkstationsTakeItsType() {
        final RealNetworkConfig.ServedProfile profile = new RealNetworkConfig.ServedProfile(Path.of("/m/testbed-ports.json"),
            "testbed-ports", "TESTBED-2CORE");
        final String yaml = RealNetworkConfig.yaml(status(new TestbedStatus.Limit(20.0, 20, 10, 25)), Path.of("/p"), Path.of("/c"), 5,
            profile);
        assertTrue(yaml.contains("  - /m/testbed-ports.json"), yaml);
        assertTrue(!yaml.contains("measured-loopback-jacorb"), "the shipped profile is not named: " + yaml);
        for (int qos = 1; qos <= 4; qos++) {
            final String level = "qos: " + qos + ",";
            assertTrue(yaml.lines().anyMatch(line -> line.contains(level) && line.contains("profile: testbed-ports }")),
                "QoS " + qos + " on the given profile: " + yaml);
        }
        assertTrue(yaml.lines().filter(line -> line.contains("workstation_type: TESTBED-2CORE,")).count() == 2, yaml);
        assertTrue(RealNetworkConfig.yaml(status(new TestbedStatus.Limit(20.0, 20, 10, 25)), Path.of("/p"), Path.of("/c"), 5, null)
            .equals(RealNetworkConfig.yaml(status(new TestbedStatus.Limit(20.0, 20, 10, 25)), Path.of("/p"), Path.of("/c"))),
            "without one, the configuration is as before");
    }

    /** The path testbed's status: srv, ws1 on sw1; ld2, ws2 on sw2; the trunk limited on sw1 toward sw2, ws2's port on sw2. */
    private static TestbedStatus pathStatus() {
        final TestbedStatus.Limit limit = new TestbedStatus.Limit(20.0, 20, 10, 25);
        return new TestbedStatus(TestbedStatus.FORMAT, "path", "lt-path-", "/t.yaml", "/state", "2025-01-01T00:00:00Z",
            new TestbedStatus.Snmp(161, "c0ffee", "latserv", "SHA", "a", "AES", "p"),
            List.of(new TestbedStatus.Host("srv", "lt-path-srv", "sw1", "198.18.0.1", 24, "eth0", new TestbedStatus.Agent("198.18.0.1", 2, "/s")),
                new TestbedStatus.Host("ws1", "lt-path-ws1", "sw1", "198.18.0.2", 24, "eth0", new TestbedStatus.Agent("198.18.0.2", 3, "/s")),
                new TestbedStatus.Host("ld2", "lt-path-ld2", "sw2", "198.18.0.4", 24, "eth0", new TestbedStatus.Agent("198.18.0.4", 4, "/s")),
                new TestbedStatus.Host("ws2", "lt-path-ws2", "sw2", "198.18.0.3", 24, "eth0", new TestbedStatus.Agent("198.18.0.3", 5, "/s"))),
            List.of(new TestbedStatus.Switch("sw1", "lt-path-sw1", "br0", "198.18.0.253", 24, new TestbedStatus.Agent("198.18.0.253", 6, "/s"),
                    List.of(new TestbedStatus.Port("srv", "p-srv", 3, "srv", null), new TestbedStatus.Port("ws1", "p-ws1", 5, "ws1", null),
                        new TestbedStatus.Port("trunk", "l-trunk", 8, "sw2", limit))),
                new TestbedStatus.Switch("sw2", "lt-path-sw2", "br0", "198.18.0.254", 24, new TestbedStatus.Agent("198.18.0.254", 7, "/s"),
                    List.of(new TestbedStatus.Port("ld2", "p-ld2", 3, "ld2", null), new TestbedStatus.Port("ws2", "p-ws2", 5, "ws2", limit),
                        new TestbedStatus.Port("trunk", "l-trunk", 9, "sw1", null)))),
            List.of(new TestbedStatus.Link("trunk", List.of("sw1", "sw2"), "sw2", limit)));
    }

    @Test
    void throughTwoSwitchesTheConnectionsCrossTheTrunkThenThePortTowardWs2EachPolledFromItsOwnSwitch() {
        final TestbedStatus status = pathStatus();
        assertEquals(List.of("sw1-trunk", "sw2-ws2"), RealNetworkConfig.path(status).stream()
            .map(RealNetworkConfig.PathPort::linkName).toList(), "path order: sw1's trunk port first; sw2's unlimited trunk end is no hop");
        final String yaml = RealNetworkConfig.yaml(status, Path.of("/p"), Path.of("/c"));
        final String trunk = yaml.substring(yaml.indexOf("- { name: sw1-trunk"), yaml.indexOf("- { name: sw2-ws2"));
        assertTrue(trunk.contains("udp:198.18.0.253/161") && trunk.contains("if_index: 8, speed_mbps: 20"), trunk);
        final String ws2 = yaml.substring(yaml.indexOf("- { name: sw2-ws2"), yaml.indexOf("connections:"));
        assertTrue(ws2.contains("udp:198.18.0.254/161") && ws2.contains("if_index: 5, speed_mbps: 20")
            && ws2.contains("discards_oid: 1.3.6.1.2.1.2.2.1.19.5"), ws2);
        for (int qos = 1; qos <= 4; qos++) {
            assertTrue(yaml.contains("index_ref: " + qos + ", client: ws1, peer: ws2, links: [sw1-trunk, sw2-ws2],"),
                "QoS " + qos + ": " + yaml);
        }
        assertTrue(!yaml.contains(" link: "), "no single link on a path of two: " + yaml);
    }

    @Test
    void theOneSwitchPathIsThePortTowardWs2Alone() {
        final TestbedStatus status = status(new TestbedStatus.Limit(20.0, 20, 10, 25));
        assertEquals(List.of("sw1-ws2"), RealNetworkConfig.path(status).stream().map(RealNetworkConfig.PathPort::linkName).toList());
        assertTrue(!RealNetworkConfig.yaml(status, Path.of("/p"), Path.of("/c")).contains("links: ["), "one port: link:, as before");
    }
}
