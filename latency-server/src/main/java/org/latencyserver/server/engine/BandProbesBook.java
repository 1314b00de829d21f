package org.latencyserver.server.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * The recent round trips of each path — client workstation, peer workstation, links and message size — per
 * {@linkplain BandKey probe state} of its ports with at least one loaded: what {@link ServingPolicy} serves on a loaded
 * port. A port's queue is the same for every connection of a path, whatever its QoS, so their probe windows and
 * measurements of the state are kept together, and each of them serves them. Kept in memory only: after a restart they
 * are gathered again within {@value BandProbes#MIN_ROUND_TRIPS} round trips.
 *
 * <p>The probe state of a path is its worst hop's state (its band, or SATURATED) and which hops are loaded — not every
 * hop's band, and never the CPU states. On a path of several loaded ports the combined state (every hop's band) flaps
 * as each hop moves between neighbouring bands; keyed by it, each combined state would gather only the few windows it
 * held wholly and stay below {@value BandProbes#MIN_ROUND_TRIPS} round trips. The worst hop's band and the set of
 * loaded hops decide the queueing (which ports queue, and how full the fullest is), so windows in states that differ
 * only in a less loaded hop's band are pooled. A one-port path's probe state is its port's state, as before.
 *
 * <p>Not thread-safe: owned by the update thread.
 */
final class BandProbesBook {

    /** A path: the round trips of its connections are alike. */
    record Path(String client, String peer, List<String> links, int messageSizeBytes) {
        static Path of(final ConnectionSpec spec) {
            return new Path(spec.clientNodeName(), spec.peerNodeName(), spec.linkNames(), spec.messageSizeBytes());
        }
    }

    /**
     * A path in a probe state of its ports.
     *
     * @param path       the path
     * @param worstHop   its worst hop's state ({@link ConnectionLoadState#worstOf}): a band, or SATURATED
     * @param loadedHops per hop in path order, whether it is loaded (a band, or SATURATED); unmodifiable
     */
    record BandKey(Path path, PortState worstHop, List<Boolean> loadedHops) {

        /**
         * @param spec a connection
         * @param hops its ports' states, one per hop
         * @return the probe state they are pooled under
         */
        static BandKey of(final ConnectionSpec spec, final List<PortState> hops) {
            final List<Boolean> loaded = new ArrayList<>(hops.size());
            for (final PortState hop : hops) {
                loaded.add(hop.isLoaded());
            }
            return new BandKey(Path.of(spec), ConnectionLoadState.worstOf(hops), List.copyOf(loaded));
        }
    }

    /** Since when (monotonic ns) a connection has been in a probe state. */
    private record Since(BandKey key, long sinceNanos) {
    }

    private final Map<BandKey, BandProbes> probes = new HashMap<>();
    /** Each connection's probe state and since when, as last {@linkplain #entered entered}; none after a restart. */
    private final Map<Short, Since> probeStates = new HashMap<>();
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
     * @return its path's round trips in that probe state ({@link BandKey}); {@link BandProbes#EMPTY} when none
     */
    BandProbes of(final ConnectionSpec spec, final List<PortState> hops) {
        return probes.getOrDefault(BandKey.of(spec, hops), BandProbes.EMPTY);
    }

    /**
     * @param spec   the connection whose round trips they are
     * @param hops   the ports' states they ran in wholly, one per hop, at least one loaded
     * @param window the round trips
     */
    void add(final ConnectionSpec spec, final List<PortState> hops, final BandProbes.Window window) {
        final BandKey key = BandKey.of(spec, hops);
        probes.put(key, probes.getOrDefault(key, BandProbes.EMPTY).add(window));
    }

    /**
     * @param spec       a connection of the path
     * @param hops       the ports' states it left, one per hop
     * @param sinceNanos the windows accepted after this (monotonic ns) are dropped: the change, seen late, may have
     *                   begun before them
     */
    void takeBackAfter(final ConnectionSpec spec, final List<PortState> hops, final long sinceNanos) {
        probes.computeIfPresent(BandKey.of(spec, hops), (key, kept) -> kept.withoutWindowsAfter(sinceNanos));
    }

    /**
     * Notes a connection's new load state: its probe state's start moves only when the probe state changed, so that a
     * window across a change of a less loaded hop's band still describes one probe state.
     *
     * @param spec     a connection
     * @param hops     its ports' states now, one per hop
     * @param nowNanos monotonic ns
     */
    void entered(final ConnectionSpec spec, final List<PortState> hops, final long nowNanos) {
        final BandKey key = BandKey.of(spec, hops);
        final Since known = probeStates.get(spec.indexRef());
        if (known == null || !known.key().equals(key)) {
            probeStates.put(spec.indexRef(), new Since(key, nowNanos));
        }
    }

    /**
     * @param spec       a connection
     * @param hops       its ports' states now, one per hop
     * @param fromNanos  the start of a window (monotonic ns)
     * @return true when the connection has been in the probe state of {@code hops} since {@code fromNanos} or before
     */
    boolean heldSince(final ConnectionSpec spec, final List<PortState> hops, final long fromNanos) {
        final Since known = probeStates.get(spec.indexRef());
        return known != null && known.key().equals(BandKey.of(spec, hops)) && known.sinceNanos() <= fromNanos;
    }

    /**
     * @return true when the two states of the connection's ports are one probe state: round trips in one describe the
     *         other
     */
    boolean sameProbeState(final ConnectionSpec spec, final List<PortState> hops, final List<PortState> otherHops) {
        return hops.size() == otherHops.size() && BandKey.of(spec, hops).equals(BandKey.of(spec, otherHops));
    }

    /**
     * @param spec a connection
     * @return the {@code index_ref}s of its path's connections, its own included
     */
    List<Short> pathOf(final ConnectionSpec spec) {
        return connections.getOrDefault(Path.of(spec), List.of());
    }
}
