package org.latencyserver.server.table;

import java.util.List;
import java.util.Optional;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * What the configuration says about one connection; fixed for the server's lifetime (the thesis:
 * "the QoS … can not be altered during run-time").
 *
 * <p>Immutable and thread-safe.
 *
 * @param indexRef                the thesis's {@code index_ref}, 1..32767
 * @param clientNodeName          the client workstation's configured name
 * @param clientNodeId            its {@code client_node}
 * @param clientWorkstationType   its type: name and IDL code (3 TAC-3, 4 TAC-4, 5+ others)
 * @param peerNodeName            the peer workstation's configured name
 * @param peerNodeId              its {@code peer_node}
 * @param peerWorkstationType     its type
 * @param linkNames               the switch ports (links) the path crosses, in path order; empty when none is
 *                                observed; unmodifiable
 * @param messageSizeBytes        1..32767
 * @param qos                     1..4, the {@link Qos#level() level} of {@link #asQos()}
 * @param boundPercent            for QoS 2 and 4, in (0, 100]; 0 otherwise
 * @param profileName             for QoS 1 and 2 (and for sizes/percentiles; the fallback of QoS 3 and 4
 *                                in a load state never measured), or null
 * @param calibration             whether the served value is corrected (ADAPTIVE) or the thesis's (THESIS)
 * @param probeRatePerSecond      light continuous probing of the path by its client agent, round trips/s,
 *                                0..1000; 0 = off
 * @param pathBound               how a QoS 2 bound of a path with two or more loaded hops is composed
 * @param traffic                 how the connection's application sends ({@code connections[].traffic}), which its
 *                                probes and measurements reproduce; empty when none is declared (probes then draw
 *                                shapes from {@link org.latencyserver.core.traffic.TrafficFamily#DEFAULT})
 */
public record ConnectionSpec(short indexRef, String clientNodeName, short clientNodeId, WorkstationType clientWorkstationType,
                             String peerNodeName, short peerNodeId, WorkstationType peerWorkstationType, List<String> linkNames,
                             int messageSizeBytes, int qos, double boundPercent, String profileName,
                             CalibrationMode calibration, double probeRatePerSecond, BoundMethod pathBound,
                             Optional<TrafficShape> traffic) {

    /** The most switch ports one connection's path may cross. */
    public static final int MAX_HOPS = 8;

    /** A connection whose application's traffic is not declared. */
    public ConnectionSpec(final short indexRef, final String clientNodeName, final short clientNodeId,
                          final WorkstationType clientWorkstationType, final String peerNodeName, final short peerNodeId,
                          final WorkstationType peerWorkstationType, final List<String> linkNames, final int messageSizeBytes,
                          final int qos, final double boundPercent, final String profileName, final CalibrationMode calibration,
                          final double probeRatePerSecond, final BoundMethod pathBound) {
        this(indexRef, clientNodeName, clientNodeId, clientWorkstationType, peerNodeName, peerNodeId, peerWorkstationType,
            linkNames, messageSizeBytes, qos, boundPercent, profileName, calibration, probeRatePerSecond, pathBound,
            Optional.empty());
    }

    /** A connection with the thesis's semantics and no probing (as the thesis testbed runs). */
    public ConnectionSpec(final short indexRef, final String clientNodeName, final short clientNodeId,
                          final WorkstationType clientWorkstationType, final String peerNodeName, final short peerNodeId,
                          final WorkstationType peerWorkstationType, final String linkName, final int messageSizeBytes,
                          final int qos, final double boundPercent, final String profileName) {
        this(indexRef, clientNodeName, clientNodeId, clientWorkstationType, peerNodeName, peerNodeId, peerWorkstationType,
            linkName, messageSizeBytes, qos, boundPercent, profileName, CalibrationMode.THESIS, 0.0);
    }

    /** A connection across at most one switch port whose bound, were it composed, is the union bound. */
    public ConnectionSpec(final short indexRef, final String clientNodeName, final short clientNodeId,
                          final WorkstationType clientWorkstationType, final String peerNodeName, final short peerNodeId,
                          final WorkstationType peerWorkstationType, final String linkName, final int messageSizeBytes,
                          final int qos, final double boundPercent, final String profileName, final CalibrationMode calibration,
                          final double probeRatePerSecond) {
        this(indexRef, clientNodeName, clientNodeId, clientWorkstationType, peerNodeName, peerNodeId, peerWorkstationType,
            linkName == null ? List.of() : List.of(linkName), messageSizeBytes, qos, boundPercent, profileName, calibration,
            probeRatePerSecond, BoundMethod.UNION);
    }

    /**
     * @throws IllegalArgumentException when a value is out of range
     */
    public ConnectionSpec {
        if (indexRef < 1) {
            throw new IllegalArgumentException("index_ref must be 1..32767, was " + indexRef);
        }
        if (linkNames == null || linkNames.size() > MAX_HOPS || linkNames.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException("connection " + indexRef + ": a path crosses 0.." + MAX_HOPS
                + " named links, was " + linkNames);
        }
        linkNames = List.copyOf(linkNames);
        if (pathBound == null) {
            throw new IllegalArgumentException("connection " + indexRef + ": path bound method missing");
        }
        if (clientWorkstationType == null || peerWorkstationType == null) {
            throw new IllegalArgumentException("connection " + indexRef + ": both workstation types are needed");
        }
        final Qos level = qosOf(indexRef, qos);
        if (messageSizeBytes < 1 || messageSizeBytes > Short.MAX_VALUE) {
            throw new IllegalArgumentException("connection " + indexRef + ": message size must be 1..32767 B, was " + messageSizeBytes);
        }
        if (level.needsBoundPercent() ? !(boundPercent > 0 && boundPercent <= 100) : boundPercent != 0) {
            throw new IllegalArgumentException("connection " + indexRef + ": QoS " + qos + " with bound " + boundPercent + " %");
        }
        if (level.needsProfile() && profileName == null) {
            throw new IllegalArgumentException("connection " + indexRef + ": QoS " + qos + " needs a profile");
        }
        if (calibration == null) {
            throw new IllegalArgumentException("connection " + indexRef + ": calibration mode missing");
        }
        if (!(probeRatePerSecond >= 0 && probeRatePerSecond <= 1000)) {
            throw new IllegalArgumentException("connection " + indexRef + ": probe rate must be 0..1000 round trips/s, was "
                + probeRatePerSecond);
        }
        if (traffic == null) {
            throw new IllegalArgumentException("connection " + indexRef + ": traffic must be a shape or empty, not null");
        }
    }

    /**
     * @param shape the application's traffic shape
     * @return this connection with that shape declared
     */
    public ConnectionSpec withTraffic(final TrafficShape shape) {
        return new ConnectionSpec(indexRef, clientNodeName, clientNodeId, clientWorkstationType, peerNodeName, peerNodeId,
            peerWorkstationType, linkNames, messageSizeBytes, qos, boundPercent, profileName, calibration, probeRatePerSecond,
            pathBound, Optional.of(shape));
    }

    private static Qos qosOf(final short indexRef, final int qos) {
        try {
            return Qos.ofLevel(qos);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("connection " + indexRef + ": " + e.getMessage(), e);
        }
    }

    /** @return how many switch ports the path crosses (at least one hop is kept, UNKNOWN, when none is observed) */
    public int hopCount() {
        return Math.max(1, linkNames.size());
    }

    /** @return the links in path order joined by arrows, e.g. {@code "sw1-p3 → sw2-p1"}; "" when none */
    public String pathLabel() {
        return String.join(" → ", linkNames);
    }

    /** @return true when the served value is corrected from calibration */
    public boolean isAdaptive() {
        return calibration == CalibrationMode.ADAPTIVE;
    }

    /** @return the client workstation type's IDL code */
    public short clientWorkstationCode() {
        return (short) clientWorkstationType.code();
    }

    /** @return the peer workstation type's IDL code */
    public short peerWorkstationCode() {
        return (short) peerWorkstationType.code();
    }

    /** @return the QoS level: which estimate is served and where it comes from */
    public Qos asQos() {
        return Qos.ofLevel(qos);
    }

    /** @return true for QoS 3 and 4, which are measured on state changes */
    public boolean isMeasured() {
        return asQos().measured();
    }

    /** @return true for QoS 2 and 4, which serve a bound */
    public boolean isBound() {
        return asQos().bound();
    }
}
