package org.latencyserver.server.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.latencyserver.orb.Partitions;

/**
 * The {@code server:} section: how the server names itself, polls, persists, exposes metrics and
 * which groups of calls it accepts.
 *
 * <p>The keys' defaults, ranges and meaning are {@link ServerOption}'s ({@code SERVER_*}), the one table
 * the loader, these records and the operator guide share.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name                    {@code server.name}
 * @param partition               {@code server.partition}: the partition this server owns, or null for a server
 *                                that is the only one (registered as {@code name} itself)
 * @param indexRefScope           {@code server.index_ref_scope}: where its index_refs are unique (matters
 *                                only with a partition)
 * @param pollIntervalMillis      {@code server.poll_interval_millis}, ms
 * @param unknownAfterMissedPolls {@code server.unknown_after_missed_polls}
 * @param stateFile               {@code server.state_file}, absolute (the file gives it relative to its
 *                                own directory; default {@code <configuration file name without .yaml>.state.json}
 *                                beside the configuration file)
 * @param metrics                 {@code server.metrics}
 * @param operatorCallsEnabled    {@code server.operator_calls_enabled}: whether {@code PutMibUpdates} and
 *                                {@code RequestTableStatus} are served (reads are not affected)
 * @param plannerCallsEnabled     {@code server.planner_calls_enabled}: whether {@code load_profile} is served
 * @param standby                 {@code server.standby}: the pair this server is one of, or null for a server without standby
 */
public record ServerSettings(String name, String partition, IndexRefScope indexRefScope, long pollIntervalMillis, int unknownAfterMissedPolls, Path stateFile,
                             Metrics metrics, boolean operatorCallsEnabled, boolean plannerCallsEnabled, StandbySettings standby) {

    /** Default name in the naming service (the options table's). */
    public static final String DEFAULT_NAME = ServerOption.SERVER_NAME.defaultString();
    /** Default SNMP poll period: 10 Hz (the options table's). */
    public static final long DEFAULT_POLL_INTERVAL_MILLIS = ServerOption.SERVER_POLL_INTERVAL_MILLIS.defaultWhole();
    /** Default number of missed polls after which a source is UNKNOWN (the options table's). */
    public static final int DEFAULT_UNKNOWN_AFTER_MISSED_POLLS =
        (int) ServerOption.SERVER_UNKNOWN_AFTER_MISSED_POLLS.defaultWhole();
    /** Appended to the configuration file's name (without {@code .yaml}/{@code .yml}) for the default state file. */
    public static final String DEFAULT_STATE_FILE_SUFFIX = ".state.json";

    /**
     * @throws IllegalArgumentException when a value is out of its documented range
     */
    public ServerSettings {
        Objects.requireNonNull(stateFile, "stateFile");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(indexRefScope, "indexRefScope");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("server name must not be blank, was '" + name + "'");
        }
        final Optional<String> badPartition = partition == null ? Optional.empty() : Partitions.refusal(partition);
        if (badPartition.isPresent()) {
            throw new IllegalArgumentException("server.partition: " + badPartition.get());
        }
        ServerOption.SERVER_POLL_INTERVAL_MILLIS.checked(pollIntervalMillis);
        ServerOption.SERVER_UNKNOWN_AFTER_MISSED_POLLS.checked(unknownAfterMissedPolls);
    }

    /**
     * @return the name this server registers its reference under in the naming service: {@code name}, or
     *         {@code name/partition} for a partition's server
     */
    public String registeredName() {
        return partition == null ? name : Partitions.partitionName(name, partition);
    }

    /**
     * Where the Prometheus text endpoint listens ({@code server.metrics: { enabled, address, port }}).
     *
     * <p>Port 0 means any free port, here as on the command line ({@code --metrics-port}) and for
     * {@code security.tls.port}; no endpoint is {@code enabled: false}.
     *
     * <p>Immutable and thread-safe.
     *
     * @param enabled whether an endpoint is served; {@code enabled}, default true
     * @param address IP address or host name to bind; {@code address}, default 127.0.0.1 (loopback)
     * @param port    TCP port 1..65535, or 0 for any free port; {@code port}, default 9464
     */
    public record Metrics(boolean enabled, String address, int port) {

        /** Default bind address: loopback only. */
        public static final String DEFAULT_ADDRESS = ServerOption.SERVER_METRICS_ADDRESS.defaultString();
        /** Default port (the Prometheus exporters' customary 9464; the options table's). */
        public static final int DEFAULT_PORT = (int) ServerOption.SERVER_METRICS_PORT.defaultWhole();
        /** What an absent {@code metrics} block means: loopback, port 9464. */
        public static final Metrics DEFAULT = new Metrics(ServerOption.SERVER_METRICS_ENABLED.defaultFlag(), DEFAULT_ADDRESS,
            DEFAULT_PORT);
        /** No metrics endpoint ({@code enabled: false}). */
        public static final Metrics OFF = new Metrics(false, DEFAULT_ADDRESS, DEFAULT_PORT);

        /**
         * @throws IllegalArgumentException when the address is blank or the port outside 0..65535
         */
        public Metrics {
            if (address == null || address.isBlank()) {
                throw new IllegalArgumentException("metrics address must not be blank");
            }
            ServerOption.SERVER_METRICS_PORT.checked(port);
        }
    }
}
