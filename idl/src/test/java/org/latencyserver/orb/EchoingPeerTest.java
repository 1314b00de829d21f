package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every one of the nine echo operations answers its own argument, after the subclass's hook (the
 * fixed arrays reach their operations through {@link Fm1Arrays#roundTrip}, which Fm1ArraysTest checks).
 */
class EchoingPeerTest {

    /** Counts the hook's calls. */
    private static final class CountingPeer extends EchoingPeer {
        final AtomicInteger answers = new AtomicInteger();

        @Override
        protected void beforeAnswer() {
            answers.incrementAndGet();
        }
    }

    @ParameterizedTest(name = "the {0}-byte fixed array")
    @ValueSource(ints = {64, 128, 256, 512, 1024, 2048, 4096, 8192})
    void aFixedArrayOperationAnswersTheArrayItWasGivenOnceTheHookRan(final int sizeBytes) {
        final CountingPeer peer = new CountingPeer();
        final int[][] array = Fm1Arrays.numbered(sizeBytes);
        assertSame(array, Fm1Arrays.roundTrip(peer, array));
        assertEquals(1, peer.answers.get());
    }

    @Test
    void theOctetEchoAnswersThePayloadItWasGivenOnceTheHookRan() {
        final CountingPeer peer = new CountingPeer();
        final byte[] payload = {3, 1, 4, 1, 5};
        assertSame(payload, peer.echo(payload));
        assertEquals(1, peer.answers.get());
    }
}
