package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QosTest {

    @ParameterizedTest(name = "QoS {0} is {1}")
    @CsvSource({
        // level, constant, measured, bound, kind, needsProfile, needsBoundPercent, needsProfileHistograms, withBound
        "1, PROFILE_AVERAGE,  false, false, AVERAGE, true,  false, false, PROFILE_BOUND",
        "2, PROFILE_BOUND,    false, true,  BOUND,   true,  true,  true,  PROFILE_BOUND",
        "3, MEASURED_AVERAGE, true,  false, AVERAGE, false, false, false, MEASURED_BOUND",
        "4, MEASURED_BOUND,   true,  true,  BOUND,   false, true,  false, MEASURED_BOUND"})
    void eachLevelIsItsConstantWithWhereItsEstimateComesFromAndWhatItNeeds(
            final int level, final Qos expected, final boolean measured, final boolean bound, final EstimateKind kind,
            final boolean needsProfile, final boolean needsBoundPercent, final boolean needsProfileHistograms,
            final Qos withBound) {
        final Qos qos = Qos.ofLevel(level);
        assertSame(expected, qos);
        assertEquals(level, qos.level());
        assertEquals(measured, qos.measured());
        assertEquals(bound, qos.bound());
        assertEquals(kind, qos.kind());
        assertEquals(needsProfile, qos.needsProfile());
        assertEquals(needsBoundPercent, qos.needsBoundPercent());
        assertEquals(needsProfileHistograms, qos.needsProfileHistograms());
        assertSame(withBound, qos.withBound());
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
