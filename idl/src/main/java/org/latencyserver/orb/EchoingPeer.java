package org.latencyserver.orb;

import org.latencyserver.idl.latency.EchoPeerOperations;

/**
 * The echo end of a round trip: every operation of {@code EchoPeer} (the octet echo and the
 * thesis's eight {@code fm1} fixed arrays) returns what it was given, as the thesis's {@code fm1}
 * server did (§3.2), so that a round trip measures marshalling, the ORB and the network twice
 * and nothing else. A subclass says once, in {@link #beforeAnswer()}, what happens before each answer
 * (the peer agent counts it, a test delays it) instead of repeating it in nine operations.
 *
 * <p>Serve it through {@code EchoPeerPOATie}. JacORB may call it from several request threads at
 * once: {@link #beforeAnswer()} must be thread-safe.
 */
public abstract class EchoingPeer implements EchoPeerOperations {

    /** Runs on the request's thread before every answer of every operation. */
    protected abstract void beforeAnswer();

    private <T> T answer(final T argument) {
        beforeAnswer();
        return argument;
    }

    @Override public final byte[] echo(final byte[] payload) { return answer(payload); }

    @Override public final int[][] fixed_array_test_64(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_128(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_256(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_512(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_1k(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_2k(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_4k(final int[][] array) { return answer(array); }

    @Override public final int[][] fixed_array_test_8k(final int[][] array) { return answer(array); }
}
