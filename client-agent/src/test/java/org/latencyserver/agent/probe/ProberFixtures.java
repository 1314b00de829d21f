package org.latencyserver.agent.probe;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.PathHop;

/** Connection rows as the server lists them, for the prober's tests. */
final class ProberFixtures {

    /** The shape {@link #connection} declares: trains of 5 round trips 1 ms apart, the thesis's arrays (octets at other sizes). */
    static final TrafficShape SHAPE = new TrafficShape(1_000, 5, 0, CallKind.ARRAYS);

    private ProberFixtures() {
    }

    /** @return a QoS 3 connection with the given path and probe rate, declaring {@link #SHAPE}; the other fields as a server fills them */
    static ConnectionInfo connection(final int indexRef, final String client, final String peer, final int messageSizeBytes,
                                     final double probeRatePerSecond) {
        return shaped(indexRef, client, peer, messageSizeBytes, probeRatePerSecond, SHAPE);
    }

    /** @return as {@link #connection}, declaring the given shape */
    static ConnectionInfo shaped(final int indexRef, final String client, final String peer, final int messageSizeBytes,
                                 final double probeRatePerSecond, final TrafficShape shape) {
        return listed(indexRef, client, peer, messageSizeBytes, probeRatePerSecond, true,
            new org.latencyserver.idl.latency.TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis(),
                (short) shape.call().wireCode()));
    }

    /** @return as {@link #connection}, declaring no shape (the all-zero shape a server lists then) */
    static ConnectionInfo undeclared(final int indexRef, final String client, final String peer, final int messageSizeBytes,
                                     final double probeRatePerSecond) {
        return listed(indexRef, client, peer, messageSizeBytes, probeRatePerSecond, false,
            new org.latencyserver.idl.latency.TrafficShape(0, 0, 0, (short) 0));
    }

    /** @return a row with the given traffic fields exactly as given (possibly nonsense) */
    static ConnectionInfo listed(final int indexRef, final String client, final String peer, final int messageSizeBytes,
                                 final double probeRatePerSecond, final boolean declared,
                                 final org.latencyserver.idl.latency.TrafficShape traffic) {
        return new ConnectionInfo((short) indexRef, client, peer, (short) 1, (short) 1, messageSizeBytes, (short) 3, 0, "",
            (short) 0, (short) 0, false, "", "LOCAL-2CORE", "LOCAL-2CORE", probeRatePerSecond, "adaptive",
            new PathHop[0], "union", declared, traffic);
    }
}
