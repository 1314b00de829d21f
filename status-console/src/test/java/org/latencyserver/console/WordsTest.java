package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.orb.EstimateSource;

class WordsTest {

    @Test
    void everySourceOfTheCurrentStateNeedsNoLabelAndIsNotMarked() {
        for (final EstimateSource source : new EstimateSource[] {EstimateSource.NONE, EstimateSource.MEASUREMENT,
            EstimateSource.PROFILE}) {
            assertEquals("", Words.source(source.word(), 0, 0), source.name());
            assertEquals("", Words.sourceExplanation(source.word()), source.name());
            assertFalse(Words.sourceElsewhere(source.word()), source.name());
        }
    }

    @Test
    void aValueFromAnotherStateIsLabelledAndMarked() {
        assertEquals("profile fallback", Words.source(EstimateSource.PROFILE_FALLBACK.word(), 0, 0));
        assertEquals("previous state's value", Words.source(EstimateSource.PREVIOUS_STATE.word(), 0, 0));
        assertTrue(Words.sourceElsewhere(EstimateSource.PROFILE_FALLBACK.word()));
        assertTrue(Words.sourceElsewhere(EstimateSource.PREVIOUS_STATE.word()));
        assertFalse(Words.sourceElsewhere(EstimateSource.BAND_PROBES.word()), "a loaded port's own probes are of this state");
    }

    @Test
    void aRememberedMeasurementSaysHowOldItIs() {
        assertEquals("remembered, 3 min old", Words.source(EstimateSource.REMEMBERED.word(), 1_000, 1_000 + 180_000));
        assertEquals("remembered", Words.source(EstimateSource.REMEMBERED.word(), 0, 5_000));
    }

    @Test
    void aWordFromANewerServerIsShownAsItCameAndNotMarked() {
        assertEquals("gossip", Words.source("gossip", 0, 0));
        assertEquals("the server's source of this value", Words.sourceExplanation("gossip"));
        assertFalse(Words.sourceElsewhere("gossip"));
    }
}
