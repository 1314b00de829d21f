package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one verdict type of every check, and the metric labels its kinds are counted by. */
class RefusalTest {

    @Test
    void eachKindIsCountedByTheLabelDashboardsAndAlertsUse() {
        assertEquals(List.of("not_permitted", "disabled", "unknown_connection", "bad_value", "bad_ticket", "implausible",
                "too_large", "polled_source", "bad_profile", "caller_limit"),
            Arrays.stream(Refusal.Kind.values()).map(Refusal.Kind::metricLabel).toList());
    }

    @Test
    void onlyARefusalOfTheCallerRefusesTheCaller() {
        for (final Refusal.Kind kind : Refusal.Kind.values()) {
            assertEquals(kind == Refusal.Kind.NOT_PERMITTED || kind == Refusal.Kind.DISABLED, kind.refusesCaller(), kind.name());
        }
    }

    @Test
    void aPrefixGoesBeforeTheMessageAndKeepsWhatWasRefused() {
        final Refusal refusal = Refusal.of(Refusal.Kind.TOO_LARGE, "histogram", 20_001, "20000", "histogram has 20001 bins")
            .prefixed("result for connection 3 refused: ");
        assertEquals("result for connection 3 refused: histogram has 20001 bins", refusal.message());
        assertEquals(Refusal.Kind.TOO_LARGE, refusal.kind());
        assertEquals("histogram", refusal.field());
        assertEquals("20001", refusal.value());
        assertEquals("20000", refusal.limit());
        assertTrue(refusal.faults().isEmpty());
    }

    @Test
    void anEngineOutcomeCarriesTheSameKinds() {
        assertTrue(SubmitOutcome.ACCEPTED.accepted());
        assertNull(SubmitOutcome.ACCEPTED.kind());
        assertEquals("", SubmitOutcome.ACCEPTED.reason());
        assertEquals(Refusal.Kind.BAD_TICKET, SubmitOutcome.refused("no open request").kind());
        assertEquals(Refusal.Kind.IMPLAUSIBLE, SubmitOutcome.implausible("mean 1e9 ms").kind());
        assertEquals(Refusal.Kind.UNKNOWN_CONNECTION, new SubmitOutcome(Refusal.Kind.UNKNOWN_CONNECTION, "no connection 9")
            .kind());
        assertEquals("no connection 9", new SubmitOutcome(Refusal.Kind.UNKNOWN_CONNECTION, "no connection 9").reason());
    }
}
