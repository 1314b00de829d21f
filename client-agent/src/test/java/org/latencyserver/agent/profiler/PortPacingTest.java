package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PortPacingTest {

    @Test
    void aKilobyteRoundTripOnA20MbitPortStartsEvery10MsForAFivePercentShare() {
        // 1024 + 128 GIOP + one segment's 70 + one acknowledgement's 70 = 1292 bytes = 10,336 bits; 5 % of 20 Mbit/s = 1 Mbit/s
        assertEquals(1292, PortPacing.wireBytesPerRoundTrip(1024));
        assertEquals(10_336, PortPacing.intervalMicros(1024, 20, 5, 2_000));
        assertEquals(5.0, PortPacing.sharePercent(1024, 20, 10_336), 1e-9);
    }

    @Test
    void largeMessagesPayPerSegmentAndTheShareHoldsForEverySize() {
        // 8192 + 128 = 8320 bytes in 6 segments of at most 1448
        assertEquals(8320 + 6 * 70 + 70, PortPacing.wireBytesPerRoundTrip(8192));
        for (final int size : new int[] {64, 128, 256, 512, 1024, 2048, 4096, 8192}) {
            final long interval = PortPacing.intervalMicros(size, 20, 5, 0);
            assertTrue(PortPacing.sharePercent(size, 20, interval) <= 5.0, size + " B every " + interval + " us");
            assertTrue(PortPacing.sharePercent(size, 20, interval - 1) > 5.0, "the interval is the shortest that keeps the share");
        }
    }

    @Test
    void theProfilersOwnIntervalIsAFloor() {
        // a 1 Gbit/s port would allow 64 B every 18 us; the profiler never starts them closer than its --interval-micros
        assertEquals(2_000, PortPacing.intervalMicros(64, 1_000, 5, 2_000));
    }

    @Test
    void aSpeedOrShareOfZeroIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PortPacing.intervalMicros(1024, 0, 5, 0));
        assertThrows(IllegalArgumentException.class, () -> PortPacing.intervalMicros(1024, 20, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> PortPacing.intervalMicros(1024, 20, 101, 0));
    }
}
