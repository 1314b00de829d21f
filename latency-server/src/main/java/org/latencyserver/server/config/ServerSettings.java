package org.latencyserver.server.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The {@code server:} section: how the server names itself, polls, persists, exposes metrics and
 * which groups of calls it accepts.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name                    name registered in the CORBA Naming Service; {@code server.name},
 *                                default {@value #DEFAULT_NAME}
 * @param pollIntervalMillis      SNMP poll period, 10..3,600,000 ms; {@code server.poll_interval_millis},
 *                                default 100 (10 Hz, the thesis's "fairly fast system management
 *                                polling rate")
 * @param unknownAfterMissedPolls a workstation or port whose SNMP agent missed this many polls in a
 *                                row becomes UNKNOWN, 1..1000; {@code server.unknown_after_missed_polls},
 *                                default 5
 * @param stateFile               where the table, last estimates and measured histograms are kept
 *                                across restarts, absolute (the file gives it relative to its own
 *                                directory); {@code server.state_file}, default
 *                                {@code <configuration file name without .yaml>.state.json} beside the
 *                                configuration file
 * @param metrics                 the Prometheus text endpoint; {@code server.metrics}, default
 *                                {@link Metrics#DEFAULT} (loopback, port 9464)
 * @param operatorCallsEnabled    whether the operator calls {@code PutMibUpdates} and
 *                                {@code RequestTableStatus} are served (reads are not affected);
 *                                {@code server.operator_calls_enabled}, default true
 * @param plannerCallsEnabled     whether {@code load_profile} is served;
 *                                {@code server.planner_calls_enabled}, default true
 */
public record ServerSettings(String name, long pollIntervalMillis, int unknownAfterMissedPolls, Path stateFile,
                             Metrics metrics, boolean operatorCallsEnabled, boolean plannerCallsEnabled) {

    /** Default name in the naming service. */
    public static final String DEFAULT_NAME = "LatencyServer";
    /** Default SNMP poll period: 10 Hz. */
    public static final long DEFAULT_POLL_INTERVAL_MILLIS = 100;
    /** Default number of missed polls after which a source is UNKNOWN. */
    public static final int DEFAULT_UNKNOWN_AFTER_MISSED_POLLS = 5;
    /** Appended to the configuration file's name (without {@code .yaml}/{@code .yml}) for the default state file. */
    public static final String DEFAULT_STATE_FILE_SUFFIX = ".state.json";

    /**
     * @throws IllegalArgumentException when a value is out of its documented range
     */
    public ServerSettings {
        Objects.requireNonNull(stateFile, "stateFile");
        Objects.requireNonNull(metrics, "metrics");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("server name must not be blank, was '" + name + "'");
        }
        if (pollIntervalMillis < 10 || pollIntervalMillis > 3_600_000) {
            throw new IllegalArgumentException("poll interval must be 10..3600000 ms, was " + pollIntervalMillis);
        }
        if (unknownAfterMissedPolls < 1 || unknownAfterMissedPolls > 1000) {
            throw new IllegalArgumentException("unknown_after_missed_polls must be 1..1000, was " + unknownAfterMissedPolls);
        }
    }

    /**
     * Where the Prometheus text endpoint listens ({@code server.metrics: { address, port }}).
     *
     * <p>Immutable and thread-safe.
     *
     * @param address IP address or host name to bind; {@code address}, default {@value #DEFAULT_ADDRESS} (loopback)
     * @param port    TCP port 1..65535, or 0 for no endpoint; {@code port}, default {@value #DEFAULT_PORT}
     */
    public record Metrics(String address, int port) {

        /** Default bind address: loopback only. */
        public static final String DEFAULT_ADDRESS = "127.0.0.1";
        /** Default port (the Prometheus exporters' customary 9464). */
        public static final int DEFAULT_PORT = 9464;
        /** What an absent {@code metrics} block means: loopback, port 9464. */
        public static final Metrics DEFAULT = new Metrics(DEFAULT_ADDRESS, DEFAULT_PORT);
        /** No metrics endpoint ({@code port: 0}). */
        public static final Metrics OFF = new Metrics(DEFAULT_ADDRESS, 0);

        /**
         * @throws IllegalArgumentException when the address is blank or the port outside 0..65535
         */
        public Metrics {
            if (address == null || address.isBlank()) {
                throw new IllegalArgumentException("metrics address must not be blank");
            }
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("metrics port must be 0..65535, was " + port);
            }
        }

        /** @return whether an endpoint is to be served (port not 0) */
        public boolean enabled() {
            return port != 0;
        }
    }
}
