package org.latencyserver.agent.client;

import java.util.function.Supplier;
import org.latencyserver.idl.latency.LatencyService;

/**
 * The agent's current reference to the Latency Server, resolved on demand and dropped after a
 * failure, so that a restarted server (new IOR in the same file, or re-registered name) is found
 * again. Thread-safe: the reference is a volatile field; resolving twice at once is harmless.
 */
final class ServerConnection {

    private final Supplier<LatencyService> resolver;
    private volatile LatencyService current;

    /** @param resolver resolves and narrows the server's reference; throws when it cannot */
    ServerConnection(final Supplier<LatencyService> resolver) {
        this.resolver = resolver;
    }

    /** @return the server, resolving it if needed */
    LatencyService get() {
        LatencyService service = current;
        if (service == null) {
            service = resolver.get();
            current = service;
        }
        return service;
    }

    /** Forgets the reference after a failed call. */
    void invalidate() {
        current = null;
    }
}
