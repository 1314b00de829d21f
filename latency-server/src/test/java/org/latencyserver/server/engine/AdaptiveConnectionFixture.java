package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.testkit.RoundTrips;

/**
 * The engine of the tests that measure and probe one adaptive connection: connection {@link #INDEX}, lab1 → lab2
 * (LOCAL-2CORE both), 1024 B, QoS 4 at 96 %, probed 4 times a second, its wall clock standing at
 * 1 700 000 000 000 ms. The engines one fixture makes share its ticket numbers (1, 2, …), as a restarted server's
 * engine goes on from the last one's; each test makes its own fixture.
 */
public final class AdaptiveConnectionFixture {

    /** The connection's index reference. */
    public static final short INDEX = 4;
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final AtomicLong tickets = new AtomicLong();

    /** @return a new engine holding the connection, never measured */
    public UpdateEngine engine() {
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        final ConnectionSpec spec = new ConnectionSpec(INDEX, "lab1", (short) 5, type, "lab2", (short) 6, type, null, 1024, 4, 96,
            null, CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND_NANOS, 0, 2, 20, 100_000, 0),
            tickets::incrementAndGet, () -> 1_700_000_000_000L);
    }

    /** @return {@code count} round trips spread evenly from {@code lowMicros} to {@code highMicros} */
    public static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    /**
     * Ticks the engine to {@code nowNanos} and submits, for the measurement it then asks of the connection, 1000
     * round trips spread from {@code lowMicros} to {@code highMicros}; asserts that it was accepted.
     */
    public static void measure(final UpdateEngine engine, final long lowMicros, final long highMicros, final long nowNanos) {
        final LatencyHistogram histogram = roundTrips(1000, lowMicros, highMicros);
        final double meanMillis = histogram.meanNanosFromBinMidpoints() / 1e6;
        engine.tick(nowNanos);
        final ConnectionRow row = engine.table().row(INDEX);
        assertTrue(engine.submitMeasurement(INDEX, row.pending().ticket(),
            new Measurement(histogram, 1000, meanMillis, meanMillis / 4, highMicros / 1000.0), "test", nowNanos).accepted());
    }
}
