package org.latencyserver.server.table;

import org.latencyserver.core.path.BoundMethod;

/**
 * A QoS 2 bound of a path with two or more loaded switch ports, composed from its parts by both methods: which one is
 * served, and each one's value, so that a client can see how wide each is.
 *
 * <p>Immutable and thread-safe.
 *
 * @param served            the method of the thesis value served (the union bound when the independent one was asked
 *                          for but could not be had)
 * @param unionMillis       the union bound, ms, {@code > 0}: holds whatever the dependence between hops
 * @param independentMillis the bound assuming independent hops, ms; 0 when it could not be had
 */
public record ComposedBound(BoundMethod served, double unionMillis, double independentMillis) {

    /** @throws IllegalArgumentException when the method is missing or a value is out of range */
    public ComposedBound {
        if (served == null || !(unionMillis > 0) || !(independentMillis >= 0) || !Double.isFinite(unionMillis)
            || !Double.isFinite(independentMillis)) {
            throw new IllegalArgumentException("a composed bound needs its method and values, was " + served + ", " + unionMillis
                + ", " + independentMillis);
        }
    }
}
