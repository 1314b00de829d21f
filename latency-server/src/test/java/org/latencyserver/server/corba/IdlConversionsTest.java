package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.ConnectionInfoHelper;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateHelper;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.MeasurementRequestHelper;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ProbeReportHelper;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTraffic;
import org.omg.CORBA.ORB;
import org.omg.CORBA.portable.InputStream;
import org.omg.CORBA.portable.OutputStream;

/**
 * Domain values to IDL structs and back: a measurement request's deadline as a duration by the server's own clock, and
 * the traffic fields, marshalled through a real ORB's CDR streams and read back.
 */
class IdlConversionsTest {

    private static final TrafficShape DECLARED = new TrafficShape(2_000, 50, 1_000, CallKind.OCTETS);

    private static ORB orb;

    @BeforeAll
    static void startOrb() {
        orb = ORB.init(new String[0], null);
    }

    @AfterAll
    static void stopOrb() {
        orb.destroy();
    }

    @Test
    void theRemainingTimeIsTheDeadlineLessTheServersNowAndNeverNegative() {
        assertEquals(30_000, IdlConversions.remainingMillis(1_000_030_000L, 1_000_000_000L));
        assertEquals(0, IdlConversions.remainingMillis(1_000_000_000L, 1_000_000_000L));
        assertEquals(0, IdlConversions.remainingMillis(1_000_000_000L, 1_000_000_500L));
    }

    @Test
    void aRequestWithoutItsTicketKeepsItsRemainingTimeAndItsTraffic() {
        final MeasurementRequest request = new MeasurementRequest((short) 3, 42, "ws1", "ws2", "peers/ws2", 64, 1000, 100,
            1_000L, 31_000L, 25_000L, "load state changed", 9_000_000L, 10_000L, 100, IdlConversions.shape(DECLARED));
        final MeasurementRequest shown = IdlConversions.withoutTicket(request);
        assertEquals(0, shown.ticket);
        assertEquals(25_000L, shown.remaining_millis);
        assertEquals(31_000L, shown.deadline_epoch_millis);
        assertEquals("load state changed", shown.reason);
        assertEquals(9_000_000L, shown.min_interval_nanos);
        assertEquals(10_000L, shown.time_budget_millis);
        assertEquals(100, shown.min_round_trips);
        assertEquals(DECLARED, IdlConversions.shape(shown.traffic, "traffic").value());
    }

    @Test
    void aDeclaredShapeIsListedWithTheConnectionAndCrossesTheWireIntact() {
        final ConnectionInfo info = IdlConversions.connectionInfo(ConnectionRow.initial(spec(Optional.of(DECLARED)), 5));
        final OutputStream out = orb.create_output_stream();
        ConnectionInfoHelper.write(out, info);
        final ConnectionInfo read = ConnectionInfoHelper.read((InputStream) out.create_input_stream());
        assertTrue(read.traffic_declared);
        assertEquals(2_000, read.traffic.spacing_micros);
        assertEquals(50, read.traffic.burst_round_trips);
        assertEquals(1_000, read.traffic.pause_millis);
        assertEquals(CallKind.OCTETS.wireCode(), read.traffic.call);
        assertEquals(DECLARED, IdlConversions.shape(read.traffic, "traffic").value());
        assertEquals("union", read.path_bound, "the fields before the new ones still in place");
    }

    @Test
    void aConnectionWithoutAShapeListsNoneAndAnAllZeroShape() {
        final ConnectionInfo info = IdlConversions.connectionInfo(ConnectionRow.initial(spec(Optional.empty()), 5));
        assertFalse(info.traffic_declared);
        assertEquals(0, info.traffic.call, "call 0 is no call");
        assertTrue(IdlConversions.shape(info.traffic, "traffic").isRefused(), "an all-zero shape is not a shape");
    }

    @Test
    void theEstimateSaysWhatTrafficItIsFor() {
        final Estimate declared = marshalled(IdlConversions.estimate(ConnectionRow.initial(spec(Optional.of(DECLARED)), 5),
            average(), 7));
        assertEquals("bursts of 50 round trips 2 ms apart, 1000 ms pause, octets", declared.traffic);
        final Estimate undeclared = marshalled(IdlConversions.estimate(ConnectionRow.initial(spec(Optional.empty()), 5),
            average(), 7));
        assertEquals(TrafficFamily.DEFAULT.label(), undeclared.traffic);
        assertEquals(ConnectionTraffic.estimateText(ConnectionRow.initial(spec(Optional.empty()), 5)), undeclared.traffic);
    }

    @Test
    void aProbeReportsShapeCrossesTheWireAndAnInvalidOneIsRefusedNamingTheField() {
        final ProbeReport report = new ProbeReport((short) 3, "ws1", "agent", new HistogramBins(new long[] {1_000_000},
            new long[] {4}, 0), 4, 0.5, 2_000, IdlConversions.shape(DECLARED));
        final OutputStream out = orb.create_output_stream();
        ProbeReportHelper.write(out, report);
        final ProbeReport read = ProbeReportHelper.read((InputStream) out.create_input_stream());
        assertEquals(DECLARED, IdlConversions.shape(read.shape, "shape").value());

        assertRefused(new org.latencyserver.idl.latency.TrafficShape(49, 50, 0, (short) 1), "shape.spacing_micros");
        assertRefused(new org.latencyserver.idl.latency.TrafficShape(2_000, 0, 0, (short) 1), "shape.burst_round_trips");
        assertRefused(new org.latencyserver.idl.latency.TrafficShape(2_000, 10_001, 0, (short) 1), "shape.burst_round_trips");
        assertRefused(new org.latencyserver.idl.latency.TrafficShape(2_000, 5, -1, (short) 1), "shape.pause_millis");
        assertRefused(new org.latencyserver.idl.latency.TrafficShape(2_000, 5, 0, (short) 3), "shape.call");
        assertRefused(null, "shape");
    }

    @Test
    void aMeasurementReproducesTheDeclaredShapeOrTheClassicRun() {
        final MeasurementRequest request = new MeasurementRequest((short) 3, 42, "ws1", "ws2", "", 64, 1000, 100, 1L, 2L, 3L,
            "", 0, 0, 1, IdlConversions.shape(ConnectionTraffic.forMeasurement(spec(Optional.empty()), 1000, 2_500_001L)));
        final OutputStream out = orb.create_output_stream();
        MeasurementRequestHelper.write(out, request);
        final MeasurementRequest read = MeasurementRequestHelper.read((InputStream) out.create_input_stream());
        assertEquals(new TrafficShape(2_501, 1000, 0, CallKind.ARRAYS), IdlConversions.shape(read.traffic, "traffic").value(),
            "one burst of the run, spaced min_interval_nanos rounded up to µs, arrays");
        assertEquals(new TrafficShape(TrafficShape.MIN_SPACING_MICROS, 1000, 0, CallKind.ARRAYS),
            ConnectionTraffic.forMeasurement(spec(Optional.empty()), 1000, 0), "back to back (the shortest spacing) without pacing");
        assertEquals(DECLARED, ConnectionTraffic.forMeasurement(spec(Optional.of(DECLARED)), 1000, 2_500_001L));
    }

    @Test
    void aDeclaredPauseTooLongForTheMeasurementsTimeBudgetIsShortenedSoTheConnectionIsStillMeasured() {
        final TrafficShape slow = new TrafficShape(1_000, 1, 1_000, CallKind.OCTETS); // one round trip a second
        final TrafficShape measured = ConnectionTraffic.forMeasurement(spec(Optional.of(slow)), 1000, 0, 10_000, 100);
        // 100 bursts of one round trip must fit in 80 % of 10 s: 100 x 1 ms sending, 99 pauses of at most 79 ms
        assertEquals(new TrafficShape(1_000, 1, 79, CallKind.OCTETS), measured);
        final TrafficShape fits = new TrafficShape(1_000, 50, 100, CallKind.OCTETS);
        assertEquals(fits, ConnectionTraffic.forMeasurement(spec(Optional.of(fits)), 1000, 0, 10_000, 100),
            "two bursts and one pause fit: the declared shape as declared");
        assertEquals(slow, ConnectionTraffic.forMeasurement(spec(Optional.of(slow)), 1000, 0, 0, 100), "no time budget: as declared");
    }

    private static void assertRefused(final org.latencyserver.idl.latency.TrafficShape shape, final String field) {
        final Checked<TrafficShape> checked = IdlConversions.shape(shape, "shape");
        assertTrue(checked.isRefused(), field);
        final Refusal refusal = checked.refusal();
        assertEquals(field, refusal.field(), refusal.message());
        assertTrue(refusal.message().startsWith(field), refusal.message());
    }

    private static Estimate marshalled(final Estimate estimate) {
        final OutputStream out = orb.create_output_stream();
        EstimateHelper.write(out, estimate);
        return EstimateHelper.read((InputStream) out.create_input_stream());
    }

    private static org.latencyserver.core.estimate.Estimate average() {
        return new org.latencyserver.core.estimate.Estimate(3, EstimateKind.AVERAGE, 1.5, 0,
            new ConfidenceInterval(1.4, 1.6, 0.95, "t"), List.of(), "test", List.of(), false);
    }

    private static ConnectionSpec spec(final Optional<TrafficShape> traffic) {
        return new ConnectionSpec((short) 3, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            List.of("port-a"), 64, 3, 0, null, CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION, traffic);
    }
}
