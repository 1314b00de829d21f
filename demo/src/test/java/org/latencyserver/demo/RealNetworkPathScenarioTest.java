package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.testbed.Topology;
import org.latencyserver.testbed.TopologyReader;

/** The scenario's per-port loads on the two-switch path: hop 1, hop 2 or both, each port held on its own. */
class RealNetworkPathScenarioTest {

    private static final Set<String> HOSTS = Set.of("ws1", "ws2");

    private static Set<String> pathPorts() throws Exception {
        final Topology topology = TopologyReader.load(Path.of("../examples/testbed/two-switches-path.yaml"));
        return new LinkedHashSet<>(RealNetworkTopology.bottleneckPorts(topology));
    }

    @Test
    void thePathTopologysBottlenecksAreTheTrunkAndThePortTowardWs2() throws Exception {
        assertEquals(Set.of("trunk", "ws2"), pathPorts());
        final Topology one = TopologyReader.load(Path.of("../examples/testbed/one-switch.yaml"));
        assertEquals(List.of("ws2"), RealNetworkTopology.bottleneckPorts(one));
    }

    @Test
    void eachPortKeepsItsOwnValueSoAStepCanLoadOneHopTheOtherOrBoth() throws Exception {
        final RealNetworkScenario scenario = RealNetworkScenario.parse("step_seconds: 5\nsteps:\n"
            + "  - { port: { trunk: 95 } }\n"
            + "  - { port: { trunk: 0, ws2: 98 } }\n"
            + "  - { port: { trunk: 95 } }\n", "p.yaml", HOSTS, pathPorts());
        assertEquals(Map.of("trunk", 95, "ws2", 0), scenario.steps().get(0).portPercent());
        assertEquals(Map.of("trunk", 0, "ws2", 98), scenario.steps().get(1).portPercent());
        assertEquals(Map.of("trunk", 95, "ws2", 98), scenario.steps().get(2).portPercent(), "ws2 carried forward");
    }

    @Test
    void theOneSwitchFormatStaysValidAndAPathPortIsRefusedThere() throws Exception {
        final RealNetworkScenario one = RealNetworkScenario.load(Path.of("../examples/demo/real-network-scenario.yaml"), HOSTS,
            Set.of("ws2"));
        assertEquals(Set.of("ws2"), one.steps().get(0).portPercent().keySet());
        final InputFaultsException refused = assertThrows(InputFaultsException.class, () -> RealNetworkScenario.parse(
            "step_seconds: 5\nsteps:\n  - { port: { trunk: 95 } }\n", "one.yaml", HOSTS, Set.of("ws2")));
        assertTrue(refused.getMessage().contains("trunk") && refused.getMessage().contains("not a bottleneck port"),
            refused.getMessage());
    }

    @Test
    void theShippedPathScenarioHoldsIdleHopOneHopTwoAndBothLongEnoughForFortyBursts() throws Exception {
        final RealNetworkScenario scenario = RealNetworkScenario.load(Path.of("../examples/demo/real-network-paths-scenario.yaml"),
            HOSTS, pathPorts());
        final List<String> patterns = new ArrayList<>();
        final Map<String, Long> heldMillis = new java.util.LinkedHashMap<>();
        for (final RealNetworkScenario.Step step : scenario.steps()) {
            final boolean hop1 = step.portPercent().get("trunk") > 0;
            final boolean hop2 = step.portPercent().get("ws2") > 0;
            final String pattern = hop1 && hop2 ? "both" : hop1 ? "hop 1" : hop2 ? "hop 2" : "idle";
            if (patterns.isEmpty() || !patterns.get(patterns.size() - 1).equals(pattern)) {
                patterns.add(pattern);
            }
            heldMillis.merge(pattern, scenario.stepMillis(), Long::sum);
            assertEquals(Map.of("ws1", 10, "ws2", 10), step.cpuPercent(), "the CPU stays LOW/LOW: only the path changes");
        }
        assertEquals(List.of("idle", "hop 1", "hop 2", "both"), patterns);
        // A burst through both loaded hops takes ~1.5 s plus a mean gap of 1 s: 40 of them need 100 s, plus the
        // seconds the port states take to follow.
        for (final String loaded : List.of("hop 1", "hop 2", "both")) {
            assertTrue(heldMillis.get(loaded) >= 40 * 2_500 + 30_000, loaded + " held " + heldMillis.get(loaded) + " ms");
        }
    }
}
