package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.PortState;

/** A port that carries its rate and drops reads saturated; its utilisation alone cannot tell. */
class PortSaturationTest {

    private static final long SECOND = 1_000_000_000L;
    /** Octets a 20 Mbit/s port carries in a second. */
    private static final long FULL_SECOND_OCTETS = 20_000_000L / 8;

    @Test
    void aPortAtItsRateWhoseDropCounterMovedIsSaturated() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        assertEquals(PortState.SATURATED_CODE, port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND, 472, 32));
    }

    @Test
    void aPortAtItsRateThatDropsNothingIsAtOneHundredPercent() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        assertEquals(100, port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND, 5, 32));
    }

    @Test
    void dropsBelowTheRateAreErrorsNotSaturation() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        assertEquals(80, port.update(0, 3 * FULL_SECOND_OCTETS * 8 / 10, 64, 20, 3 * SECOND, 90, 32));
    }

    @Test
    void withoutADropCounterAPortAtItsRateReadsOneHundredPercent() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0);
        assertEquals(100, port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND));
    }

    @Test
    void aDropCounterThatWrapsIsStillADelta() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 0xFFFF_FFF0L, 32);
        assertEquals(PortState.SATURATED_CODE, port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND, 0x10L, 32));
    }

    @Test
    void aSaturatedPortAtItsRateStaysSaturatedThroughOneWindowWithoutDropsThenReturnsToItsRate() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND, 472, 32);
        assertEquals(PortState.SATURATED_CODE, port.update(0, 6 * FULL_SECOND_OCTETS, 64, 20, 6 * SECOND, 472, 32),
            "bursty drops: one window without them is no reason to leave");
        assertEquals(100, port.update(0, 9 * FULL_SECOND_OCTETS, 64, 20, 9 * SECOND, 472, 32));
    }

    @Test
    void aSaturatedPortThatCarriesLessLeavesAtOnce() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        port.update(0, 3 * FULL_SECOND_OCTETS, 64, 20, 3 * SECOND, 472, 32);
        assertEquals(50, port.update(0, 3 * FULL_SECOND_OCTETS + 3 * FULL_SECOND_OCTETS / 2, 64, 20, 6 * SECOND, 472, 32));
    }

    @Test
    void aPortReadAFewPointsBelowItsRateBetweenCounterRefreshesIsStillSaturatedWhenItDrops() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 20, 0, 5, 32);
        assertEquals(PortState.SATURATED_CODE, port.update(0, 3 * FULL_SECOND_OCTETS * 96 / 100, 64, 20, 3 * SECOND, 400, 32));
    }
}
