package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fm1 payloads have the shapes {@code fm1.idl} declares and cells an echo cannot mix up unseen. */
class Fm1ArraysTest {

    @ParameterizedTest(name = "{0} bytes: long[{1}][8]")
    @CsvSource({"64, 2", "128, 4", "256, 8", "512, 16", "1024, 32", "2048, 64", "4096, 128", "8192, 256"})
    void eachThesisSizeHasTheRowsFm1IdlDeclaresOfEightLongs(final int sizeBytes, final int rows) {
        final int[][] array = Fm1Arrays.numbered(sizeBytes);
        assertEquals(rows, array.length);
        assertTrue(Arrays.stream(array).allMatch(row -> row.length == 8), "every row is 8 longs");
    }

    @Test
    void everyCellOfAnArrayHoldsADifferentValue() {
        final int[][] array = Fm1Arrays.numbered(8192);
        final long distinct = Arrays.stream(array).flatMapToInt(Arrays::stream).distinct().count();
        assertEquals(256 * 8, distinct);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -32, 100})
    void aSizeThatIsNoWholeNumberOfRowsIsRefusedNamingIt(final int sizeBytes) {
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> Fm1Arrays.numbered(sizeBytes));
        assertTrue(refused.getMessage().contains(sizeBytes + " bytes"), refused.getMessage());
    }
}
