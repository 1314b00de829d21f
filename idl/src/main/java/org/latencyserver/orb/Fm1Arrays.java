package org.latencyserver.orb;

import java.util.List;
import org.latencyserver.idl.fm1Operations;

/**
 * The thesis's {@code fm1} fixed arrays: {@code long[sizeBytes / 32][8]}, eight IDL longs of 4
 * bytes a row, so {@code fixedArray_64} is {@code [2][8]} and {@code fixedArray_8k}
 * {@code [256][8]} (see {@code fm1.idl}); payloads for them, and the one operation that carries
 * each size.
 */
public final class Fm1Arrays {

    /** IDL longs in a row of every fm1 array. */
    public static final int LONGS_PER_ROW = 8;
    /** Bytes in a row: eight 4-byte IDL longs. */
    public static final int BYTES_PER_ROW = LONGS_PER_ROW * Integer.BYTES;
    /** The sizes of the eight fm1 arrays, bytes, smallest first. */
    public static final List<Integer> SIZES_BYTES = List.of(64, 128, 256, 512, 1024, 2048, 4096, 8192);

    private Fm1Arrays() {
    }

    /**
     * @param sizeBytes the array's size on the wire, one of fm1's 64 … 8192
     * @return an array of that size whose every cell holds its own position (row × 8 + column),
     *     so that an echo that drops, swaps or zeroes a cell does not compare equal
     * @throws IllegalArgumentException when {@code sizeBytes} is not a positive multiple of 32
     */
    public static int[][] numbered(final int sizeBytes) {
        if (sizeBytes <= 0 || sizeBytes % BYTES_PER_ROW != 0) {
            throw new IllegalArgumentException("an fm1 array is whole rows of " + BYTES_PER_ROW + " bytes, not "
                + sizeBytes + " bytes");
        }
        final int[][] array = new int[sizeBytes / BYTES_PER_ROW][LONGS_PER_ROW];
        for (int row = 0; row < array.length; row++) {
            for (int column = 0; column < LONGS_PER_ROW; column++) {
                array[row][column] = row * LONGS_PER_ROW + column;
            }
        }
        return array;
    }

    /**
     * Sends an array through the one fm1 operation whose array type has its size.
     *
     * @param peer  the echo end (a stub, or a servant called directly)
     * @param array an fm1 array of one of {@link #SIZES_BYTES}
     * @return the peer's answer
     * @throws IllegalArgumentException when no fm1 operation carries an array of that many rows
     */
    public static int[][] roundTrip(final fm1Operations peer, final int[][] array) {
        final int sizeBytes = array.length * BYTES_PER_ROW;
        return switch (sizeBytes) {
            case 64 -> peer.fixed_array_test_64(array);
            case 128 -> peer.fixed_array_test_128(array);
            case 256 -> peer.fixed_array_test_256(array);
            case 512 -> peer.fixed_array_test_512(array);
            case 1024 -> peer.fixed_array_test_1k(array);
            case 2048 -> peer.fixed_array_test_2k(array);
            case 4096 -> peer.fixed_array_test_4k(array);
            case 8192 -> peer.fixed_array_test_8k(array);
            default -> throw new IllegalArgumentException("no fm1 operation carries " + array.length + " rows ("
                + sizeBytes + " bytes); its sizes are " + SIZES_BYTES + " bytes");
        };
    }
}
