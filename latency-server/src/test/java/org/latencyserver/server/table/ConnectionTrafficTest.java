package org.latencyserver.server.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Optional;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficShape;
import org.junit.jupiter.api.Test;

class ConnectionTrafficTest {

    private static final TrafficShape ARRAYS = new TrafficShape(2_000, 50, 1_000, CallKind.ARRAYS);

    @Test
    void declaredArraysAtASizeTheThesisArraysDoNotCarryAreClassedAndMeasuredAsTheOctetsTheAgentSends() {
        final ConnectionSpec odd = spec(100, Optional.of(ARRAYS));
        assertEquals(ShapeClass.of(new TrafficShape(2_000, 50, 1_000, CallKind.OCTETS)), ConnectionTraffic.declaredClass(odd));
        assertEquals(CallKind.OCTETS, ConnectionTraffic.forMeasurement(odd, 1000, 0).call());
        assertEquals(CallKind.OCTETS, ConnectionTraffic.forMeasurement(spec(100, Optional.empty()), 1000, 0).call(),
            "the classic run at an odd size is octets too");

        final ConnectionSpec thesis = spec(256, Optional.of(ARRAYS));
        assertEquals(ShapeClass.of(ARRAYS), ConnectionTraffic.declaredClass(thesis));
        assertEquals(ARRAYS, ConnectionTraffic.forMeasurement(thesis, 1000, 0));
        assertNull(ConnectionTraffic.declaredClass(spec(256, Optional.empty())));
    }

    private static ConnectionSpec spec(final int messageSizeBytes, final Optional<TrafficShape> traffic) {
        return new ConnectionSpec((short) 3, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            List.of("port-a"), messageSizeBytes, 3, 0, null, CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION, traffic);
    }
}
