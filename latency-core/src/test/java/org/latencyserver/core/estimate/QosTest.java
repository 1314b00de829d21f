package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
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

    @Test
    void eachLevelServesItsOwnEstimatorFromAProfile() throws EstimateRefusedException {
        final Profile profile = ThesisAppendixA.tac4Corba();
        final ConnectionLoadState load = new ConnectionLoadState(new CpuStatePair(CpuState.LOW, CpuState.LOW), PortState.NORMAL);
        final Estimate mean = ProfileAverageEstimator.estimate(profile, load, 256);

        assertEquals(mean.valueMillis(), Qos.PROFILE_AVERAGE.fromProfile(profile, load, 256, 96.0).valueMillis());
        assertEquals(mean.valueMillis(), Qos.MEASURED_AVERAGE.fromProfile(profile, load, 256, 96.0).valueMillis());
        // The thesis profile has no histograms: a bound is refused rather than served as a mean.
        assertThrows(EstimateRefusedException.class, () -> Qos.PROFILE_BOUND.fromProfile(profile, load, 256, 96.0));
        assertThrows(EstimateRefusedException.class, () -> Qos.MEASURED_BOUND.fromProfile(profile, load, 256, 96.0));
    }

    @Test
    void eachLevelServesItsOwnEstimatorFromAMeasurement() throws EstimateRefusedException {
        final Measurement measurement = new Measurement(LatencyHistogram.uniform(1_000_000L, new long[] {600, 400}, 0),
            1000, 1.46, 1.6, 1.99);

        assertEquals(MeasuredAverageEstimator.estimate(measurement, "t").valueMillis(),
            Qos.MEASURED_AVERAGE.fromMeasurement(measurement, 96.0, "t").valueMillis());
        assertEquals(MeasuredBoundEstimator.estimate(measurement, 96.0, "t").valueMillis(),
            Qos.MEASURED_BOUND.fromMeasurement(measurement, 96.0, "t").valueMillis());
        assertEquals(EstimateKind.BOUND, Qos.MEASURED_BOUND.fromMeasurement(measurement, 96.0, "t").kind());
        assertEquals(EstimateKind.AVERAGE, Qos.MEASURED_AVERAGE.fromMeasurement(measurement, 96.0, "t").kind());
    }
}
