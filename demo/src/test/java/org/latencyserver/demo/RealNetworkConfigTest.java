package org.latencyserver.demo;

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
}
