package org.latencyserver.peer;

import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.idl.latency.EchoPeerOperations;

/**
 * The echo end of a round trip over CORBA: every operation returns what it was given, as the
 * thesis's {@code fm1} server did (§3.2), so a round trip measures marshalling, the ORB and the
 * network twice and nothing else.
 *
 * <p>Thread-safe: JacORB may call it from several request threads at once; the only state is a
 * counter.
 */
public final class EchoPeerServant implements EchoPeerOperations {

    private final AtomicLong echoes = new AtomicLong();

    /** @return how many echoes this servant has answered, for the log */
    public long echoCount() {
        return echoes.get();
    }

    @Override
    public byte[] echo(final byte[] payload) {
        echoes.incrementAndGet();
        return payload;
    }

    @Override
    public int[][] fixed_array_test_64(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_128(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_256(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_512(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_1k(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_2k(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_4k(final int[][] array) {
        return count(array);
    }

    @Override
    public int[][] fixed_array_test_8k(final int[][] array) {
        return count(array);
    }

    private int[][] count(final int[][] array) {
        echoes.incrementAndGet();
        return array;
    }
}
