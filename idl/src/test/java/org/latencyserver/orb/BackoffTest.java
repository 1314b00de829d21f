package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The retry delays of every loop that retries the server or a peer. */
class BackoffTest {

    @Test
    void delaysDoubleUpToTheCapAndStartAgainAfterAReset() {
        final Backoff backoff = new Backoff(500, 5_000);
        assertEquals(500, backoff.nextDelayMillis());
        assertEquals(1_000, backoff.nextDelayMillis());
        assertEquals(2_000, backoff.nextDelayMillis());
        assertEquals(4_000, backoff.nextDelayMillis());
        assertEquals(5_000, backoff.nextDelayMillis());
        assertEquals(5_000, backoff.nextDelayMillis());
        backoff.reset();
        assertEquals(500, backoff.nextDelayMillis());
        assertEquals(1_000, backoff.nextDelayMillis());
    }

    @Test
    void aFirstDelayAboveTheCapIsUsedOnceAndThenTheCap() {
        // the mirror's feed starts from its poll interval, which may be longer than its cap
        final Backoff backoff = new Backoff(8_000, 5_000);
        assertEquals(8_000, backoff.nextDelayMillis());
        assertEquals(5_000, backoff.nextDelayMillis());
        assertEquals(5_000, backoff.nextDelayMillis());
    }

    @Test
    void aDelayThatIsNotPositiveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 5_000));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(500, -1));
    }
}
