package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Polling at 10 Hz must not turn timing jitter and tick granularity into state changes: rates
 * are computed over at least a second of octets and at least 100 CPU ticks.
 */
class SamplingWindowTest {

    private static final long MS = 1_000_000L;

    @Test
    void aSteadyPortReadsSteadyDespitePollJitter() {
        final PortUtilisation port = new PortUtilisation(10_000 * MS);
        final Random random = new Random(92);
        final long speedMbps = 155;
        final double octetsPerNano = 0.92 * speedMbps * 1e6 / 8 / 1e9;
        long agentNanos = 0;
        int lowest = 100;
        int highest = 0;
        for (int poll = 0; poll < 600; poll++) {
            agentNanos += 100 * MS;
            // The agent counts at agentNanos; our clock stamps the answer up to 8 ms off.
            final long octets = (long) (agentNanos * octetsPerNano);
            final long ourNanos = agentNanos + random.nextInt(8) * MS;
            final int percent = port.update(octets, octets / 2, 64, speedMbps, ourNanos);
            if (poll > 20) {
                lowest = Math.min(lowest, percent);
                highest = Math.max(highest, percent);
            }
        }
        assertTrue(lowest >= 91 && highest <= 93, "92 % read between " + lowest + " and " + highest);
    }

    @Test
    void cpuPercentWaitsForEnoughTicksInsteadOfFiveStepsPerPoll() {
        final CpuUtilisation cpu = new CpuUtilisation();
        long busy = 0;
        long idle = 0;
        int last = -1;
        for (int poll = 0; poll < 200; poll++) {
            // 20 ticks per 100 ms poll (2 cores x 100 Hz), 33 % busy: 6 or 7 busy ticks a poll.
            final long busyNow = Math.round((poll + 1) * 20 * 0.33);
            busy = busyNow;
            idle = (poll + 1) * 20L - busyNow;
            last = cpu.update(new CpuTicks(busy, 0, 0, idle, 0, 0, 0));
            if (poll > 10) {
                assertEquals(33, last, 1, "poll " + poll);
            }
        }
        assertEquals(33, last, 1);
    }
}
