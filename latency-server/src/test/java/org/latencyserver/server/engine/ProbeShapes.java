package org.latencyserver.server.engine;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** The traffic shape tests' probe windows are sent in, when the shape is not what they test. */
public final class ProbeShapes {

    /** Trains of 20 round trips 1 ms apart, the thesis's arrays: the probes' classic shape. */
    public static final TrafficShape CLASSIC = new TrafficShape(1_000, 20, 0, CallKind.ARRAYS);

    private ProbeShapes() {
    }

    /** @return {@link #CLASSIC} as the IDL carries it */
    public static org.latencyserver.idl.latency.TrafficShape idl() {
        return new org.latencyserver.idl.latency.TrafficShape(CLASSIC.spacingMicros(), CLASSIC.burstRoundTrips(),
            CLASSIC.pauseMillis(), (short) CLASSIC.call().wireCode());
    }
}
