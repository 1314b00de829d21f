package org.latencyserver.server.config;

import java.util.Objects;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * A connection of the configuration (an item of {@code connections:}): the message path from a
 * client workstation to a peer workstation for one message size, with its QoS level.
 *
 * <p>Immutable and thread-safe.
 *
 * @param indexRef         the thesis's {@code index_ref}, 1..32767, unique; {@code index_ref}, required
 * @param client           the client workstation; {@code client}, a node name, required
 * @param peer             the peer workstation, not the client; {@code peer}, a node name, required
 * @param link             the switch port between them; {@code link}, a link name, optional — null
 *                         means no port is observed and the port state is always NORMAL
 * @param messageSizeBytes 1..32767 (the IDL's short); {@code message_size_bytes}, required
 * @param qos              1 profile average, 2 profile bound, 3 measured average, 4 measured bound;
 *                         {@code qos}, required
 * @param boundPercent     for QoS 2 and 4 the share of messages the bound covers, in (0, 100];
 *                         {@code bound_percent}, required for them and refused for QoS 1 and 3,
 *                         whose value here is 0
 * @param profileName      the profile QoS 1 and 2 are served from (required for them, optional
 *                         for 3 and 4, whose fallback it is in a load state never measured); it must be for
 *                         the client's workstation type; null when none
 * @param calibration      {@code calibration}: {@code adaptive} (default) serves values corrected so they hold
 *                         for the messages that follow; {@code thesis} serves the thesis's values unchanged
 * @param probeRatePerSecond {@code probe_rate_per_second}: light continuous probing of the path by its
 *                         client agent, round trips/s, 0..1000, default {@value #DEFAULT_PROBE_RATE_PER_SECOND}; 0 = off
 */
public record ConnectionConfig(short indexRef, NodeConfig client, NodeConfig peer, LinkConfig link, int messageSizeBytes,
                               int qos, double boundPercent, String profileName, CalibrationMode calibration,
                               double probeRatePerSecond) {

    /** Probe round trips per second when the configuration does not say. */
    public static final double DEFAULT_PROBE_RATE_PER_SECOND = 10.0;

    /** A connection with the thesis's semantics and no probing. */
    public ConnectionConfig(final short indexRef, final NodeConfig client, final NodeConfig peer, final LinkConfig link,
                            final int messageSizeBytes, final int qos, final double boundPercent, final String profileName) {
        this(indexRef, client, peer, link, messageSizeBytes, qos, boundPercent, profileName, CalibrationMode.THESIS, 0.0);
    }

    /**
     * @throws IllegalArgumentException when a value is out of range (the loader reports these as
     *                                  faults before ever building a record)
     */
    public ConnectionConfig {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(peer, "peer");
        if (client.name().equals(peer.name())) {
            throw new IllegalArgumentException("connection " + indexRef + ": client and peer are both " + client.name());
        }
        // The remaining range checks are ConnectionSpec's: one rule, one place.
        spec(indexRef, client, peer, link, messageSizeBytes, qos, boundPercent, profileName, calibration, probeRatePerSecond);
    }

    /** @return the QoS level: which estimate is served and where it comes from */
    public Qos asQos() {
        return Qos.ofLevel(qos);
    }

    /** @return whether the bound is served (QoS 2 and 4) */
    public boolean servesBound() {
        return asQos().bound();
    }

    /** @return whether the connection is measured on state changes (QoS 3 and 4) */
    public boolean isMeasured() {
        return asQos().measured();
    }

    /** @return the connection as the connection table takes it */
    public ConnectionSpec toSpec() {
        return spec(indexRef, client, peer, link, messageSizeBytes, qos, boundPercent, profileName, calibration,
            probeRatePerSecond);
    }

    private static ConnectionSpec spec(final short indexRef, final NodeConfig client, final NodeConfig peer, final LinkConfig link,
                                       final int messageSizeBytes, final int qos, final double boundPercent,
                                       final String profileName, final CalibrationMode calibration,
                                       final double probeRatePerSecond) {
        return new ConnectionSpec(indexRef, client.name(), client.nodeId(), client.workstationType(),
            peer.name(), peer.nodeId(), peer.workstationType(), link == null ? null : link.name(),
            messageSizeBytes, qos, boundPercent, profileName, calibration, probeRatePerSecond);
    }
}
