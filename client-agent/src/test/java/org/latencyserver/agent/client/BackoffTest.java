package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The retry delays of the agent's loops (server look-up, peer retries, submits). */
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
}
