package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {
    private static final String NODES = "nodes:\n  - { name: ws1, port: 16101 }\n  - { name: ws2, port: 16102 }\n"
            + "links:\n  - { name: atm, port: 16110, if_index: 3, speed_mbps: 155 }\n";

    private static ScenarioFault fault(String yaml) {
        return assertThrows(ScenarioFault.class, () -> ScenarioLoader.parse(yaml, "bad.yaml"));
    }

    @Test
    void anUnknownKeyIsAFaultNamingItsLineAndTheKey() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\nstep_secs: 10\n");
        assertEquals(8, f.line());
        assertEquals("step_secs", f.badValue());
        assertTrue(f.getMessage().startsWith("bad.yaml:8:"), f.getMessage());
        assertTrue(f.getMessage().contains("unknown key"), f.getMessage());
    }

    @Test
    void aPercentAbove100IsAFaultNamingItsLineAndValue() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\n"
                + "  - { cpu: { ws1: 101 } }\n");
        assertEquals(8, f.line());
        assertEquals("101", f.badValue());
        assertTrue(f.getMessage().contains("0..100"), f.getMessage());
    }

    @Test
    void aPercentWrittenAsTextIsAFault() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: '50%', ws2: 10 }, port: { atm: 5 } }\n");
        assertEquals(7, f.line());
        assertEquals("50%", f.badValue());
    }

    @Test
    void anUnknownNodeInAStepIsAFaultNamingTheNodeAndItsLine() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\n"
                + "  - { cpu: { ws3: 40 } }\n");
        assertEquals(8, f.line());
        assertEquals("ws3", f.badValue());
        assertTrue(f.getMessage().contains("unknown node"), f.getMessage());
    }

    @Test
    void aLinkNameInTheCpuMapIsAnUnknownNode() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10, atm: 3 }, port: { atm: 5 } }\n");
        assertEquals("atm", f.badValue());
    }

    @Test
    void theFirstStepMustGiveEveryNodeAValue() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10 }, port: { atm: 5 } }\n");
        assertTrue(f.getMessage().contains("'ws2' has none"), f.getMessage());
    }

    @Test
    void aUdpPortUsedTwiceIsAFault() {
        ScenarioFault f = fault("nodes: [ { name: a, port: 161 }, { name: b, port: 161 } ]\nsteps: [ { cpu: { a: 1, b: 1 } } ]\n");
        assertEquals("161", f.badValue());
        assertTrue(f.getMessage().contains("used twice"), f.getMessage());
    }

    @Test
    void aConnectionToAnUnknownLinkIsAFault() {
        ScenarioFault f = fault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\n"
                + "connections:\n  - { index_ref: 1, client: ws1, peer: ws2, link: fddi }\n");
        assertEquals(9, f.line());
        assertEquals("fddi", f.badValue());
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
