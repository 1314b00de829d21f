package org.latencyserver.server.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.MeasurementPacing;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.transport.ConnectionLimits;

/**
 * The validated configuration of a server: what {@link ConfigurationLoader#load} makes of one YAML
 * file. Every key of the file is described in {@link ServerOption} (and the operator guide's table
 * rendered from it) and shown in {@code examples/thesis-testbed.yaml}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param file              the file it was read from, absolute
 * @param server            the {@code server:} section
 * @param thresholds        the {@code thresholds:} section
 * @param measurement       the {@code measurement:} section
 * @param profiles          the profiles listed under {@code profiles:}, loaded and validated, by
 *                          name, in file order
 * @param nodes             the workstations, in file order
 * @param links             the switch ports, in file order
 * @param connectionSpecs   the connections, in file order, as the connection table takes them
 * @param security          the {@code security:} section ({@link SecuritySettings#LEGACY_OPEN} when absent)
 * @param limits            the {@code limits:} section ({@link InputLimits#DEFAULT} when absent)
 * @param connectionLimits  the transport keys of the {@code limits:} section
 */
public record ServerConfiguration(Path file, ServerSettings server, Thresholds thresholds, MeasurementSettings measurement,
                                  Map<String, Profile> profiles, List<NodeConfig> nodes, List<LinkConfig> links,
                                  List<ConnectionSpec> connectionSpecs, SecuritySettings security, InputLimits limits,
                                  ConnectionLimits connectionLimits) {

    /**
     * Copies the collections; the profile map keeps its order.
     */
    public ServerConfiguration {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(connectionLimits, "connectionLimits");
        profiles = Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
        nodes = List.copyOf(nodes);
        links = List.copyOf(links);
        connectionSpecs = List.copyOf(connectionSpecs);
    }

    /**
     * @param name a node's name, e.g. a connection's {@link ConnectionSpec#clientNodeName()}
     * @return the node of that name
     * @throws IllegalArgumentException when there is none (the loader has checked every connection's ends)
     */
    public NodeConfig node(final String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no node named '" + name + "'"));
    }

    /**
     * @param name a link's name, e.g. one of a connection's {@link ConnectionSpec#linkNames()}, or null
     * @return the link of that name, or null for a null name
     * @throws IllegalArgumentException when a name is given and there is no such link
     */
    public LinkConfig link(final String name) {
        if (name == null) {
            return null;
        }
        return links.stream().filter(l -> l.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no link named '" + name + "'"));
    }

    /** @return the update engine's settings: thresholds, bands and the measurement rules */
    public EngineSettings engine() {
        return new EngineSettings(thresholds.cpuThresholds(), thresholds.portHysteresisBandPercent(), measurement.roundTrips(),
            measurement.timeoutMillis() * 1_000_000L, measurement.minIntervalMillis() * 1_000_000L,
            measurement.maxConcurrentMeasurements(), measurement.warmupRoundTrips(),
            Math.max(1, measurement.budgetRoundTripsPerSecond() - (long) Math.ceil(probeRoundTripsPerSecond())),
            measurement.dwellMillis(server.pollIntervalMillis()) * 1_000_000L, thresholds.portBands(),
            measurement.settleMillis(server.pollIntervalMillis()) * 1_000_000L, pacing(), measurement.maxOpenPerClient());
    }

    /** @return how hard and how long measurements may use their paths: the share of each configured link speed */
    public MeasurementPacing pacing() {
        final Map<String, Long> speeds = new HashMap<>();
        for (final LinkConfig link : links) {
            if (!link.speedFromAgent()) {
                speeds.put(link.name(), link.speedMbps());
            }
        }
        return new MeasurementPacing(measurement.pathSharePercent(), speeds, measurement.effectiveTimeBudgetMillis(),
            MeasurementSettings.MIN_ROUND_TRIPS_AT_TIME_BUDGET, measurement.maxConcurrentMeasurements());
    }

    /** @return round trips per second the connections' probes take out of the budget */
    public double probeRoundTripsPerSecond() {
        return connectionSpecs.stream().mapToDouble(ConnectionSpec::probeRatePerSecond).sum();
    }
}
