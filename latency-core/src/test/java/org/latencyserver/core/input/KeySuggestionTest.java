package org.latencyserver.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeySuggestionTest {

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertEquals(3, KeySuggestion.distance("kitten", "sitting"));   // the textbook pair: k->s, e->i, +g
        assertEquals(1, KeySuggestion.distance("pol_interval_millis", "poll_interval_millis"));
        assertEquals(0, KeySuggestion.distance("qos", "qos"));
        assertEquals(3, KeySuggestion.distance("", "qos"));
        assertEquals(2, KeySuggestion.distance("ab", "ba"));               // no transpositions: two substitutions
    }

    @Test
    void theClosestKeyIsSuggestedOnlyWhenItIsClose() {
        final List<String> known = List.of("round_trips", "warmup_round_trips", "timeout_millis", "budget_round_trips_per_second");
        assertEquals("round_trips", KeySuggestion.closest("round_trip", known));
        // Long keys may be further off, up to a quarter of their length: 6 edits for these 25 characters (4 here).
        assertEquals("budget_round_trips_per_second", KeySuggestion.closest("budget_roundtrips_per_sec", known));
        // Short keys only 2: "timeout_ms" is 4 edits from "timeout_millis", too far to guess.
        assertNull(KeySuggestion.closest("timeout_ms", known));
    }

    @Test
    void aKeyFarFromEveryKnownOneGetsNoSuggestion() {
        assertNull(KeySuggestion.closest("colour", List.of("qos", "peer", "client")));
    }
}
