package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;
import org.junit.jupiter.api.Test;

class BurstLengthTest {

    @Test
    void aQos3IntervalPredictsTheDeclaredBurstAndFiftyRoundTripsWhenNoneIsDeclared() {
        final ConnectionSpec undeclared = new ConnectionSpec((short) 3, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, List.of("port-a"), 64, 3, 0, null, CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION,
            Optional.empty());
        assertEquals(BurstMeanSpread.DEFAULT_BURST_ROUND_TRIPS, BurstLength.of(undeclared));
        assertEquals(50, BurstLength.of(undeclared));
        assertEquals(12, BurstLength.of(undeclared.withTraffic(new TrafficShape(2_000, 12, 500, CallKind.OCTETS))));
    }
}
