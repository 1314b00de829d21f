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
 * The recent round trips of each path — client workstation, peer workstation, link and message size — per loaded port
 * state (a band, or SATURATED): what {@link ServingPolicy} serves on a loaded port. A port's queue is the same for
 * every connection of a path, whatever its QoS, so their probe windows and measurements of the state are kept
 * together, and each of them serves them. Kept in memory only: after a restart they are gathered again within
 * {@value BandProbes#MIN_ROUND_TRIPS} round trips.
 *
 * <p>Not thread-safe: owned by the update thread.
 */
final class BandProbesBook {

    /** A path: the round trips of its connections are alike. */
    private record Path(String client, String peer, String link, int messageSizeBytes) {
        static Path of(final ConnectionSpec spec) {
            return new Path(spec.clientNodeName(), spec.peerNodeName(), spec.linkName(), spec.messageSizeBytes());
        }
    }

    /** A path in a loaded port state. */
    private record BandKey(Path path, PortState port) {
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
     * @param port its loaded port state
     * @return its path's round trips in that state; {@link BandProbes#EMPTY} when none
     */
    BandProbes of(final ConnectionSpec spec, final PortState port) {
        return probes.getOrDefault(new BandKey(Path.of(spec), port), BandProbes.EMPTY);
    }

    /**
     * @param spec   the connection whose round trips they are
     * @param port   the loaded port state they ran in wholly
     * @param window the round trips
     */
    void add(final ConnectionSpec spec, final PortState port, final BandProbes.Window window) {
        final BandKey key = new BandKey(Path.of(spec), port);
        probes.put(key, probes.getOrDefault(key, BandProbes.EMPTY).add(window));
    }

    /**
     * @param spec       a connection of the path
     * @param port       the loaded port state it left
     * @param sinceNanos the windows accepted after this (monotonic ns) are dropped: the change, seen late, may have
     *                   begun before them
     */
    void takeBackAfter(final ConnectionSpec spec, final PortState port, final long sinceNanos) {
        probes.computeIfPresent(new BandKey(Path.of(spec), port), (key, kept) -> kept.withoutWindowsAfter(sinceNanos));
    }

    /**
     * @param spec a connection
     * @return the {@code index_ref}s of its path's connections, its own included
     */
    List<Short> pathOf(final ConnectionSpec spec) {
        return connections.getOrDefault(Path.of(spec), List.of());
    }
}
