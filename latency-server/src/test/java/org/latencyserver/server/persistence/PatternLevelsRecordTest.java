package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;
import org.latencyserver.server.table.ServedEstimate;

/**
 * The port patterns' levels in a connection's record ({@code pattern_levels}): written and read back with each hop's
 * kind of port state, absent in older records (then none), a damaged one (a kind unknown, another number of hops than
 * the connection's path, the same hops twice) refused naming its place, and a change of them a change of the record.
 */
class PatternLevelsRecordTest {

    private static final ConnectionLoadState BOTH = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
        List.of(PortState.loaded(95), PortState.loaded(98)));
    private static final ConnectionLoadState HOP_2 = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.HIGH, CpuState.LOW),
        List.of(PortState.NORMAL, PortState.SATURATED));

    private static PortPatternLevel learned(final int blocks, final long missesEach) {
        PortPatternLevel pattern = PortPatternLevel.start(96);
        for (int i = 0; i < blocks; i++) {
            pattern = pattern.observe(20, missesEach);
        }
        return pattern;
    }

    private static ConnectionRow row(final Learning learning) {
        final Estimate bound = new Estimate(2, EstimateKind.BOUND, 12.5, 96, new ConfidenceInterval(0.95, 0.97, 0.95, "t"),
            List.of(), "profile", List.of(), false);
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, type, "lab2", (short) 6, type,
            List.of("sw1-trunk", "sw2-lab2"), 1024, 2, 96, "paths", CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
        return ConnectionRow.initial(spec, 0)
            .withMib(new MibReading((short) 10, (short) 10, PortPercents.of((short) 95, (short) 98)), BOTH, 1)
            .withServed(bound, null, new ServedEstimate(bound, null, EstimateSource.PROFILE, 0, "", null))
            .withLearning(learning);
    }

    private static Learning twoPatterns() {
        return new Learning(Map.of(), 0, null, learned(7, 2).level()).withPatternLevel(BOTH, learned(5, 3))
            .withPatternLevel(HOP_2, learned(2, 0));
    }

    private static InputNode parsed(final ObjectNode record) throws Exception {
        return InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test"));
    }

    private static String refusal(final ObjectNode record) {
        return assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000)).getMessage();
    }

    @Test
    void eachPatternsLevelAndBlocksAreWrittenAndReadBack() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(twoPatterns()), null);
        final ArrayNode written = (ArrayNode) record.get("pattern_levels");
        assertEquals(2, written.size());
        assertEquals("[\"NORMAL\",\"SATURATED\"]", written.get(0).get("hop_states").toString(), "in the order of the kinds");
        assertEquals("[\"LOADED\",\"LOADED\"]", written.get(1).get("hop_states").toString(), "kinds, not percents");
        assertEquals(2, written.get(0).get("blocks").asLong());

        final Learning read = ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000).learning();

        assertEquals(twoPatterns().patternLevels(), read.patternLevels());
    }

    @Test
    void aRecordWithoutThemAsOlderFilesAreLoadsWithNoPatternLevelAndTheRestKept() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(twoPatterns()), null);
        record.remove("pattern_levels");

        final Learning read = ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000).learning();

        assertTrue(read.patternLevels().isEmpty());
        assertEquals(twoPatterns().pooledLevel().missFraction(), read.pooledLevel().missFraction(), 1e-15);
    }

    @Test
    void noPatternLearnedWritesNothing() {
        final ObjectNode record = ConnectionRecordCodec.encode(row(new Learning(Map.of(), 0, null)), null);
        assertFalse(record.has("pattern_levels"));
    }

    @Test
    void aDamagedPatternIsRefusedNamingItsPlace() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(twoPatterns()), null);
        final ObjectNode second = (ObjectNode) record.get("pattern_levels").get(1);

        second.put("blocks", 2.5);
        assertTrue(refusal(record).startsWith("pattern_levels[1].blocks: must be a whole number"), refusal(record));
        second.put("blocks", 5).put("miss_fraction", "low");
        assertTrue(refusal(record).startsWith("pattern_levels[1].miss_fraction: expected a number"), refusal(record));
        second.put("miss_fraction", 0.9);
        assertTrue(refusal(record).startsWith("pattern_levels[1].miss_fraction: expected a finite number at most"),
            refusal(record));
        second.put("miss_fraction", 0.01).putArray("hop_states").add("LOADED").add(50);
        assertTrue(refusal(record).startsWith("pattern_levels[1].hop_states[1]: expected a port state kind"), refusal(record));
        second.putArray("hop_states").add("LOADED").add("BUSY");
        assertTrue(refusal(record).startsWith("pattern_levels[1].hop_states[1]: expected a port state kind"), refusal(record));
        second.putArray("hop_states");
        assertTrue(refusal(record).startsWith("pattern_levels[1].hop_states: expected 1..8 hops, found 0"),
            refusal(record));
        record.putArray("pattern_levels").add(3);
        assertTrue(refusal(record).startsWith("pattern_levels[0]: expected an object"), refusal(record));
        record.put("pattern_levels", "none");
        assertTrue(refusal(record).startsWith("pattern_levels: expected an array"), refusal(record));
    }

    @Test
    void aPatternOfAnotherNumberOfHopsThanTheConnectionsPathIsLeftOutAndTheOtherPatternsLoad() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(twoPatterns()), null);
        final List<PortState.Kind> kept = kinds(record.get("pattern_levels").get(0));
        ((ObjectNode) record.get("pattern_levels").get(1)).putArray("hop_states").add("LOADED").add("LOADED").add("NORMAL");
        final List<PortState.Kind> threeHops = List.of(PortState.Kind.LOADED, PortState.Kind.LOADED, PortState.Kind.NORMAL);

        final var onTwoHops = ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000, indexRef -> indexRef == 4 ? 2 : 0)
            .learning().patternLevels();
        assertEquals(java.util.Set.of(kept), onTwoHops.keySet(), "the path's own pattern kept, the other path's left out");
        assertTrue(ConnectionRecordCodec.decode(parsed(record), Map.of(), 1000, indexRef -> 0).learning().patternLevels()
                .containsKey(threeHops),
            "a connection not configured: its path's hops are not known, the pattern read as written");
    }

    private static List<PortState.Kind> kinds(final com.fasterxml.jackson.databind.JsonNode pattern) {
        final List<PortState.Kind> kinds = new java.util.ArrayList<>();
        pattern.get("hop_states").forEach(kind -> kinds.add(PortState.Kind.valueOf(kind.asText())));
        return kinds;
    }

    @Test
    void theSameHopsTwiceAreRefusedNamingBothEntries() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(row(twoPatterns()), null);
        ((ArrayNode) record.get("pattern_levels")).addObject().put("miss_fraction", 0.02).put("blocks", 1)
            .putArray("hop_states").add("NORMAL").add("SATURATED");

        assertEquals("pattern_levels[2]: the same hops as pattern_levels[0]", refusal(record));
    }

    @Test
    void aPatternThatLearnedMakesADifferentRecord() {
        final ConnectionRow before = row(twoPatterns());
        final ConnectionRow after = before.withLearning(before.learning().withPatternLevel(BOTH,
            before.learning().patternLevel(BOTH).observe(20, 5)));
        assertFalse(ConnectionRecordCodec.sameRecordButReadings(before, after));
        assertTrue(ConnectionRecordCodec.sameRecordButReadings(before, before.withLearning(twoPatterns())));
    }
}
