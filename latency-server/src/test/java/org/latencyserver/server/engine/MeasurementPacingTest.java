package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasurementPacingTest {

    private static final MeasurementPacing FIVE_PERCENT = new MeasurementPacing(5.0, Map.of("bottleneck", 20L), 10_000, 100, 1);

    @Test
    void roundTripsOnAConfiguredLinkArePacedToItsShare() {
        // 1 KB plus 250 B of headers and acknowledgement each way per round trip = 10,192 bits; 5 % of 20 Mbit/s = 1 Mbit/s.
        assertEquals(10_192_000L, FIVE_PERCENT.minIntervalNanos(List.of("bottleneck"), 1024));
        final double bitsPerSecond = (1024 + MeasurementPacing.WIRE_OVERHEAD_BYTES) * 8.0
            / (FIVE_PERCENT.minIntervalNanos(List.of("bottleneck"), 1024) / 1e9);
        assertEquals(0.05 * 20e6, bitsPerSecond, 1.0, "at most the share, one message per direction per round trip");
    }

    @Test
    void theShareIsSplitAmongTheMeasurementsThatMayBeOpenAtOnce() {
        final MeasurementPacing two = new MeasurementPacing(5.0, Map.of("bottleneck", 20L), 10_000, 100, 2);
        assertEquals(2 * FIVE_PERCENT.minIntervalNanos(List.of("bottleneck"), 1024), two.minIntervalNanos(List.of("bottleneck"), 1024));
    }

    @Test
    void aLinkWithoutAConfiguredSpeedOrNoLinkIsNotPaced() {
        assertEquals(0, FIVE_PERCENT.minIntervalNanos(List.of("other"), 1024));
        assertEquals(0, FIVE_PERCENT.minIntervalNanos(List.of(), 1024));
        assertEquals(0, MeasurementPacing.NONE.minIntervalNanos(List.of("bottleneck"), 1024));
    }

    @Test
    void aShareOutsideItsRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new MeasurementPacing(0, Map.of(), 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MeasurementPacing(101, Map.of(), 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MeasurementPacing(5, Map.of(), 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new MeasurementPacing(5, Map.of(), 0, 1, 0));
    }
}
