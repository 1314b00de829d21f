package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkstationTypeTest {

    @Test
    void theThesisWorkstationsKeepTheirIdlCodes() {
        assertEquals(3, WorkstationType.TAC_3.code());
        assertEquals("TAC-3", WorkstationType.TAC_3.name());
        assertEquals(4, WorkstationType.TAC_4.code());
        assertEquals("TAC-4", WorkstationType.TAC_4.name());
    }

    @Test
    void blankNamesAndCodesOutsideAnIdlShortAreRefusedWithTheValue() {
        assertThrows(IllegalArgumentException.class, () -> new WorkstationType(" ", 5));
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new WorkstationType("x", 0));
        assertTrue(zero.getMessage().contains("0"), zero.getMessage());
        final IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> new WorkstationType("x", 32_768));
        assertTrue(big.getMessage().contains("32768"), big.getMessage());
        assertEquals(32_767, new WorkstationType("x", 32_767).code());
    }
}
