package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PortLoadsTest {

    @Test
    void theThesisLoadsGiveOneBandFromAbovePreviousLoadUpToEachLoadAbove90() {
        final PortLoads loads = PortLoads.parse("0,50,80,90,95,98,100");
        assertEquals(List.of(0, 50, 80, 90, 95, 98, 100), loads.percents());
        assertEquals(List.of(new PortLoads.Band(91, 95), new PortLoads.Band(96, 98), new PortLoads.Band(99, 100)), loads.bands());
        assertEquals("96-98 %", loads.bandOf(98).label());
    }

    @Test
    void loadsAreSortedAndASingleLoadedLoadCoversTheWholeLoadedRange() {
        assertEquals(List.of(new PortLoads.Band(91, 100)), PortLoads.parse("100, 0").bands());
        assertEquals(List.of(new PortLoads.Band(91, 92), new PortLoads.Band(93, 95)), PortLoads.parse("95,92").bands());
        assertEquals(List.of(new PortLoads.Band(91, 91)), PortLoads.parse("91").bands());
        assertEquals("91 %", PortLoads.parse("91").bandOf(91).label());
    }

    @Test
    void aLoadAtOrBelow90HasNoBand() {
        final PortLoads loads = PortLoads.parse("0,90,95");
        assertThrows(IllegalArgumentException.class, () -> loads.bandOf(90));
        assertThrows(IllegalArgumentException.class, () -> loads.bandOf(93));
    }

    @Test
    void badListsAreRefusedNamingTheEntry() {
        assertMessage("--port-loads: 'x' is not a whole percent", "0,x");
        assertMessage("--port-loads: '' is not a whole percent", "0,,95");
        assertMessage("--port-loads: 101 is outside 0..100 %", "95,101");
        assertMessage("--port-loads: -1 is outside 0..100 %", "-1,95");
        assertMessage("--port-loads: 95 is given twice", "95,95");
        assertMessage("--port-loads: none of 0,50,90 is above 90 %", "0,50,90");
    }

    private static void assertMessage(final String start, final String text) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PortLoads.parse(text));
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }
}
