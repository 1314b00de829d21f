package org.latencyserver.server.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * The recent round trips of each path — client workstation, peer workstation, links and message size — per state of
 * its ports with at least one loaded (a band, or SATURATED, per hop): what {@link ServingPolicy} serves on a loaded port. A port's queue is the same for
 * every connection of a path, whatever its QoS, so their probe windows and measurements of the state are kept
 * together, and each of them serves them. Kept in memory only: after a restart they are gathered again within
 * {@value BandProbes#MIN_ROUND_TRIPS} round trips.
 *
 * <p>Not thread-safe: owned by the update thread.
 */
final class BandProbesBook {

    /** A path: the round trips of its connections are alike. */
    private record Path(String client, String peer, List<String> links, int messageSizeBytes) {
        static Path of(final ConnectionSpec spec) {
            return new Path(spec.clientNodeName(), spec.peerNodeName(), spec.linkNames(), spec.messageSizeBytes());
        }
    }

    /** A path in a state of its ports, one per hop, at least one of them loaded. */
    private record BandKey(Path path, List<PortState> hops) {
    }

    private final Map<BandKey, BandProbes> probes = new HashMap<>();
    /** The connections of each path; fixed with the table. */
    private final Map<Path, List<Short>> connections = new HashMap<>();

    /** @param rows the table's rows, whose paths are indexed */
    BandProbesBook(final List<ConnectionRow> rows) {
        for (final ConnectionRow row : rows) {
            connections.computeIfAbsent(Path.of(row.spec()), path -> new ArrayList<>()).add(row.spec().indexRef());
        }
    }

    /**
     * @param spec a connection
     * @param hops its ports' states, one per hop, at least one loaded
     * @return its path's round trips in that state; {@link BandProbes#EMPTY} when none
     */
    BandProbes of(final ConnectionSpec spec, final List<PortState> hops) {
        return probes.getOrDefault(new BandKey(Path.of(spec), hops), BandProbes.EMPTY);
    }

    /**
     * @param spec   the connection whose round trips they are
     * @param hops   the ports' states they ran in wholly, one per hop, at least one loaded
     * @param window the round trips
     */
    void add(final ConnectionSpec spec, final List<PortState> hops, final BandProbes.Window window) {
        final BandKey key = new BandKey(Path.of(spec), hops);
        probes.put(key, probes.getOrDefault(key, BandProbes.EMPTY).add(window));
    }

    /**
     * @param spec       a connection of the path
     * @param hops       the ports' states it left, one per hop
     * @param sinceNanos the windows accepted after this (monotonic ns) are dropped: the change, seen late, may have
     *                   begun before them
     */
    void takeBackAfter(final ConnectionSpec spec, final List<PortState> hops, final long sinceNanos) {
        probes.computeIfPresent(new BandKey(Path.of(spec), hops), (key, kept) -> kept.withoutWindowsAfter(sinceNanos));
    }

    /**
     * @param spec a connection
     * @return the {@code index_ref}s of its path's connections, its own included
     */
    List<Short> pathOf(final ConnectionSpec spec) {
        return connections.getOrDefault(Path.of(spec), List.of());
    }
}
