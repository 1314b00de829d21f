package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioLoaderTest {
    private static final String NODES = "nodes:\n  - { name: ws1, port: 16101 }\n  - { name: ws2, port: 16102 }\n"
            + "links:\n  - { name: atm, port: 16110, if_index: 3, speed_mbps: 155 }\n";
    /** A first step that gives every node and link of {@link #NODES} a value (line 7 of a scenario that starts with them). */
    private static final String FIRST_STEP = "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\n";

    private static ScenarioFault fault(String yaml) {
        return assertThrows(ScenarioFault.class, () -> ScenarioLoader.parse(yaml, "bad.yaml"));
    }

    /** Cases of a bad value: the scenario, then the line, the value as written and a fragment of the reason the fault names. */
    static Stream<Arguments> badValues() {
        return Stream.of(
            Arguments.of(Named.of("an unknown key is a fault naming its line and the key", NODES + FIRST_STEP + "step_secs: 10\n"),
                8, "step_secs", "unknown key"),
            Arguments.of(Named.of("a percent above 100 is a fault naming its line and value",
                NODES + FIRST_STEP + "  - { cpu: { ws1: 101 } }\n"), 8, "101", "0..100"),
            Arguments.of(Named.of("a percent written as text is a fault",
                NODES + "steps:\n  - { cpu: { ws1: '50%', ws2: 10 }, port: { atm: 5 } }\n"), 7, "50%", "whole number"),
            Arguments.of(Named.of("an unknown node in a step is a fault naming the node and its line",
                NODES + FIRST_STEP + "  - { cpu: { ws3: 40 } }\n"), 8, "ws3", "unknown node"),
            Arguments.of(Named.of("a link name in the cpu map is an unknown node",
                NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10, atm: 3 }, port: { atm: 5 } }\n"), 7, "atm", "unknown node"),
            Arguments.of(Named.of("a UDP port used twice is a fault",
                "nodes: [ { name: a, port: 161 }, { name: b, port: 161 } ]\nsteps: [ { cpu: { a: 1, b: 1 } } ]\n"), 1, "161",
                "used twice"),
            Arguments.of(Named.of("a connection to an unknown link is a fault", NODES + FIRST_STEP
                + "connections:\n  - { index_ref: 1, client: ws1, peer: ws2, link: fddi }\n"), 9, "fddi", "unknown link"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueIsAFaultNamingTheFileItsLineTheValueAndWhy(final String yaml, final int line, final String badValue,
                                                            final String reason) {
        ScenarioFault f = fault(yaml);
        assertEquals(line, f.line());
        assertEquals(badValue, f.badValue());
        assertTrue(f.getMessage().startsWith("bad.yaml:" + line + ":"), f.getMessage());
        assertTrue(f.getMessage().contains(reason), f.getMessage());
    }

    @Test
    void theFirstStepMustGiveEveryNodeAValue() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10 }, port: { atm: 5 } }\n");
        assertTrue(f.getMessage().contains("'ws2' has none"), f.getMessage());
    }

    @Test
    void brokenYamlIsAFaultWithALine() {
        ScenarioFault f = fault("nodes: [ { name: ws1, port: 1 }\nsteps: [\n");
        assertTrue(f.line() > 0, f.getMessage());
        assertTrue(f.getMessage().contains("not valid YAML"), f.getMessage());
    }

    @Test
    void valuesHoldUntilChangedAndStepsMayOverrideTheirDuration() throws Exception {
        Scenario s = ScenarioLoader.parse(NODES + "step_seconds: 10\nsteps:\n"
                + "  - { cpu: { ws1: 10, ws2: 20 }, port: { atm: 30 } }\n"
                + "  - { cpu: { ws1: 50 }, seconds: 2.5 }\n"
                + "  - { port: { atm: 95 } }\n", "ok.yaml");
        assertEquals(22_500_000L, s.cycleMicros());
        assertEquals(50, s.percentAt("ws1", 11_000_000L));
        assertEquals(20, s.percentAt("ws2", 11_000_000L));
        assertEquals(30, s.percentAt("atm", 12_400_000L));
        assertEquals(95, s.percentAt("atm", 12_500_000L));
    }

    @Test
    void theThesisExampleWalksAllNineCpuPairsAtBothPortStatesAndCrossesNinetyPercentBothWays() throws Exception {
        Scenario s = ScenarioLoader.load(Path.of("..", "examples", "scenarios", "thesis-states.yaml"));
        assertEquals(10_000_000L, s.cycleMicros() / s.stepCount());
        Set<String> pairsBelow = new HashSet<>();
        Set<String> pairsAbove = new HashSet<>();
        int crossingsUp = 0;
        int crossingsDown = 0;
        int changesAbove = 0;
        int previousPort = -1;
        for (int step = 0; step < s.stepCount(); step++) {
            long mid = step * 10_000_000L + 5_000_000L;
            String pair = band(s.percentAt("ws1", mid)) + "/" + band(s.percentAt("ws2", mid));
            int port = s.percentAt("atm-port", mid);
            (port > 90 ? pairsAbove : pairsBelow).add(pair);
            if (previousPort >= 0 && previousPort != port) {
                boolean lowCpu = pair.equals("LOW/LOW");
                if (previousPort <= 90 && port > 90 && lowCpu) {
                    crossingsUp++;
                } else if (previousPort > 90 && port <= 90 && lowCpu) {
                    crossingsDown++;
                } else if (previousPort > 90 && port > 90 && lowCpu) {
                    changesAbove++;
                }
            }
            previousPort = port;
        }
        assertEquals(9, pairsBelow.size(), pairsBelow.toString());
        assertEquals(9, pairsAbove.size(), pairsAbove.toString());
        assertTrue(crossingsUp >= 2 && crossingsDown >= 2 && changesAbove >= 3,
                "up " + crossingsUp + ", down " + crossingsDown + ", above " + changesAbove);
        assertEquals(1, s.connections().size());
    }

    @Test
    void thePushCompanionOfTheThesisTestbedCarriesItsFiveConnections() throws Exception {
        Scenario s = ScenarioLoader.load(Path.of("..", "examples", "scenarios", "thesis-testbed-push.yaml"));
        assertEquals(java.util.List.of(1, 2, 4, 5, 6), s.connections().stream().map(ConnectionSpec::indexRef).toList());
        assertEquals(4, s.nodes().size());
        for (int step = 0; step < s.stepCount(); step++) {
            long mid = step * 10_000_000L + 5_000_000L;
            assertEquals(s.percentAt("ws1", mid), s.percentAt("ws3", mid), "step " + (step + 1));
            assertEquals(s.percentAt("ws2", mid), s.percentAt("ws4", mid), "step " + (step + 1));
        }
    }

    private static String band(int percent) {
        return percent <= 33 ? "LOW" : percent <= 66 ? "MEDIUM" : "HIGH";
    }
}
