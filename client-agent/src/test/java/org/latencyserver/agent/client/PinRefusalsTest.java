package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which pin-check refusals are logged, with made-up instants. */
class PinRefusalsTest {

    private static final long MINUTE_NANOS = PinRefusals.LOG_INTERVAL_NANOS;

    @Test
    void aPeersFirstRefusalIsLoggedThenAtMostOneAMinuteWithTheCountHeldBack() {
        final PinRefusals refusals = new PinRefusals();
        assertEquals(0, refusals.refused("ws2", 1_000), "the first is logged, nothing held back");
        assertEquals(-1, refusals.refused("ws2", 1_000 + MINUTE_NANOS / 2));
        assertEquals(-1, refusals.refused("ws2", 1_000 + MINUTE_NANOS - 1));
        assertEquals(2, refusals.refused("ws2", 1_000 + MINUTE_NANOS), "a minute on: logged, with the two held back");
        assertEquals(-1, refusals.refused("ws2", 1_000 + MINUTE_NANOS + 1));
        assertEquals(5, refusals.total(), "every refusal is counted, logged or not");
    }

    @Test
    void eachPeerNodeIsLimitedOnItsOwn() {
        final PinRefusals refusals = new PinRefusals();
        assertEquals(0, refusals.refused("ws2", 0));
        assertEquals(0, refusals.refused("ws3", 1), "another peer's first refusal is logged at once");
        assertEquals(-1, refusals.refused("ws2", 2));
        assertEquals(3, refusals.total());
    }
}
