package org.latencyserver.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworkPlanTest {

    private static List<String> lines(final String file, final boolean ipv6) throws Exception {
        final Topology topology = TopologyReader.load(Path.of("../examples/testbed/" + file));
        return NetworkPlan.commands(topology, new TestbedNames(topology.name()), ipv6).stream().map(Command::line).toList();
    }

    @Test
    void oneSwitchYieldsNamespacesABridgeVethCablesAndOneTbf() throws Exception {
        final List<String> lines = lines("one-switch.yaml", false);
        assertEquals(List.of(
            "ip netns add lt-one-sw1",
            "ip -n lt-one-sw1 link set lo up",
            "ip -n lt-one-sw1 link add br0 type bridge",
            "ip -n lt-one-sw1 address add 198.18.0.254/24 dev br0",
            "ip -n lt-one-sw1 link set br0 up"), lines.subList(0, 5));
        assertTrue(lines.contains("ip -n lt-one-sw1 link add p-ws2 type veth peer name eth0 netns lt-one-ws2"), lines::toString);
        assertTrue(lines.contains("ip -n lt-one-sw1 link set p-ws2 master br0"), lines::toString);
        assertTrue(lines.contains("ip -n lt-one-ws2 address add 198.18.0.3/24 dev eth0"), lines::toString);
        assertEquals(List.of("tc -n lt-one-sw1 qdisc replace dev p-ws2 root tbf rate 20000kbit burst 10kb latency 25ms"),
            lines.stream().filter(l -> l.startsWith("tc ")).toList());
        // the namespace exists before anything is put into it
        assertTrue(lines.indexOf("ip netns add lt-one-ws2") < lines.indexOf(
            "ip -n lt-one-sw1 link add p-ws2 type veth peer name eth0 netns lt-one-ws2"));
    }

    @Test
    void nothingIsMadeOutsideTheTestbedsNamespacesAndNoRouteIsAdded() throws Exception {
        for (final String line : lines("two-switches.yaml", true)) {
            assertTrue(line.startsWith("ip netns add lt-two-") || line.startsWith("ip -n lt-two-")
                || line.startsWith("tc -n lt-two-") || line.startsWith("ip netns exec lt-two-"), line);
            assertFalse(line.contains(" route "), line);
        }
    }

    @Test
    void aLinkIsAVethBetweenTheBridgesWithItsTbfOnTheSendingEnd() throws Exception {
        final List<String> lines = lines("two-switches.yaml", true);
        assertTrue(lines.contains("ip -n lt-two-sw1 link add l-trunk type veth peer name l-trunk netns lt-two-sw2"), lines::toString);
        assertTrue(lines.contains("ip -n lt-two-sw1 link set l-trunk master br0"), lines::toString);
        assertTrue(lines.contains("ip -n lt-two-sw2 link set l-trunk master br0"), lines::toString);
        assertTrue(lines.contains("tc -n lt-two-sw1 qdisc replace dev l-trunk root tbf rate 20000kbit burst 10kb latency 25ms"),
            lines::toString);
        assertTrue(lines.contains("tc -n lt-two-sw2 qdisc replace dev p-ws2 root tbf rate 50000kbit burst 10kb latency 25ms"),
            lines::toString);
        assertTrue(lines.contains("ip netns exec lt-two-ws2 sysctl -q -w net.ipv6.conf.all.disable_ipv6=1"
            + " net.ipv6.conf.default.disable_ipv6=1"), lines::toString);
    }

    @Test
    void oneTestbedsPrefixNeverOwnsAnothersNamespaces() {
        final TestbedNames a = new TestbedNames("a");
        assertTrue(a.owns("lt-a-srv"));
        assertFalse(a.owns("lt-ab-srv"));
    }
}
