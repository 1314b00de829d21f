package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QosTest {

    @Test
    void profileAverageIsQos1() {
        final Qos qos = Qos.ofLevel(1);
        assertSame(Qos.PROFILE_AVERAGE, qos);
        assertEquals(1, qos.level());
        assertFalse(qos.measured());
        assertFalse(qos.bound());
        assertEquals(EstimateKind.AVERAGE, qos.kind());
        assertTrue(qos.needsProfile());
        assertFalse(qos.needsBoundPercent());
        assertFalse(qos.needsProfileHistograms());
        assertSame(Qos.PROFILE_BOUND, qos.withBound());
    }

    @Test
    void profileBoundIsQos2() {
        final Qos qos = Qos.ofLevel(2);
        assertSame(Qos.PROFILE_BOUND, qos);
        assertEquals(2, qos.level());
        assertFalse(qos.measured());
        assertTrue(qos.bound());
        assertEquals(EstimateKind.BOUND, qos.kind());
        assertTrue(qos.needsProfile());
        assertTrue(qos.needsBoundPercent());
        assertTrue(qos.needsProfileHistograms());
        assertSame(Qos.PROFILE_BOUND, qos.withBound());
    }

    @Test
    void measuredAverageIsQos3() {
        final Qos qos = Qos.ofLevel(3);
        assertSame(Qos.MEASURED_AVERAGE, qos);
        assertEquals(3, qos.level());
        assertTrue(qos.measured());
        assertFalse(qos.bound());
        assertEquals(EstimateKind.AVERAGE, qos.kind());
        assertFalse(qos.needsProfile());
        assertFalse(qos.needsBoundPercent());
        assertFalse(qos.needsProfileHistograms());
        assertSame(Qos.MEASURED_BOUND, qos.withBound());
    }

    @Test
    void measuredBoundIsQos4() {
        final Qos qos = Qos.ofLevel(4);
        assertSame(Qos.MEASURED_BOUND, qos);
        assertEquals(4, qos.level());
        assertTrue(qos.measured());
        assertTrue(qos.bound());
        assertEquals(EstimateKind.BOUND, qos.kind());
        assertFalse(qos.needsProfile());
        assertTrue(qos.needsBoundPercent());
        assertFalse(qos.needsProfileHistograms());
        assertSame(Qos.MEASURED_BOUND, qos.withBound());
    }

    @Test
    void everyLevelRoundTrips() {
        for (final Qos qos : Qos.values()) {
            assertSame(qos, Qos.ofLevel(qos.level()));
        }
        assertEquals(4, Qos.values().length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, -1, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void refusesALevelOutside1To4(final int level) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Qos.ofLevel(level));
        assertEquals("QoS must be 1..4, was " + level, e.getMessage());
    }
}
