package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The retry delays of every loop that retries the server or a peer. */
class BackoffTest {

    @Test
    void delaysDoubleUpToTheCapAndStartAgainAfterAReset() {
        final Backoff backoff = new Backoff(500, 5_000);
        assertDelays(backoff, 500, 1_000, 2_000, 4_000, 5_000, 5_000);
        backoff.reset();
        assertDelays(backoff, 500, 1_000);
    }

    @Test
    void aFirstDelayAboveTheCapIsUsedOnceAndThenTheCap() {
        // the mirror's feed starts from its poll interval, which may be longer than its cap
        assertDelays(new Backoff(8_000, 5_000), 8_000, 5_000, 5_000);
    }

    @Test
    void aDelayThatIsNotPositiveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 5_000));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(500, -1));
    }

    /** Asserts the backoff's next delays are these, in this order, naming the one that differs. */
    private static void assertDelays(Backoff backoff, long... expected) {
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], backoff.nextDelayMillis(), "delay " + (i + 1));
        }
    }
}
