package org.latencyserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;

/** The arithmetic from a served estimate to a deadline in nanoseconds, and to TimeT units. */
class DeadlineTest {

    @Test
    void aBoundEstimatesDeadlineIsTheServedBound() {
        final Deadline deadline = Deadline.ofEstimate(bound(2.5, 97.0, 99.0), DeadlineMargin.NONE);

        assertEquals(2_500_000L, deadline.deadlineNanos());
        assertEquals(2.5, deadline.servedMillis());
        assertEquals(Deadline.Kind.BOUND, deadline.kind());
        assertEquals(Duration.ofNanos(2_500_000L), deadline.toDuration());
    }

    @Test
    void anAverageEstimatesDeadlineIsTheUpperEndOfItsIntervalNotTheMean() {
        final Deadline deadline = Deadline.ofEstimate(average(1.0, 0.8, 1.4), DeadlineMargin.NONE);

        assertEquals(1_400_000L, deadline.deadlineNanos());
        assertEquals(Deadline.Kind.AVERAGE, deadline.kind());
    }

    @Test
    void anAverageWhoseIntervalEndsBelowItsMeanGetsTheMean() {
        assertEquals(2_000_000L, Deadline.ofEstimate(average(2.0, 1.0, 1.5), DeadlineMargin.NONE).deadlineNanos());
    }

    @Test
    void theMarginMultipliesFirstThenAddsItsNanos() {
        final DeadlineMargin margin = new DeadlineMargin(1.5, 250_000);

        assertEquals(3_250_000L, Deadline.ofEstimate(bound(2.0, 97, 99), margin).deadlineNanos());
        assertEquals(3_000_000L, Deadline.ofEstimate(bound(2.0, 97, 99), DeadlineMargin.ofFactor(1.5)).deadlineNanos());
        assertEquals(2_000_007L, Deadline.ofEstimate(bound(2.0, 97, 99), DeadlineMargin.ofExtraNanos(7)).deadlineNanos());
    }

    @Test
    void aFractionOfANanosecondIsRoundedUpNeverDown() {
        assertEquals(2L, Deadline.ofValues(Deadline.Kind.BOUND, 0.0000015, Double.NaN, DeadlineMargin.NONE).deadlineNanos());
        assertEquals(1L, Deadline.ofValues(Deadline.Kind.BOUND, 1e-12, Double.NaN, DeadlineMargin.NONE).deadlineNanos());
        assertEquals(3_000_001L, DeadlineMargin.ofFactor(1.0000001).applyToMillis(3.0));
    }

    @ParameterizedTest(name = "{0} ns = {1} TimeT units")
    @CsvSource({"1, 1", "99, 1", "100, 1", "101, 2", "199, 2", "200, 2", "200000000, 2000000", "200000001, 2000001"})
    void aDeadlineBecomesTimeTUnitsOf100NanosecondsRoundedUpAndAtLeastOne(final long nanos, final long units) {
        assertEquals(units, RoundtripTimeouts.timeTUnits(nanos));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void aDeadlineOfNoTimeIsRefusedAsTimeT(final long nanos) {
        assertThrows(IllegalArgumentException.class, () -> RoundtripTimeouts.timeTUnits(nanos));
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, -1.5})
    void aServedValueThatIsNotAFinitePositiveNumberIsRefused(final double millis) {
        final IllegalArgumentException bound = assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofEstimate(bound(millis, 97, 99), DeadlineMargin.NONE));
        assertTrue(bound.getMessage().contains("bound"), bound.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Deadline.ofEstimate(average(millis, 0.5, 2.0), DeadlineMargin.NONE));
        final IllegalArgumentException upper = assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofEstimate(average(1.0, 0.5, millis), DeadlineMargin.NONE));
        assertTrue(upper.getMessage().contains("upper end"), upper.getMessage());
    }

    @Test
    void aBoundIgnoresItsIntervalWhichIsInPercent() {
        assertEquals(4_000_000L, Deadline.ofValues(1, 4.0, Double.NaN, DeadlineMargin.NONE).deadlineNanos());
        assertEquals(4_000_000L, Deadline.ofValues(1, 4.0, 99.5, DeadlineMargin.NONE).deadlineNanos());
    }

    @Test
    void anAverageWhoseIntervalIsNotInMillisecondsIsRefused() {
        final Estimate estimate = average(1.0, 0.8, 1.2);
        estimate.interval.unit = "percent";

        assertThrows(IllegalArgumentException.class, () -> Deadline.ofEstimate(estimate, DeadlineMargin.NONE));
    }

    @Test
    void aDeadlineTooLongForALongOfNanosecondsIsRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofValues(Deadline.Kind.BOUND, 1e13, Double.NaN, DeadlineMargin.NONE));
        assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofValues(Deadline.Kind.BOUND, 1.0, Double.NaN, new DeadlineMargin(1.0, Long.MAX_VALUE - 10)));
    }

    @Test
    void aMarginBelowOneOrWithNegativeNanosIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DeadlineMargin.ofFactor(0.99));
        assertThrows(IllegalArgumentException.class, () -> DeadlineMargin.ofFactor(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> DeadlineMargin.ofFactor(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> DeadlineMargin.ofExtraNanos(-1));
    }

    @Test
    void aStaleOrPendingEstimateGivesADeadlineThatSaysSo() {
        final Estimate estimate = bound(3.0, 97, 99);
        estimate.stale = true;
        estimate.stale_reason = "SNMP of lab2 stopped answering";
        estimate.update_pending = true;

        final Deadline deadline = Deadline.ofEstimate(estimate, DeadlineMargin.NONE);

        assertEquals(3_000_000L, deadline.deadlineNanos());
        assertTrue(deadline.stale());
        assertTrue(deadline.updatePending());
        final Deadline fresh = Deadline.ofEstimate(bound(3.0, 97, 99), DeadlineMargin.NONE);
        assertFalse(fresh.stale());
        assertFalse(fresh.updatePending());
    }

    @Test
    void plainValuesTakeTheKindCodesOfTheIdlAndTheMirror() {
        assertEquals(Deadline.Kind.AVERAGE, Deadline.ofValues(EstimateKind._AVERAGE, 1.0, 1.25, DeadlineMargin.NONE).kind());
        assertEquals(1_250_000L, Deadline.ofValues(0, 1.0, 1.25, DeadlineMargin.NONE).deadlineNanos());
        assertEquals(Deadline.Kind.BOUND, Deadline.ofValues(EstimateKind._BOUND, 1.0, 1.25, DeadlineMargin.NONE).kind());
        assertEquals(1_000_000L, Deadline.ofValues(1, 1.0, 1.25, DeadlineMargin.NONE).deadlineNanos());
        assertThrows(IllegalArgumentException.class, () -> Deadline.ofValues(2, 1.0, 1.25, DeadlineMargin.NONE));
    }

    @Test
    void aMirrorRecordGivesItsBoundOrItsIntervalUpperEndWithItsFlags() {
        final MirrorRecord bound = new MirrorRecord().indexRef(4).qos(4).kind(MirrorLayout.KIND_BOUND).hasEstimate(true)
            .valueMillis(2.5).intervalUpper(98.0).stale(true);
        final MirrorRecord average = new MirrorRecord().indexRef(3).qos(3).kind(MirrorLayout.KIND_AVERAGE).hasEstimate(true)
            .valueMillis(1.0).intervalUpper(1.25).updatePending(true);

        final Deadline fromBound = Deadline.ofMirrorRecord(bound, DeadlineMargin.NONE);
        final Deadline fromAverage = Deadline.ofMirrorRecord(average, DeadlineMargin.ofFactor(2));

        assertEquals(2_500_000L, fromBound.deadlineNanos());
        assertTrue(fromBound.stale());
        assertEquals(2_500_000L, fromAverage.deadlineNanos());
        assertTrue(fromAverage.updatePending());
    }

    @Test
    void aMirrorRecordWithoutAnEstimateIsRefused() {
        final MirrorRecord empty = new MirrorRecord().indexRef(2).kind(MirrorLayout.KIND_BOUND).valueMillis(1.0);

        assertThrows(IllegalArgumentException.class, () -> Deadline.ofMirrorRecord(empty, DeadlineMargin.NONE));
    }

    @ParameterizedTest(name = "QoS {0}: {6}")
    @CsvSource({
        // quality, latency_estimate, upper_bound, lower_bound, update_required_flag, deadline ns, kind
        "1, 1.25, 1.5, 1.0, 0, 1500000, AVERAGE",
        "3, 1.25, 1.5, 1.0, 0, 1500000, AVERAGE",
        "2, 2.5, 98.0, 96.0, 1, 2500000, BOUND",
        "4, 2.5, 98.0, 96.0, 1, 2500000, BOUND"})
    void theThesisStatusGivesTheUpperEndOfTheMeansIntervalForQos1And3AndTheBoundNotItsPercentsForQos2And4(
            final short quality, final float estimate, final float upper, final float lower, final int updateRequired,
            final long deadlineNanos, final Deadline.Kind kind) {
        final Deadline deadline = Deadline.ofStatus(status(quality, estimate, upper, lower, updateRequired), DeadlineMargin.NONE);
        assertEquals(deadlineNanos, deadline.deadlineNanos());
        assertEquals(kind, deadline.kind());
        assertEquals(updateRequired == 1, deadline.updatePending(), "update_required_flag = " + updateRequired);
    }

    @Test
    void aThesisStatusTheServerDidNotAcknowledgeOrOfAnUnknownQualityIsRefused() {
        final IdlStatusToClient unacknowledged = status((short) 1, 0f, 0f, 0f, 0);
        unacknowledged.server_acknowledges_client = 0;
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofStatus(unacknowledged, DeadlineMargin.NONE));
        assertTrue(e.getMessage().contains("not served"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> Deadline.ofStatus(status((short) 5, 1f, 2f, 0.5f, 0), DeadlineMargin.NONE));
    }

    static Estimate bound(final double valueMillis, final double lowerPercent, final double upperPercent) {
        final Estimate estimate = estimate(EstimateKind.BOUND, valueMillis);
        estimate.quality = 4;
        estimate.bound_percent = 96.0;
        estimate.interval = new ConfidenceInterval(lowerPercent, upperPercent, 0.95, "percent", "Wilson score");
        return estimate;
    }

    static Estimate average(final double valueMillis, final double lowerMillis, final double upperMillis) {
        final Estimate estimate = estimate(EstimateKind.AVERAGE, valueMillis);
        estimate.quality = 3;
        estimate.interval = new ConfidenceInterval(lowerMillis, upperMillis, 0.95, "ms", "normal (thesis Eq. 1)");
        return estimate;
    }

    private static Estimate estimate(final EstimateKind kind, final double valueMillis) {
        final Estimate estimate = new Estimate();
        estimate.index_ref = 1;
        estimate.kind = kind;
        estimate.value_ms = valueMillis;
        estimate.thesis_value_ms = valueMillis;
        estimate.alternatives = new ConfidenceInterval[0];
        estimate.stale_reason = "";
        estimate.basis = "test";
        estimate.notes = new String[0];
        estimate.correction = "";
        estimate.source = "measurement";
        estimate.hops = new PathHop[0];
        estimate.path_bound_method = "";
        estimate.traffic = "";
        return estimate;
    }

    private static IdlStatusToClient status(final short quality, final float estimate, final float upper, final float lower,
                                            final int updateRequired) {
        return new IdlStatusToClient((short) 1, quality, (short) 1, estimate, upper, lower, (short) updateRequired);
    }
}
