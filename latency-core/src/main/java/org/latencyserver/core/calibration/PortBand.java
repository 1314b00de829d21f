package org.latencyserver.core.calibration;

import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * The band of the path's switch port a block of round trips was sent in, as the shape models see it: {@link #LOADED}
 * when some hop is LOADED or SATURATED (its queue adds to every round trip, and a shape that offers much queues
 * behind itself there), else {@link #IDLE} (NORMAL, or not observed). A path of several hops is loaded when any hop is,
 * whatever the others (a stale, UNKNOWN hop does not hide a loaded one). When no hop is loaded but some, not all, are
 * UNKNOWN ({@link #hidesLoad}) the band is not known: the unknown hop may be loaded. A path none of whose hops is
 * observed has no band: the shape models are band-blind there (every block and bound IDLE).
 */
public enum PortBand {
    /** No hop above its loaded threshold (or none observed): the port adds nothing a shape could worsen. */
    IDLE,
    /** Some hop LOADED or SATURATED: a shape's own offered load adds to the port's queue. */
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
     * @return LOADED when any hop is LOADED or SATURATED, else IDLE
     */
    public static PortBand of(final ConnectionLoadState load) {
        return load != null && load.loadedHopCount() > 0 ? LOADED : IDLE;
    }

    /**
     * @param load the connection's load state, or null when not known
     * @return true when no hop is loaded and some hops, not all, are UNKNOWN: a block sent then may have met a loaded
     *         port the state does not show, and a bound then is not known to be for an idle one
     */
    public static boolean hidesLoad(final ConnectionLoadState load) {
        if (load == null || load.loadedHopCount() > 0) {
            return false;
        }
        int unknown = 0;
        for (final PortState hop : load.hops()) {
            unknown += hop.kind() == PortState.Kind.UNKNOWN ? 1 : 0;
        }
        return unknown > 0 && unknown < load.hops().size();
    }

    /**
     * @param load the connection's load state, or null when not known
     * @return true when every hop is known and none is loaded: the port is idle
     */
    public static boolean knownIdle(final ConnectionLoadState load) {
        if (load == null || load.loadedHopCount() > 0) {
            return false;
        }
        for (final PortState hop : load.hops()) {
            if (hop.kind() == PortState.Kind.UNKNOWN) {
                return false;
            }
        }
        return true;
    }

    /** @return 1 for LOADED, 0 for IDLE: the band's indicator among the shape models' features */
    public double indicator() {
        return this == LOADED ? 1.0 : 0.0;
    }
}
