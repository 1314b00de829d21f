package org.latencyserver.orb;

/**
 * Payloads for the thesis's {@code fm1} fixed arrays: {@code long[sizeBytes / 32][8]}, eight IDL
 * longs of 4 bytes a row, so {@code fixedArray_64} is {@code [2][8]} and {@code fixedArray_8k}
 * {@code [256][8]} (see {@code fm1.idl}).
 */
public final class Fm1Arrays {

    /** IDL longs in a row of every fm1 array. */
    public static final int LONGS_PER_ROW = 8;
    /** Bytes in a row: eight 4-byte IDL longs. */
    public static final int BYTES_PER_ROW = LONGS_PER_ROW * Integer.BYTES;

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
}
