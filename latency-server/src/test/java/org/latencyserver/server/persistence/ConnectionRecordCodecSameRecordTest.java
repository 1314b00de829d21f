package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.persistence.TestRows.HIGH_LOW;
import static org.latencyserver.server.persistence.TestRows.LOW_LOW;
import static org.latencyserver.server.persistence.TestRows.UNKNOWN_LOW;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PendingMeasurement;
import org.latencyserver.server.table.ServedEstimate;
import org.latencyserver.server.table.StaleInputs;

/**
 * {@link ConnectionRecordCodec#sameRecordButReadings} says "only the readings would be written differently"
 * exactly when the records {@link ConnectionRecordCodec#encode} writes differ in {@code latest} and
 * {@code previous} alone: checked change by change, for every part of a row, against the encoder.
 */
class ConnectionRecordCodecSameRecordTest {

    private static Estimate estimate(final double valueMillis) {
        return TestRows.average(3, valueMillis, "a measurement of 0-33/0-33");
    }

    /** A QoS 3 row serving a measured estimate in LOW/LOW, with what it learned there. */
    private static ConnectionRow served() {
        final ConnectionRow mib = ConnectionRow.initial(TestRows.spec(3, null, CalibrationMode.ADAPTIVE), 0).withMib(new MibReading((short) 20, (short) 20, (short) 10), LOW_LOW, 1);
        return mib.withMeasurement(TestMeasurements.oneRoundTripPerBin(4),
                mib.learning().with(LOW_LOW, StateKnowledge.fresh(96).withMeasurement(TestMeasurements.oneRoundTripPerBin(4), 5)))
            .withServed(estimate(0.75), null, new ServedEstimate(estimate(0.75), null, EstimateSource.MEASUREMENT, 5, "none"));
    }

    /** Every kind of change a row can undergo, by name. */
    private static Map<String, UnaryOperator<ConnectionRow>> changes() {
        final Map<String, UnaryOperator<ConnectionRow>> changes = new LinkedHashMap<>();
        changes.put("a reading in the same state", r -> r.withMib(new MibReading((short) 21, (short) 20, (short) 10), r.load(), 2));
        changes.put("the client going UNKNOWN (estimate kept, marked stale)",
            r -> r.withMib(new MibReading((short) -1, (short) 20, (short) 10), UNKNOWN_LOW, 2)
                .withStaleInputs(StaleInputs.of(StaleInputs.Input.CLIENT_CPU)));
        changes.put("a new load state, same estimate", r -> r.withMib(new MibReading((short) 90, (short) 20, (short) 10), HIGH_LOW, 2)
            .withLearning(r.learning().enteredStateAt(77)));
        changes.put("a new version only", r -> r.withNextVersion(9));
        changes.put("the estimate", r -> r.withEstimate(estimate(0.80), null));
        changes.put("the reason there is none", r -> r.withEstimate(null, "profile 'x' is not loaded"));
        changes.put("a measurement wanted", r -> r.withMeasurementRequest(
            new PendingMeasurement(7, 100, 0, 10, 0, 10, 1, "load state changed"), ConnectionRow.NOT_DUE, 0));
        changes.put("the measurement", r -> r.withMeasurement(TestMeasurements.oneRoundTripPerBin(5), r.learning()));
        changes.put("the served estimate's source", r -> r.withServed(r.estimate(), null,
            new ServedEstimate(r.served().thesis(), null, EstimateSource.REMEMBERED, 5, "none")));
        changes.put("the served estimate's age", r -> r.withServed(r.estimate(), null,
            new ServedEstimate(r.served().thesis(), null, EstimateSource.MEASUREMENT, 6, "none")));
        changes.put("the correction", r -> r.withServed(r.estimate(), null,
            new ServedEstimate(r.served().thesis(), null, EstimateSource.MEASUREMENT, 5, "mean x 1.1")));
        changes.put("the thesis's estimate behind it", r -> r.withServed(r.estimate(), null,
            new ServedEstimate(estimate(0.70), null, EstimateSource.MEASUREMENT, 5, "none")));
        changes.put("the composed path bound", r -> r.withServed(r.estimate(), null,
            new ServedEstimate(r.served().thesis(), null, EstimateSource.MEASUREMENT, 5, "none",
                new org.latencyserver.server.table.ComposedBound(org.latencyserver.core.path.BoundMethod.UNION, 4.2, 3.1))));
        changes.put("what was learned", r -> r.withLearning(r.learning().with(HIGH_LOW, StateKnowledge.fresh(96))));
        return changes;
    }

    private static ObjectNode withoutReadings(final ConnectionRow row) {
        final ObjectNode record = ConnectionRecordCodec.encode(row, null);
        record.remove(List.of("latest", "previous"));
        return record;
    }

    @Test
    void sameRecordButReadingsAgreesWithTheEncoderForEveryKindOfChange() {
        final ConnectionRow before = served();
        int readingsAlone = 0;
        for (final Map.Entry<String, UnaryOperator<ConnectionRow>> change : changes().entrySet()) {
            final ConnectionRow after = change.getValue().apply(before);
            final boolean encodedAlike = withoutReadings(before).equals(withoutReadings(after));
            assertEquals(encodedAlike, ConnectionRecordCodec.sameRecordButReadings(before, after), change.getKey());
            readingsAlone += encodedAlike ? 1 : 0;
        }
        assertEquals(4, readingsAlone, "a reading, an UNKNOWN end, a new state with the same estimate and a version change");
    }

    @Test
    void anEndGoingUnknownAndBackIsNotARecordChangeButANewEstimateIs() {
        final ConnectionRow before = served();
        final ConnectionRow unknown = changes().get("the client going UNKNOWN (estimate kept, marked stale)").apply(before);
        assertTrue(ConnectionRecordCodec.sameRecordButReadings(before, unknown));
        assertTrue(ConnectionRecordCodec.sameRecordButReadings(unknown, unknown.withMib(before.latest(), LOW_LOW, 3).withStaleInputs(StaleInputs.NONE)));
        assertFalse(ConnectionRecordCodec.sameRecordButReadings(before, before.withEstimate(estimate(0.9), null)));
    }
}
