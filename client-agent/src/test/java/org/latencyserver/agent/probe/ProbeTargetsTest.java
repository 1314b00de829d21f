package org.latencyserver.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.latency.ConnectionInfo;

/** Which of the server's connections are probed, and that nonsense from the server is skipped with its reason. */
class ProbeTargetsTest {

    @Test
    void onlyThisAgentsNodesConnectionsWithAPositiveRateAreProbed() {
        final ProbeTargets.Selection selection = ProbeTargets.select(new ConnectionInfo[] {
            ProberFixtures.connection(1, "ws1", "ws2", 256, 10),
            ProberFixtures.connection(2, "ws1", "ws2", 256, 0),
            ProberFixtures.connection(3, "ws9", "ws2", 256, 10),
            null,
            ProberFixtures.connection(4, "ws1", "ws3", 100, 0.5)}, "ws1"::equals);
        assertEquals(List.of(new ProbeTarget((short) 1, "ws1", "ws2", 256, 10, Optional.of(ProberFixtures.SHAPE)), new ProbeTarget((short) 4, "ws1", "ws3", 100, 0.5, Optional.of(ProberFixtures.SHAPE))),
            selection.targets());
        assertEquals(List.of(), selection.problems(), "rate 0 and another node's connection are no problem");
    }

    @Test
    void badValuesFromTheServerAreSkippedWithTheirReasonNeverGuessedAt() {
        final ProbeTargets.Selection selection = ProbeTargets.select(new ConnectionInfo[] {
            ProberFixtures.connection(1, "ws1", "ws2", 256, Double.NaN),
            ProberFixtures.connection(2, "ws1", "ws2", 256, -2),
            ProberFixtures.connection(3, "ws1", "ws2", 256, Double.POSITIVE_INFINITY),
            ProberFixtures.connection(4, "ws1", "ws2", 256, 50_000),
            ProberFixtures.connection(5, "ws1", "ws2", 0, 10),
            ProberFixtures.connection(6, "ws1", "ws2", 1_000_000_000, 10),
            ProberFixtures.connection(7, "ws1", " ", 256, 10),
            ProberFixtures.connection(8, "", "ws2", 256, 10),
            ProberFixtures.connection(9, "ws1", "ws2", 256, 10),
            ProberFixtures.connection(9, "ws1", "ws3", 256, 10)}, node -> true);
        assertEquals(List.of(new ProbeTarget((short) 9, "ws1", "ws2", 256, 10, Optional.of(ProberFixtures.SHAPE))), selection.targets());
        final List<String> problems = selection.problems();
        assertEquals(9, problems.size(), String.join("\n", problems));
        final String[] expected = {"connection 1: probe rate NaN", "connection 2: probe rate -2.0", "connection 3: probe rate Infinity",
            "connection 4: probe rate 50000.0 per second is above", "connection 5: message size 0 B", "connection 6: message size 1000000000 B",
            "connection 7: no peer node", "connection 8: no client node", "connection 9: listed twice"};
        for (int i = 0; i < expected.length; i++) {
            assertTrue(problems.get(i).startsWith(expected[i]), problems.get(i));
        }
    }

    @Test
    void aDeclaredShapeIsTakenNoneMeansDrawnShapesAndANonsenseOneIsSkippedWithTheField() {
        final TrafficShape octets = new TrafficShape(2_000, 50, 1_000, CallKind.OCTETS);
        final ProbeTargets.Selection selection = ProbeTargets.select(new ConnectionInfo[] {
            ProberFixtures.shaped(1, "ws1", "ws2", 256, 10, octets),
            ProberFixtures.undeclared(2, "ws1", "ws2", 256, 10),
            ProberFixtures.listed(3, "ws1", "ws2", 256, 10, true, new org.latencyserver.idl.latency.TrafficShape(2_000, 0, 0, (short) 1)),
            ProberFixtures.listed(4, "ws1", "ws2", 256, 10, true, new org.latencyserver.idl.latency.TrafficShape(2_000, 5, 0, (short) 0))},
            "ws1"::equals);
        assertEquals(List.of(new ProbeTarget((short) 1, "ws1", "ws2", 256, 10, Optional.of(octets)),
            new ProbeTarget((short) 2, "ws1", "ws2", 256, 10, Optional.empty())), selection.targets());
        assertEquals(2, selection.problems().size(), selection.problems()::toString);
        assertTrue(selection.problems().get(0).startsWith("connection 3: declared traffic is not a shape (burst must be"),
            selection.problems().get(0));
        assertTrue(selection.problems().get(1).startsWith("connection 4: declared traffic is not a shape (traffic.call 0"),
            selection.problems().get(1));
    }
}
