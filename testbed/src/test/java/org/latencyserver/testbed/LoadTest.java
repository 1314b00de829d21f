package org.latencyserver.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadTest {

    @Test
    void thePayloadRateLeavesRoomForTheFramesHeaders() {
        // 95 % of 20 Mbit/s of frames = 19 Mbit/s; each 1400-byte payload is a 1442-byte frame.
        assertEquals(Math.round(19e6 * 1400 / 1442), LoadRate.payloadBitsPerSecond(95, 20));
        assertThrows(IllegalArgumentException.class, () -> LoadRate.payloadBitsPerSecond(0, 20));
    }

    @Test
    void aHostsPortIsLoadedFromAHostOnItsSwitchAndALinkFromItsSendingSide() throws Exception {
        final Topology two = TopologyReader.load(Path.of("../examples/testbed/two-switches.yaml"));
        final TestbedStatus status = statusOf(two);
        final LoadTarget trunk = LoadTarget.of(status, two, "trunk", null);
        assertEquals("ws2", trunk.receiver().name());
        assertEquals("srv", trunk.sender().name());
        assertEquals(20.0, trunk.limit().rateMbit());
        final LoadTarget ws2 = LoadTarget.of(status, two, "ws2", "ws1");
        assertEquals("ws1", ws2.sender().name());
        assertEquals(LoadTarget.FIRST_IPERF_PORT, ws2.iperfPort());
        assertEquals(LoadTarget.FIRST_IPERF_PORT + 1, trunk.iperfPort());
        final String refused = assertThrows(IllegalArgumentException.class, () -> LoadTarget.of(status, two, "ws1", null)).getMessage();
        assertTrue(refused.contains("no bottleneck port 'ws1'") && refused.contains("[ws2, trunk]"), refused);
        final String wrongSide = assertThrows(IllegalArgumentException.class, () -> LoadTarget.of(status, two, "trunk", "ws2"))
            .getMessage();
        assertTrue(wrongSide.contains("--from ws2") && wrongSide.contains("[srv, ws1]"), wrongSide);
    }

    /** A status as up would write it, without running anything. */
    private static TestbedStatus statusOf(final Topology topology) {
        final TestbedNames names = new TestbedNames(topology.name());
        final List<TestbedStatus.Host> hosts = new ArrayList<>();
        for (final HostSpec h : topology.hosts()) {
            hosts.add(new TestbedStatus.Host(h.name(), names.namespace(h.name()), h.switchName(), h.address().addressText(),
                h.address().prefixLength(), TestbedNames.HOST_INTERFACE, new TestbedStatus.Agent(h.address().addressText(), 1, "")));
        }
        return new TestbedStatus(TestbedStatus.FORMAT, topology.name(), names.prefix(), "", "", "",
            new TestbedStatus.Snmp(161, "c", "u", "SHA", "a", "AES", "p"), hosts, List.of(), List.of());
    }
}
