package org.latencyserver.agent.measure;

import java.util.Arrays;
import org.latencyserver.idl.latency.EchoPeer;

/**
 * Round trips to a peer agent over CORBA. The thesis's eight sizes (64 B … 8 KB) go through its
 * {@code fm1} fixed arrays of longs, exactly as its measurements did; any other size through
 * {@code EchoPeer.echo} with an octet sequence.
 */
public final class CorbaRoundTrips {

    private CorbaRoundTrips() {
    }

    /**
     * Builds the round trip for one message size and checks, once, that the peer really echoes
     * (a peer that answers with something else would make every timing meaningless).
     *
     * @param peer             the peer agent's echo object
     * @param messageSizeBytes payload size, &ge; 1
     * @return the round trip
     * @throws IllegalStateException when the peer's answer is not the payload
     */
    public static RoundTrip to(final EchoPeer peer, final int messageSizeBytes) {
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        final RoundTrip roundTrip = switch (messageSizeBytes) {
            case 64 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_64(array));
            case 128 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_128(array));
            case 256 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_256(array));
            case 512 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_512(array));
            case 1024 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_1k(array));
            case 2048 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_2k(array));
            case 4096 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_4k(array));
            case 8192 -> fixed(messageSizeBytes, array -> peer.fixed_array_test_8k(array));
            default -> octets(peer, messageSizeBytes);
        };
        return roundTrip;
    }

    /** @return whether the size goes through the thesis's fm1 arrays */
    public static boolean isThesisSize(final int messageSizeBytes) {
        return messageSizeBytes >= 64 && messageSizeBytes <= 8192 && Integer.bitCount(messageSizeBytes) == 1;
    }

    private interface FixedEcho {
        int[][] echo(int[][] array);
    }

    private static RoundTrip fixed(final int sizeBytes, final FixedEcho echo) {
        // fm1 arrays are [rows][8] of 4-byte longs: 64 B is [2][8].
        final int[][] payload = new int[sizeBytes / 32][8];
        for (int row = 0; row < payload.length; row++) {
            for (int column = 0; column < 8; column++) {
                payload[row][column] = row * 8 + column;
            }
        }
        if (!Arrays.deepEquals(payload, echo.echo(payload))) {
            throw new IllegalStateException("the peer's fm1 answer for " + sizeBytes + " B is not what was sent");
        }
        return () -> echo.echo(payload);
    }

    private static RoundTrip octets(final EchoPeer peer, final int sizeBytes) {
        final byte[] payload = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            payload[i] = (byte) i;
        }
        if (!Arrays.equals(payload, peer.echo(payload))) {
            throw new IllegalStateException("the peer's echo of " + sizeBytes + " B is not what was sent");
        }
        return () -> peer.echo(payload);
    }
}
