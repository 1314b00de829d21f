package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.TrafficShape;

/** The traffic a measurement reproduces, read from its request; a nonsense shape falls back to the classic run, saying why. */
class RequestTrafficTest {

    @Test
    void aRequestsShapeGivesTheRunsSpacingBurstsPauseAndCall() {
        final RequestTraffic traffic = RequestTraffic.of(request(new TrafficShape(2_000, 50, 1_000, (short) 1)));
        assertEquals(new RequestTraffic(2_000_000L, 50, 1_000_000_000L, CallKind.OCTETS, ""), traffic);
    }

    @Test
    void aShapeOutsideItsRangesOrWithoutACallIsMeasuredAsTheClassicRunWithTheReason() {
        final RequestTraffic zeroBurst = RequestTraffic.of(request(new TrafficShape(2_000, 0, 0, (short) 2)));
        assertEquals(Integer.MAX_VALUE, zeroBurst.burstRoundTrips());
        assertEquals(CallKind.ARRAYS, zeroBurst.call());
        assertTrue(zeroBurst.problem().contains("burst must be 1..10000"), zeroBurst.problem());
        final RequestTraffic noCall = RequestTraffic.of(request(new TrafficShape(2_000, 5, 0, (short) 9)));
        assertTrue(noCall.problem().contains("traffic.call 9"), noCall.problem());
        assertTrue(RequestTraffic.of(request(null)).problem().contains("no traffic shape"));
    }

    private static MeasurementRequest request(final TrafficShape traffic) {
        return new MeasurementRequest((short) 3, 1, "ws1", "ws2", "", 64, 1000, 100, 0L, 0L, 1_000L, "", 0L, 0L, 1000, traffic);
    }
}
