package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/** The learned cells a primary sends its standby come back equal, and a damaged message names what is wrong. */
class LearnedCellsCodecTest {

    private static final CpuStatePair LOW_MEDIUM = new CpuStatePair(CpuState.LOW, CpuState.MEDIUM);

    @Test
    void cellsComeBackEqualBitForBit() {
        final LearnedCell cell = new LearnedCell(LOW_MEDIUM, 256, new long[] {1_000_000L, 2_000_000L, 4_000_000L},
            new double[] {0.1 + 0.2, 17.000000000000004, 0}, 1.0 / 3, 23.456789, 31.0e-7, 42, 3.9, 1_700_000_000_000L,
            1_700_000_360_000L);
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned =
            Map.of("p", Map.of(new LearnedProfiles.CellKey(LOW_MEDIUM, 256), cell), "empty", Map.of());
        final var decoded = LearnedCellsCodec.decode(LearnedCellsCodec.encode(LearnedCellsCodec.Change.between(null, learned)), 10);
        assertTrue(decoded.whole());
        assertEquals(learned, decoded.applyTo(Map.of("other", Map.of())), "a whole change replaces everything");
        final LearnedCell back = decoded.cells().get("p").values().iterator().next();
        assertEquals(cell.decayedSumMillis(), back.decayedSumMillis());
        assertEquals(cell.decayedSumSquaresMillis(), back.decayedSumSquaresMillis());
        assertEquals(cell.maxMillis(), back.maxMillis());
        assertEquals(cell.firstEpochMillis(), back.firstEpochMillis());
    }

    @Test
    void aDamagedMessageIsRefusedNamingTheProfileTheCellAndTheField() {
        final String cell = "{\"cpu\":12,\"size_bytes\":256,\"upper_edges_nanos\":[2,1],\"decayed_counts\":[0,1],"
            + "\"decayed_overflow\":0,\"decayed_sum_millis\":1,\"decayed_sum_squares_millis\":1,\"round_trips\":1,"
            + "\"max_millis\":1,\"first_epoch_millis\":1,\"last_epoch_millis\":1}";
        final IllegalArgumentException edges = assertThrows(IllegalArgumentException.class,
            () -> LearnedCellsCodec.decode(wrapped(cell), 10));
        assertEquals("the primary's learned cell 0 of profile p: upper_edges_nanos[1] must be a positive whole number above"
            + " the one before", edges.getMessage());
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> LearnedCellsCodec.decode(wrapped(cell), 1));
        assertTrue(tooMany.getMessage().contains("1 to 1"), tooMany.getMessage());
        final IllegalArgumentException pair = assertThrows(IllegalArgumentException.class, () -> LearnedCellsCodec.decode(
            wrapped(cell.replace("\"cpu\":12", "\"cpu\":44")), 10));
        assertTrue(pair.getMessage().startsWith("the primary's learned cell 0 of profile p: unknown CPU state code 4"),
            pair.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LearnedCellsCodec.decode("[]".getBytes(StandardCharsets.UTF_8), 10));
        assertThrows(IllegalArgumentException.class, () -> LearnedCellsCodec.decode("{".getBytes(StandardCharsets.UTF_8), 10));
    }

    @Test
    void onlyTheCellsThatChangedAreSentAndMergedIntoTheStandbys() {
        final LearnedProfiles.CellKey lowMedium = new LearnedProfiles.CellKey(LOW_MEDIUM, 256);
        final CpuStatePair lowLow = new CpuStatePair(CpuState.LOW, CpuState.LOW);
        final LearnedProfiles.CellKey lowLowKey = new LearnedProfiles.CellKey(lowLow, 256);
        final LearnedCell a = cell(LOW_MEDIUM, 1);
        final LearnedCell b = cell(lowLow, 1);
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> sent =
            Map.of("p", Map.of(lowMedium, a, lowLowKey, b), "gone", Map.of(lowMedium, a));
        final LearnedCell a2 = cell(LOW_MEDIUM, 2);
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> now = Map.of("p", Map.of(lowMedium, a2, lowLowKey, b));
        final LearnedCellsCodec.Change change = LearnedCellsCodec.decode(
            LearnedCellsCodec.encode(LearnedCellsCodec.Change.between(sent, now)), 10);
        assertEquals(Map.of("p", Map.of(lowMedium, a2)), change.cells(), "only the cell that changed travels");
        assertEquals(java.util.Set.of("gone"), change.removed());
        assertEquals(now, change.applyTo(sent), "the standby ends with the primary's cells");
        assertTrue(LearnedCellsCodec.Change.between(now, now).isEmpty());
    }

    private static byte[] wrapped(final String cell) {
        return ("{\"whole\":true,\"replaced\":[],\"removed\":[],\"profiles\":{\"p\":[" + cell + "]}}")
            .getBytes(StandardCharsets.UTF_8);
    }

    private static LearnedCell cell(final CpuStatePair pair, final long roundTrips) {
        return new LearnedCell(pair, 256, new long[] {1_000_000L}, new double[] {roundTrips}, 0, 1.5 * roundTrips,
            2.25 * roundTrips, roundTrips, 1.5, 1_700_000_000_000L, 1_700_000_000_000L + roundTrips);
    }
}
