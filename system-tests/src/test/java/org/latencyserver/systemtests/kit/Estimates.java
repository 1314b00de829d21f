package org.latencyserver.systemtests.kit;

import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.LatencyService;

/** Waiting for a connection's estimate, as a client that calls {@code current_estimate} until one is served. */
public final class Estimates {

    private Estimates() {
    }

    /**
     * @param service   the server
     * @param indexRef  the connection
     * @return its estimate, once served (polled every 200 ms)
     * @throws AssertionError when none is served within 30 s, with the server's last reason
     */
    public static Estimate await(final LatencyService service, final int indexRef) throws Exception {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return service.current_estimate((short) indexRef);
            } catch (EstimateUnavailable e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no estimate for connection " + indexRef + ": " + e.reason, e);
                }
                Thread.sleep(200);
            }
        }
    }
}
