package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.testbed.LoadTarget;
import org.latencyserver.testbed.TestbedStatus;

/** Each bottleneck port's load follows its own value: started on a change, stopped at 0, left alone otherwise. */
class PortLoadsTest {

    private static TestbedStatus.Host host(final String name) {
        return new TestbedStatus.Host(name, "lt-t-" + name, "sw1", "198.18.0.9", 24, "eth0", new TestbedStatus.Agent("198.18.0.9", 1, "/s"));
    }

    private static LoadTarget target(final String port, final String sender, final String receiver, final int iperfPort) {
        return new LoadTarget(port, new TestbedStatus.Limit(20, 20, 10, 25), host(receiver), host(sender), iperfPort);
    }

    private final List<String> calls = new ArrayList<>();
    private final PortLoads.Driver recorder = new PortLoads.Driver() {
        @Override
        public void start(final LoadTarget target, final int percent) {
            calls.add("start " + target.port() + " " + percent);
        }

        @Override
        public void stop(final String port) {
            calls.add("stop " + port);
        }
    };

    private PortLoads pathLoads() {
        final Map<String, LoadTarget> targets = new LinkedHashMap<>();
        targets.put("trunk", target("trunk", "srv", "ld2", 5202));
        targets.put("ws2", target("ws2", "ld2", "ws2", 5201));
        return new PortLoads(targets, recorder);
    }

    @Test
    void hopOneThenHopTwoThenBothDrivesOnlyThePortsWhoseValueChanged() throws Exception {
        final PortLoads loads = pathLoads();
        loads.apply(Map.of("trunk", 95, "ws2", 0));
        assertEquals(List.of("start trunk 95"), calls, "ws2 was idle and stays idle: untouched");
        calls.clear();
        loads.apply(Map.of("trunk", 0, "ws2", 95));
        assertEquals(List.of("stop trunk", "start ws2 95"), calls);
        calls.clear();
        loads.apply(Map.of("trunk", 95, "ws2", 95));
        assertEquals(List.of("start trunk 95"), calls, "ws2's load already runs at 95 %");
        assertEquals(Map.of("trunk", 95, "ws2", 95), loads.percentByPort());
        calls.clear();
        loads.apply(Map.of("trunk", 95, "ws2", 98));
        assertEquals(List.of("start ws2 98"), calls, "a new level restarts that port only");
    }

    @Test
    void aPortLeftOutIsIdleAndStopAllEndsEveryPort() throws Exception {
        final PortLoads loads = pathLoads();
        loads.apply(Map.of("trunk", 95, "ws2", 95));
        calls.clear();
        loads.apply(Map.of("ws2", 95));
        assertEquals(List.of("stop trunk"), calls);
        calls.clear();
        loads.stopAll();
        assertEquals(List.of("stop trunk", "stop ws2"), calls, "every port, whatever is believed to run");
        assertEquals(Map.of("trunk", 0, "ws2", 0), loads.percentByPort());
    }

    @Test
    void theDescriptionNamesEachPortsLoadAndItsSenderAndReceiver() throws Exception {
        final PortLoads loads = pathLoads();
        loads.apply(Map.of("trunk", 95));
        final String text = loads.describe();
        assertTrue(text.contains("trunk 95 % of its rate (iperf3 srv -> ld2)") && text.contains("ws2 idle"), text);
    }
}
