package org.latencyserver.core.path;

import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * One hop of a path: the switch port it crosses, by name, and the latency histogram measured or
 * profiled for it in its current load state. The name is only for messages (which hop lacked
 * samples); it need not be unique.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name      the hop's name as the configuration writes it, e.g. {@code "sw1-p3"}; not blank
 * @param histogram the hop's latencies, ns
 */
public record PathHop(String name, LatencyHistogram histogram) {

    /**
     * @throws IllegalArgumentException when the name is null or blank, or the histogram is null
     */
    public PathHop {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a hop needs a name (the port it crosses), was "
                + (name == null ? "null" : "'" + name + "'"));
        }
        if (histogram == null) {
            throw new IllegalArgumentException("hop " + name + " has no histogram (null)");
        }
    }
}
