package org.latencyserver.server.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.orb.Partitions;

/**
 * Reads the configuration's {@code server} section: name, partition, index-ref scope, polling, state file, metrics
 * endpoint, the operator and planner switches and the hot-standby pair ({@code server.standby}). Faults go to the
 * section's {@link InputMapping}; a path is relative to the configuration file's directory.
 *
 * <p>Not thread-safe; used once, by the {@link ConfigurationLoader} that made it.
 */
final class ServerSectionReader {

    private static final Map<String, IndexRefScope> INDEX_REF_SCOPES = ConfigWord.byWord(IndexRefScope.class);
    private final Path file;
    private final Path directory;

    /**
     * @param file      the configuration file, absolute and normalised (names the default state file)
     * @param directory its directory, against which paths are resolved
     */
    ServerSectionReader(final Path file, final Path directory) {
        this.file = file;
        this.directory = directory;
    }

    /**
     * @param server the {@code server} section, null when absent (then every default)
     * @return the settings, or null with the faults recorded on {@code server}
     */
    ServerSettings read(final InputMapping server) {
        final String defaultStateFile = file.getFileName().toString().replaceFirst("\\.ya?ml$", "")
            + ServerSettings.DEFAULT_STATE_FILE_SUFFIX;
        if (server == null) {
            return new ServerSettings(ServerSettings.DEFAULT_NAME, null, IndexRefScope.DEPLOYMENT,
                ServerSettings.DEFAULT_POLL_INTERVAL_MILLIS,
                ServerSettings.DEFAULT_UNKNOWN_AFTER_MISSED_POLLS, directory.resolve(defaultStateFile).normalize(),
                ServerSettings.Metrics.DEFAULT, ServerOption.SERVER_OPERATOR_CALLS_ENABLED.defaultFlag(),
                ServerOption.SERVER_PLANNER_CALLS_ENABLED.defaultFlag(), null);
        }
        OptionReads.allowOnlyOptionsOf(server, "server");
        final String name = OptionReads.text(server, ServerOption.SERVER_NAME);
        String partition = server.text(ServerOption.SERVER_PARTITION.key(), null);
        final Optional<String> badPartition = partition == null ? Optional.empty() : Partitions.refusal(partition);
        if (badPartition.isPresent()) {
            server.fault(ServerOption.SERVER_PARTITION.key(), badPartition.get());
            partition = null;
        }
        final IndexRefScope scope = server.choice(ServerOption.SERVER_INDEX_REF_SCOPE.key(),
            INDEX_REF_SCOPES.get(ServerOption.SERVER_INDEX_REF_SCOPE.defaultString()), INDEX_REF_SCOPES);
        final Long poll = OptionReads.whole(server, ServerOption.SERVER_POLL_INTERVAL_MILLIS);
        final Long missed = OptionReads.whole(server, ServerOption.SERVER_UNKNOWN_AFTER_MISSED_POLLS);
        final Path stateFile = relativePath(server, ServerOption.SERVER_STATE_FILE.key(), defaultStateFile);
        final ServerSettings.Metrics metrics = metrics(server.section(ServerOption.SERVER_METRICS.key()));
        final boolean operatorCalls = OptionReads.flag(server, ServerOption.SERVER_OPERATOR_CALLS_ENABLED);
        final boolean plannerCalls = OptionReads.flag(server, ServerOption.SERVER_PLANNER_CALLS_ENABLED);
        final InputMapping standbySection = server.section(ServerOption.SERVER_STANDBY.key());
        final StandbySettings standby = standbySection == null ? null : standby(standbySection);
        if (poll == null || missed == null || stateFile == null || metrics == null || scope == null
            || standbySection != null && standby == null) {
            return null;
        }
        return new ServerSettings(name, partition, scope, poll, missed.intValue(), stateFile, metrics, operatorCalls, plannerCalls,
            standby);
    }

    /** @return the pair's addresses, or null with the faults recorded */
    private static StandbySettings standby(final InputMapping standby) {
        OptionReads.allowOnlyOptionsOf(standby, "server.standby");
        final String listen = standby.requiredText(ServerOption.SERVER_STANDBY_LISTEN.key(), "this server's replication address, host:port");
        final String peer = standby.requiredText(ServerOption.SERVER_STANDBY_PEER.key(), "the other server's server.standby.listen, host:port");
        final Long ackTimeout = OptionReads.whole(standby, ServerOption.SERVER_STANDBY_ACK_TIMEOUT_MILLIS);
        final Long lease = OptionReads.whole(standby, ServerOption.SERVER_STANDBY_LEASE_MILLIS);
        boolean good = ackTimeout != null && lease != null && listen != null && peer != null;
        for (final ServerOption option : List.of(ServerOption.SERVER_STANDBY_LISTEN, ServerOption.SERVER_STANDBY_PEER)) {
            final String text = option == ServerOption.SERVER_STANDBY_LISTEN ? listen : peer;
            if (text != null && (StandbySettings.hostOf(text) == null || StandbySettings.portOf(text) < 0)) {
                standby.fault(option.key(), "expected host:port with a port 1..65535, was '" + text + "'");
                good = false;
            }
        }
        if (!good) {
            return null;
        }
        try {
            return new StandbySettings(StandbySettings.hostOf(listen), StandbySettings.portOf(listen), StandbySettings.hostOf(peer),
                StandbySettings.portOf(peer), ackTimeout, lease);
        } catch (IllegalArgumentException e) {
            standby.fault(ServerOption.SERVER_STANDBY_PEER.key(), e.getMessage());
            return null;
        }
    }

    private ServerSettings.Metrics metrics(final InputMapping metrics) {
        if (metrics == null) {
            return ServerSettings.Metrics.DEFAULT;
        }
        OptionReads.allowOnlyOptionsOf(metrics, "server.metrics");
        final boolean enabled = OptionReads.flag(metrics, ServerOption.SERVER_METRICS_ENABLED);
        final String address = OptionReads.text(metrics, ServerOption.SERVER_METRICS_ADDRESS);
        if (address.chars().anyMatch(Character::isWhitespace)) {
            metrics.fault(ServerOption.SERVER_METRICS_ADDRESS.key(), "expected an IP address or host name, was '" + address + "'");
            return null;
        }
        final Long port = OptionReads.whole(metrics, ServerOption.SERVER_METRICS_PORT);
        if (port != null && port == 0 && !metrics.has(ServerOption.SERVER_METRICS_ENABLED.key())) {
            // Port 0 here used to mean "no endpoint" (everywhere else "any free port"): an old file must not silently
            // open one, so 0 counts only with enabled written beside it, which says which is meant.
            metrics.fault(ServerOption.SERVER_METRICS_PORT.key(), "0 means any free port, as on the command line and for"
                + " security.tls.port (it used to mean no endpoint): write 'enabled: false' for no endpoint, or"
                + " 'enabled: true' to serve on any free port");
            return null;
        }
        return port == null ? null : new ServerSettings.Metrics(enabled, address, port.intValue());
    }

    private Path relativePath(final InputMapping section, final String key, final String fallback) {
        final String text = section.text(key, fallback);
        try {
            return directory.resolve(text).normalize();
        } catch (InvalidPathException e) {
            section.fault(key, "not a valid path: '" + text + "' (" + e.getReason() + ")");
            return null;
        }
    }
}
