package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SaturatedPortTest {

    private static final PortStateClassifier BANDS = new PortStateClassifier(90, 1.0, PortBands.of(List.of(95, 98)));
    private static final PortStateClassifier THESIS = new PortStateClassifier(1.0);

    @Test
    void theSaturatedStateHasCode101AndIsLoaded() {
        assertEquals(101, PortState.SATURATED.code());
        assertEquals(PortState.SATURATED, PortState.fromCode(101));
        assertTrue(PortState.SATURATED.isLoaded(), "its queue adds to the latency");
        assertEquals("SATURATED", PortState.SATURATED.toString());
        assertEquals("SATURATED", PortBands.DEFAULT_BANDS.describe(PortState.SATURATED));
    }

    @Test
    void withBandsASaturatedReadingIsTheSaturatedStateFromAnyState() {
        assertEquals(PortState.SATURATED, BANDS.classify(PortState.SATURATED_CODE, null));
        assertEquals(PortState.SATURATED, BANDS.classify(PortState.SATURATED_CODE, PortState.NORMAL));
        assertEquals(PortState.SATURATED, BANDS.classify(PortState.SATURATED_CODE, PortState.loaded(100)));
    }

    @Test
    void withBandsAPortThatStopsDroppingReturnsToItsBand() {
        assertEquals(PortState.loaded(100), BANDS.classify(100, PortState.SATURATED));
        assertEquals(PortState.loaded(95), BANDS.classify(93, PortState.SATURATED));
        assertEquals(PortState.NORMAL, BANDS.classify(40, PortState.SATURATED));
    }

    @Test
    void withTheThesisStatesASaturatedReadingIsLoadedAtOneHundredPercent() {
        assertEquals(PortState.loaded(100), THESIS.classify(PortState.SATURATED_CODE, PortState.NORMAL));
    }
}
