package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.state.PortState;

/**
 * Each connection's recent probe windows per loaded port state (a band, or SATURATED): what
 * {@link ServingPolicy} serves on a loaded port. Kept in memory only: after a restart they are probed again within
 * {@value BandProbes#MIN_ROUND_TRIPS} round trips.
 *
 * <p>Not thread-safe: owned by the update thread.
 */
final class BandProbesBook {

    /** A connection in a loaded port state. */
    private record BandKey(short indexRef, PortState port) {
    }

    private final Map<BandKey, BandProbes> probes = new HashMap<>();

    /**
     * @param indexRef the connection
     * @param port     its loaded port state
     * @return its probes of that state; {@link BandProbes#EMPTY} when none
     */
    BandProbes of(final short indexRef, final PortState port) {
        return probes.getOrDefault(new BandKey(indexRef, port), BandProbes.EMPTY);
    }

    /**
     * @param indexRef the connection
     * @param port     the loaded port state the window ran in wholly
     * @param window   the window
     */
    void add(final short indexRef, final PortState port, final BandProbes.Window window) {
        probes.merge(new BandKey(indexRef, port), BandProbes.EMPTY.add(window), (kept, added) -> kept.add(window));
    }

    /**
     * @param indexRef   the connection
     * @param port       the loaded port state it left
     * @param sinceNanos the windows accepted after this (monotonic ns) are dropped: the change, seen late, may have
     *                   begun before them
     */
    void takeBackAfter(final short indexRef, final PortState port, final long sinceNanos) {
        probes.computeIfPresent(new BandKey(indexRef, port), (key, kept) -> kept.withoutWindowsAfter(sinceNanos));
    }
}
