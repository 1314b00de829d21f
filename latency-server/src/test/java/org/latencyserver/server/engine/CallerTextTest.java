package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CallerTextTest {

    @Test
    void aShortStringIsShownWhole() {
        assertEquals("ws1", CallerText.capped("ws1"));
        assertEquals("x".repeat(200), CallerText.capped("x".repeat(200)));
        assertEquals("null", CallerText.capped(null));
    }

    @Test
    void aLongStringIsCutAtTwoHundredCharactersWithItsLengthSaid() {
        final String shown = CallerText.capped("y".repeat(1_048_576));
        assertEquals("y".repeat(200) + "… (1048576 chars)", shown);
    }

    @Test
    void aSurrogatePairIsNotSplitAtTheCut() {
        final String shown = CallerText.capped("a".repeat(199) + "😀".repeat(10));
        assertTrue(shown.startsWith("a".repeat(199) + "… ("), shown);
    }
}
