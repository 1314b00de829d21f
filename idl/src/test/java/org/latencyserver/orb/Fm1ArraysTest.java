package org.latencyserver.orb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.idl.fm1Operations;

/**
 * The fm1 payloads have the shapes {@code fm1.idl} declares and cells an echo cannot mix up unseen,
 * and each goes through the operation of its size.
 */
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

    @ParameterizedTest(name = "{0} bytes through {1}")
    @CsvSource({"64, fixed_array_test_64", "128, fixed_array_test_128", "256, fixed_array_test_256",
        "512, fixed_array_test_512", "1024, fixed_array_test_1k", "2048, fixed_array_test_2k",
        "4096, fixed_array_test_4k", "8192, fixed_array_test_8k"})
    void anArrayGoesThroughTheOneOperationOfItsSize(final int sizeBytes, final String operation) {
        final List<String> called = new ArrayList<>();
        final int[][] array = Fm1Arrays.numbered(sizeBytes);
        assertSame(array, Fm1Arrays.roundTrip(recording(called), array));
        assertEquals(List.of(operation), called);
    }

    @Test
    void anArrayOfNoFm1SizeIsRefusedNamingItsRowsAndCallsNothing() {
        final List<String> called = new ArrayList<>();
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> Fm1Arrays.roundTrip(recording(called), new int[3][8]));
        assertTrue(refused.getMessage().contains("3 rows (96 bytes)"), refused.getMessage());
        assertEquals(List.of(), called);
    }

    /** @return an fm1 end that echoes and notes the name of every operation called on it */
    private static fm1Operations recording(final List<String> called) {
        return (fm1Operations) Proxy.newProxyInstance(fm1Operations.class.getClassLoader(),
            new Class<?>[] {fm1Operations.class}, (proxy, method, args) -> {
                called.add(method.getName());
                return args[0];
            });
    }
}
