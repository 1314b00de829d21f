package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The methods' wire codes and words are stable: estimates and consoles match on them. */
class PathBoundMethodTest {

    @Test
    void wireCodesAndWordsAreFixed() {
        assertEquals(1, BoundMethod.UNION.wireCode());
        assertEquals("union bound", BoundMethod.UNION.word());
        assertEquals(2, BoundMethod.INDEPENDENT.wireCode());
        assertEquals("independent hops", BoundMethod.INDEPENDENT.word());
        assertEquals("union bound", BoundMethod.UNION.toString());
    }

    @Test
    void everyMethodIsFoundByItsWordAndCodeAndNothingElseIs() {
        for (final BoundMethod method : BoundMethod.values()) {
            assertEquals(Optional.of(method), BoundMethod.fromWord(method.word()));
            assertEquals(Optional.of(method), BoundMethod.fromWireCode(method.wireCode()));
        }
        assertEquals(Optional.empty(), BoundMethod.fromWireCode(0));
        assertEquals(Optional.empty(), BoundMethod.fromWord("sum of hop quantiles"));
        assertEquals(Optional.empty(), BoundMethod.fromWord("UNION"));
    }

    @Test
    void onlyTheUnionBoundIsSoundUnderAnyDependence() {
        assertTrue(BoundMethod.UNION.soundUnderAnyDependence());
        assertFalse(BoundMethod.INDEPENDENT.soundUnderAnyDependence());
    }
}
