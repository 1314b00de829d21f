package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFaultsException;

class RealNetworkScenarioTest {

    private static final Set<String> HOSTS = Set.of("ws1", "ws2");
    private static final Set<String> PORTS = Set.of("ws2");

    @Test
    void theShippedScenarioGoesIdleThenLoadedThenOverloadedThenIdleWithCpuStepsAfter() throws Exception {
        final RealNetworkScenario scenario = RealNetworkScenario.load(Path.of("../examples/demo/real-network-scenario.yaml"),
            HOSTS, PORTS);
        assertTrue(scenario.loop());
        assertEquals(0, scenario.steps().get(0).portPercent().get("ws2"));
        assertEquals(95, scenario.steps().get(1).portPercent().get("ws2"));
        assertEquals(102, scenario.steps().get(2).portPercent().get("ws2"));
        assertEquals(0, scenario.steps().get(3).portPercent().get("ws2"));
        // a step that leaves a host out keeps its value
        assertEquals(Map.of("ws1", 10, "ws2", 10), scenario.steps().get(2).cpuPercent());
        assertEquals(Map.of("ws1", 85, "ws2", 85), scenario.steps().get(scenario.steps().size() - 1).cpuPercent());
    }

    @Test
    void aStepMissingFromTheFirstStepIsNoLoadAndLaterStepsCarryValuesForward() throws Exception {
        final RealNetworkScenario scenario = RealNetworkScenario.parse("step_seconds: 2\nsteps:\n  - { cpu: { ws1: 40 } }\n"
            + "  - { port: { ws2: 150 } }\n", "t.yaml", HOSTS, PORTS);
        assertEquals(Map.of("ws1", 40, "ws2", 0), scenario.steps().get(0).cpuPercent());
        assertEquals(Map.of("ws2", 0), scenario.steps().get(0).portPercent());
        assertEquals(Map.of("ws1", 40, "ws2", 0), scenario.steps().get(1).cpuPercent());
        assertEquals(Map.of("ws2", 150), scenario.steps().get(1).portPercent());
    }

    @Test
    void theStepInForceLoopsOrEnds() throws Exception {
        final String steps = "steps:\n  - { cpu: { ws1: 1 } }\n  - { cpu: { ws1: 2 } }\n";
        final RealNetworkScenario looping = RealNetworkScenario.parse("step_seconds: 10\n" + steps, "t.yaml", HOSTS, PORTS);
        assertEquals(0, looping.stepAt(0));
        assertEquals(0, looping.stepAt(9_999));
        assertEquals(1, looping.stepAt(10_000));
        assertEquals(0, looping.stepAt(20_000));
        final RealNetworkScenario once = RealNetworkScenario.parse("step_seconds: 10\nloop: false\n" + steps, "t.yaml", HOSTS, PORTS);
        assertEquals(1, once.stepAt(19_999));
        assertEquals(-1, once.stepAt(20_000));
    }

    @Test
    void everyFaultIsNamedAtItsPlaceWithTheBadValue() {
        final InputFaultsException e = assertThrows(InputFaultsException.class, () -> RealNetworkScenario.parse(
            "step_seconds: 0\nstep: 3\nsteps:\n  - { cpu: { ws3: 10, ws1: 101 }, port: { ws2: 201 } }\n", "bad.yaml", HOSTS, PORTS));
        final String message = e.getMessage();
        assertTrue(message.contains("bad.yaml:1:") && message.contains("step_seconds"), message);
        assertTrue(message.contains("step") && message.contains("steps"), "an unknown key, with the closest known one: " + message);
        assertTrue(message.contains("ws3") && message.contains("[ws1, ws2]"), message);
        assertTrue(message.contains("101"), message);
        assertTrue(message.contains("201"), message);
    }
}
