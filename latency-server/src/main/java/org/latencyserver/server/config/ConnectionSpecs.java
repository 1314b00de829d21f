package org.latencyserver.server.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * Builds the one description of a connection, {@link ConnectionSpec}, from the configured nodes and
 * link it joins: their names, node ids and workstation types. {@link ConnectionSpec} checks the
 * ranges; this adds the rule only the configuration can break, that client and peer differ.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConnectionSpecs {

    private ConnectionSpecs() {
    }

    /**
     * @param indexRef           {@code connections[].index_ref}
     * @param client             the client node
     * @param peer               the peer node, not the client
     * @param links              the switch ports the path crosses, in order; empty when none is observed
     * @param messageSizeBytes   {@code connections[].message_size_bytes}
     * @param qos                {@code connections[].qos}, 1..4
     * @param boundPercent       {@code connections[].bound_percent} for QoS 2 and 4; 0 otherwise
     * @param profileName        {@code connections[].profile}, or null
     * @param calibration        {@code connections[].calibration}
     * @param probeRatePerSecond {@code connections[].probe_rate_per_second}, round trips/s
     * @param pathBound          {@code connections[].path_bound}
     * @param traffic            {@code connections[].traffic}, empty when not declared
     * @return the connection as the connection table takes it
     * @throws IllegalArgumentException when client and peer are one node, or a value is out of range (the loader
     *                                  reports these as faults before ever building a connection)
     */
    public static ConnectionSpec of(final short indexRef, final NodeConfig client, final NodeConfig peer,
                                    final List<LinkConfig> links, final int messageSizeBytes, final int qos,
                                    final double boundPercent, final String profileName, final CalibrationMode calibration,
                                    final double probeRatePerSecond, final BoundMethod pathBound,
                                    final Optional<TrafficShape> traffic) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(peer, "peer");
        if (client.name().equals(peer.name())) {
            throw new IllegalArgumentException("connection " + indexRef + ": client and peer are both " + client.name());
        }
        return new ConnectionSpec(indexRef, client.name(), client.nodeId(), client.workstationType(),
            peer.name(), peer.nodeId(), peer.workstationType(), links.stream().map(LinkConfig::name).toList(),
            messageSizeBytes, qos, boundPercent, profileName, calibration, probeRatePerSecond, pathBound, traffic);
    }

    /**
     * A connection with the thesis's semantics and no probing (as the thesis testbed runs).
     *
     * @param link the switch port between them, or null when none is observed
     * @see #of(short, NodeConfig, NodeConfig, List, int, int, double, String, CalibrationMode, double, BoundMethod, Optional)
     */
    public static ConnectionSpec of(final short indexRef, final NodeConfig client, final NodeConfig peer, final LinkConfig link,
                                    final int messageSizeBytes, final int qos, final double boundPercent,
                                    final String profileName) {
        return of(indexRef, client, peer, link == null ? List.of() : List.of(link), messageSizeBytes, qos, boundPercent,
            profileName, CalibrationMode.THESIS, 0.0, BoundMethod.UNION, Optional.empty());
    }

    /**
     * A connection across at most one switch port.
     *
     * @param link the switch port between them, or null when none is observed
     * @see #of(short, NodeConfig, NodeConfig, List, int, int, double, String, CalibrationMode, double, BoundMethod, Optional)
     */
    public static ConnectionSpec of(final short indexRef, final NodeConfig client, final NodeConfig peer, final LinkConfig link,
                                    final int messageSizeBytes, final int qos, final double boundPercent,
                                    final String profileName, final CalibrationMode calibration,
                                    final double probeRatePerSecond) {
        return of(indexRef, client, peer, link == null ? List.of() : List.of(link), messageSizeBytes, qos, boundPercent,
            profileName, calibration, probeRatePerSecond, BoundMethod.UNION, Optional.empty());
    }
}
