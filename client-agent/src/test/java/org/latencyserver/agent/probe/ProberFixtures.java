package org.latencyserver.agent.probe;

import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.PathHop;

/** Connection rows as the server lists them, for the prober's tests. */
final class ProberFixtures {

    private ProberFixtures() {
    }

    /** @return a QoS 3 connection with the given path and probe rate; the other fields as a server fills them */
    static ConnectionInfo connection(final int indexRef, final String client, final String peer, final int messageSizeBytes,
                                     final double probeRatePerSecond) {
        return new ConnectionInfo((short) indexRef, client, peer, (short) 1, (short) 1, messageSizeBytes, (short) 3, 0, "",
            (short) 0, (short) 0, false, "", "LOCAL-2CORE", "LOCAL-2CORE", probeRatePerSecond, "adaptive",
            new PathHop[0], "union");
    }
}
