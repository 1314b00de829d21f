package org.latencyserver.core.calibration;

import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * The band of the path's switch port a block of round trips was sent in, as the shape models see it: {@link #LOADED}
 * when the worst hop is LOADED or SATURATED (its queue adds to every round trip, and a shape that offers much queues
 * behind itself there), else {@link #IDLE} (NORMAL, or not observed). A path of several hops is as loaded as its worst
 * hop ({@link ConnectionLoadState#port()}).
 */
public enum PortBand {
    /** The worst hop at or below its loaded threshold, or not observed: the port adds nothing a shape could worsen. */
    IDLE,
    /** The worst hop LOADED or SATURATED: a shape's own offered load adds to the port's queue. */
    LOADED;

    /**
     * @param port the worst hop's state, or null when not known
     * @return LOADED when the port is LOADED or SATURATED, else IDLE
     */
    public static PortBand of(final PortState port) {
        return port != null && port.isLoaded() ? LOADED : IDLE;
    }

    /**
     * @param load the connection's load state, or null when not known
     * @return the band of its worst hop
     */
    public static PortBand of(final ConnectionLoadState load) {
        return load == null ? IDLE : of(load.port());
    }

    /** @return 1 for LOADED, 0 for IDLE: the band's indicator among the shape models' features */
    public double indicator() {
        return this == LOADED ? 1.0 : 0.0;
    }
}
