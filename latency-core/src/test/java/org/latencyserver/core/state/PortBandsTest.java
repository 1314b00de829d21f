package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PortBandsTest {

    private static final PortBands BANDS = PortBands.of(List.of(95, 98));

    @Test
    void aLoadedPercentBelongsToTheBandWhoseUpperEdgeIsTheFirstAtOrAboveIt() {
        assertEquals(95, BANDS.bandOf(91));
        assertEquals(95, BANDS.bandOf(95));
        assertEquals(98, BANDS.bandOf(96));
        assertEquals(98, BANDS.bandOf(98));
        assertEquals(100, BANDS.bandOf(99));
        assertEquals(100, BANDS.bandOf(100));
        assertEquals(List.of(95, 98, 100), BANDS.upperPercents());
    }

    @Test
    void theThesisStatesAreEveryWholePercent() {
        for (int percent = 91; percent <= 100; percent++) {
            assertEquals(percent, PortBands.THESIS.bandOf(percent));
        }
        assertTrue(PortBands.THESIS.isEveryPercent());
    }

    @Test
    void aBandIsDescribedByItsRangeForOperators() {
        assertEquals("LOADED 91–95 %", BANDS.describe(PortState.loaded(95)));
        assertEquals("LOADED 99–100 %", BANDS.describe(PortState.loaded(100)));
        assertEquals("NORMAL", BANDS.describe(PortState.NORMAL));
        assertEquals("LOADED 93 %", BANDS.describe(PortState.loaded(93)), "a state from the thesis's scheme stays as it is");
        assertEquals("LOADED 93 %", PortBands.THESIS.describe(PortState.loaded(93)));
    }

    @Test
    void edgesOutOfOrderOrOutOfTheLoadedRangeAreRefusedWithTheEdge() {
        final IllegalArgumentException disordered = assertThrows(IllegalArgumentException.class, () -> PortBands.of(List.of(98, 95)));
        assertTrue(disordered.getMessage().startsWith("band upper edge [1] must be a whole percent above 98"), disordered.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PortBands.of(List.of(90)));
        assertThrows(IllegalArgumentException.class, () -> PortBands.of(List.of(100)));
        assertEquals(List.of(100), PortBands.of(List.of()).upperPercents(), "no edge: one band 91-100");
    }
}
