package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaultsException;

class ScenarioLoaderTest {
    private static final String NODES = "nodes:\n  - { name: ws1, port: 16101 }\n  - { name: ws2, port: 16102 }\n"
            + "links:\n  - { name: atm, port: 16110, if_index: 3, speed_mbps: 155 }\n";
    /** A first step that gives every node and link of {@link #NODES} a value (line 7 of a scenario that starts with them). */
    private static final String FIRST_STEP = "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 } }\n";

    private static List<InputFault> faults(String yaml) {
        InputFaultsException e = assertThrows(InputFaultsException.class, () -> ScenarioLoader.parse(yaml, "bad.yaml"));
        e.faults().forEach(f -> assertEquals("bad.yaml", f.source(), f::toString));
        return e.faults();
    }

    private static InputFault onlyFault(String yaml) {
        List<InputFault> faults = faults(yaml);
        assertEquals(1, faults.size(), faults::toString);
        return faults.get(0);
    }

    @Test
    void anUnknownKeyIsAFaultNamingItsLineAndTheKey() {
        InputFault f = onlyFault(NODES + FIRST_STEP + "step_secs: 10\n");
        assertEquals(8, f.line());
        assertEquals("step_secs", f.path());
        assertEquals("unknown key 'step_secs'; the keys here are connections, link_groups, links, loop, node_groups, nodes, step_seconds, steps", f.reason());
        assertTrue(f.toString().startsWith("bad.yaml:8:1: step_secs: "), f::toString);
    }

    /** Cases of one bad value: the scenario, then the fault's line, path and reason. */
    static Stream<Arguments> badValues() {
        return Stream.of(
            Arguments.of(Named.of("a percent above 100 is a fault naming its line and value",
                NODES + FIRST_STEP + "  - { cpu: { ws1: 101 } }\n"), 8, "steps[1].cpu.ws1", "must be 0..100, was 101"),
            Arguments.of(Named.of("a percent written as text is a fault",
                NODES + "steps:\n  - { cpu: { ws1: '50%', ws2: 10 }, port: { atm: 5 } }\n"), 7, "steps[0].cpu.ws1",
                "expected a whole number, was the text '50%'"),
            Arguments.of(Named.of("an unknown node in a step is a fault naming the node and its line",
                NODES + FIRST_STEP + "  - { cpu: { ws3: 40 } }\n"), 8, "steps[1].cpu.ws3",
                "step 2: 'cpu' names an unknown node 'ws3'; declared nodes: ws1, ws2"),
            Arguments.of(Named.of("a link name in the cpu map is an unknown node",
                NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10, atm: 3 }, port: { atm: 5 } }\n"), 7, "steps[0].cpu.atm",
                "step 1: 'cpu' names an unknown node 'atm'; declared nodes: ws1, ws2"),
            Arguments.of(Named.of("a UDP port used twice is a fault naming the first user",
                "nodes: [ { name: a, port: 161 }, { name: b, port: 161 } ]\nsteps: [ { cpu: { a: 1, b: 1 } } ]\n"), 1,
                "nodes[1].port", "the UDP port 161 is used twice, first by nodes[0]"),
            Arguments.of(Named.of("a connection to an unknown link is a fault", NODES + FIRST_STEP
                + "connections:\n  - { index_ref: 1, client: ws1, peer: ws2, link: fddi }\n"), 9, "connections[0].link",
                "'link' names an unknown link 'fddi'; declared links: atm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueIsOneFaultNamingItsLinePathAndReason(String yaml, int line, String path, String reason) {
        InputFault f = onlyFault(yaml);
        assertEquals(line, f.line());
        assertEquals(path, f.path());
        assertEquals(reason, f.reason());
        assertTrue(f.toString().startsWith("bad.yaml:" + line + ":"), f::toString);
    }

    @Test
    void theFirstStepMustGiveEveryNodeAValue() {
        InputFault f = onlyFault(NODES + "steps:\n  - { cpu: { ws1: 10 }, port: { atm: 5 } }\n");
        assertTrue(f.reason().contains("'ws2' has none"), f::toString);
        assertEquals(7, f.line());
    }

    @Test
    void brokenYamlIsAFaultWithALine() {
        InputFault f = onlyFault("nodes: [ { name: ws1, port: 1 }\nsteps: [\n");
        assertTrue(f.line() > 0, f::toString);
        assertEquals("file", f.path());
        assertTrue(f.reason().startsWith("malformed YAML: "), f::toString);
    }

    @Test
    void everyFaultInAFileIsReportedTogetherInFileOrder() {
        List<InputFault> faults = faults("step_seconds: 0\n"                                // line 1
                + "nodes:\n"
                + "  - { name: ws1, port: 16101, cores: 0 }\n"                              // line 3
                + "  - { name: ws1, port: 16101 }\n"                                        // line 4: name and port again
                + "links:\n"
                + "  - { name: atm, port: 16110, if_index: 3 }\n"                           // line 6: no speed_mbps
                + "steps:\n"
                + "  - { cpu: { ws1: 10, ws9: 5 }, port: { atm: 500 } }\n"                 // line 8
                + "connections:\n"
                + "  - { index_ref: 1, client: ws1, peer: nobody, link: atm, colour: red }\n"); // line 10
        assertEquals(List.of("step_seconds", "nodes[0].cores", "nodes[1].name", "nodes[1].port", "links[0].speed_mbps",
                "steps[0].cpu.ws9", "steps[0].port.atm", "connections[0].peer", "connections[0].colour"),
            faults.stream().map(InputFault::path).toList(), faults::toString);
        assertEquals(List.of(1, 3, 4, 4, 6, 8, 8, 10, 10), faults.stream().map(InputFault::line).toList());
    }

    @Test
    void aKeyCloseToAKnownOneIsSuggested() {
        InputFault f = onlyFault(NODES + "steps:\n  - { cpu: { ws1: 10, ws2: 10 }, port: { atm: 5 }, second: 3 }\n");
        assertEquals("steps[0].second", f.path());
        assertEquals("unknown key 'second' - did you mean 'seconds'?", f.reason());
    }

    @Test
    void anEmptyFileIsAFault() {
        InputFault f = onlyFault("# nothing here\n");
        assertEquals("file", f.path());
        assertTrue(f.reason().startsWith("the file is empty"), f::toString);
    }

    @Test
    void aMissingFileIsAFaultNamingIt(@TempDir Path directory) {
        Path missing = directory.resolve("absent.yaml");
        InputFaultsException e = assertThrows(InputFaultsException.class, () -> ScenarioLoader.load(missing));
        assertEquals(1, e.faults().size());
        assertEquals(missing.toString(), e.faults().get(0).source());
        assertTrue(e.faults().get(0).reason().startsWith("cannot read the scenario file: "), e::getMessage);
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
        assertEquals(List.of(1, 2, 4, 5, 6), s.connections().stream().map(ConnectionSpec::indexRef).toList());
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
