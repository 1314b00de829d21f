package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every one of the nine echo operations answers its own argument, after the subclass's hook. */
class EchoingPeerTest {

    /** Counts the hook's calls. */
    private static final class CountingPeer extends EchoingPeer {
        final AtomicInteger answers = new AtomicInteger();

        @Override
        protected void beforeAnswer() {
            answers.incrementAndGet();
        }
    }

    private static Arguments fixedArray(final int sizeBytes,
                                        final BiFunction<EchoingPeer, int[][], int[][]> operation) {
        return Arguments.of(sizeBytes, operation);
    }

    static Stream<Arguments> fixedArrayOperations() {
        return Stream.of(fixedArray(64, EchoingPeer::fixed_array_test_64), fixedArray(128, EchoingPeer::fixed_array_test_128),
            fixedArray(256, EchoingPeer::fixed_array_test_256), fixedArray(512, EchoingPeer::fixed_array_test_512),
            fixedArray(1024, EchoingPeer::fixed_array_test_1k), fixedArray(2048, EchoingPeer::fixed_array_test_2k),
            fixedArray(4096, EchoingPeer::fixed_array_test_4k), fixedArray(8192, EchoingPeer::fixed_array_test_8k));
    }

    @ParameterizedTest(name = "the {0}-byte fixed array")
    @MethodSource("fixedArrayOperations")
    void aFixedArrayOperationAnswersTheArrayItWasGivenOnceTheHookRan(
            final int sizeBytes, final BiFunction<EchoingPeer, int[][], int[][]> operation) {
        final CountingPeer peer = new CountingPeer();
        final int[][] array = Fm1Arrays.numbered(sizeBytes);
        assertSame(array, operation.apply(peer, array));
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
