package org.latencyserver.server.config;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileLimits;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.orb.Partitions;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.transport.ConnectionLimits;

/**
 * Reads and validates the server's YAML configuration file, and loads the profiles it lists.
 *
 * <p>Every fault is reported, all at once, each with the file, line, column, key path and the
 * bad value (a secret's value excepted), and nothing is returned until there is none. Unknown
 * keys are faults — a typo must not silently become a default — with the closest known key
 * suggested. The keys, their defaults and their ranges are {@link ServerOption}'s.
 *
 * <p>One instance reads one file; {@link #load} is safe to call from any thread.
 */
public final class ConfigurationLoader {

    private static final Map<String, IndexRefScope> INDEX_REF_SCOPES = ConfigWord.byWord(IndexRefScope.class);
    private final Path file;
    private final Path directory;
    private final InputFaults faults;
    private final SnmpBlockReader snmpReader;

    private ConfigurationLoader(final Path file) {
        this.file = file.toAbsolutePath().normalize();
        this.directory = this.file.getParent();
        this.faults = new InputFaults(file.toString());
        this.snmpReader = new SnmpBlockReader(faults);
    }

    /**
     * Reads, validates and resolves a configuration file.
     *
     * @param file the YAML file; {@code profiles} and {@code server.state_file} in it are relative
     *             to its directory
     * @return the validated configuration, with its profiles loaded
     * @throws ConfigurationException with every fault found: unreadable or malformed file,
     *                                unknown keys, bad values, broken references, refused profiles
     */
    public static ServerConfiguration load(final Path file) throws ConfigurationException {
        return new ConfigurationLoader(file).load();
    }

    private ServerConfiguration load() throws ConfigurationException {
        final String text;
        try {
            text = ConfigurationText.read(file);
        } catch (ConfigurationText.TooLargeException e) {
            faults.add(0, 0, "file", e.getMessage());
            throw new ConfigurationException(faults.inFileOrder());
        } catch (IOException | RuntimeException e) {
            faults.add(0, 0, "file", "cannot be read: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            throw new ConfigurationException(faults.inFileOrder());
        }
        final InputNode root = InputNode.parse(text, InputFormat.YAML, faults);
        if (root.kind() == InputNode.Kind.INVALID) {
            // Malformed YAML, reported by the parser at its line: nothing further can be read.
            throw new ConfigurationException(faults.inFileOrder());
        }
        if (root.kind() != InputNode.Kind.MAP) {
            faults.at(root, "file", (root.kind() == InputNode.Kind.NULL ? "the file is empty" : "expected a mapping, was "
                + root.describe()) + "; a configuration has the sections " + String.join(", ", new java.util.TreeSet<>(ServerOption.keysIn(""))));
            throw new ConfigurationException(faults.inFileOrder());
        }
        final InputMapping top = new InputMapping(root, "", faults);
        OptionReads.allowOnlyOptionsOf(top, "", elsewhereForTop());

        final ServerSettings server = server(top.section("server"));
        final Thresholds thresholds = ThresholdsReader.read(top.section("thresholds"), faults);
        final MeasurementSettings measurement = measurement(top.section("measurement"));
        final InputMapping limitsSection = top.section("limits");
        final NumberBlock limitsRead = limitsSection == null ? null : NumberBlock.read(limitsSection, "limits",
            Map.of(ServerOption.LIMITS_MAX_GIOP_MESSAGE_BYTES, GIOP_LIMIT_FROM_OTHER_LIMITS));
        final InputLimits limits = limits(limitsRead);
        final ConnectionLimits connectionLimits = connectionLimits(limitsSection, limitsRead, limits);
        // Profiles are read within the limits; with faulty limits (reported) within the defaults.
        final ProfileSet profiles = profiles(top, (limits == null ? InputLimits.DEFAULT : limits).profileLimits());
        final NamedSet<NodeConfig> nodes = nodes(top);
        final NamedSet<LinkConfig> links = links(top);
        final List<ConnectionSpec> connections = new ConnectionReader(faults, nodes, links, profiles).read(top);
        final SecuritySettings security = new SecurityReader(faults, directory).read(top.section("security"), nodes.declared());
        final double probeRoundTripsPerSecond = connections.stream().mapToDouble(ConnectionSpec::probeRatePerSecond).sum();
        if (measurement != null && probeRoundTripsPerSecond > measurement.budgetRoundTripsPerSecond() / 2.0) {
            top.fault("connections", String.format(java.util.Locale.ROOT,
                "the connections' probes take %.1f round trips/s, more than half of measurement.budget_round_trips_per_second"
                    + " (%d): lower probe_rate_per_second or raise the budget", probeRoundTripsPerSecond,
                measurement.budgetRoundTripsPerSecond()));
        }

        if (!faults.isEmpty()) {
            throw new ConfigurationException(faults.inFileOrder());
        }
        return new ServerConfiguration(file, server, thresholds, measurement, profiles.byName(), List.copyOf(nodes.valid().values()),
            List.copyOf(links.valid().values()), connections, security, limits, connectionLimits);
    }

    /** Keys of the sections, for a key written at the top level by mistake. */
    private static Map<String, String> elsewhereForTop() {
        final Map<String, String> elsewhere = new HashMap<>();
        for (final String section : List.of("server", "thresholds", "measurement", "limits")) {
            ServerOption.keysIn(section).forEach(key -> elsewhere.putIfAbsent(key, "it belongs under " + section + ":"));
        }
        return elsewhere;
    }

    // ---- server -------------------------------------------------------------------------------

    private ServerSettings server(final InputMapping server) {
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

    // ---- measurement -----------------------------------------------------------------------------

    private MeasurementSettings measurement(final InputMapping section) {
        if (section == null) {
            return MeasurementSettings.DEFAULT;
        }
        final NumberBlock read = NumberBlock.read(section, "measurement",
            Map.of(ServerOption.MEASUREMENT_DWELL_MILLIS, MeasurementSettings.DWELL_FROM_POLL_INTERVAL,
                ServerOption.MEASUREMENT_SETTLE_MILLIS, MeasurementSettings.SETTLE_FROM_POLL_INTERVAL));
        if (!read.complete()) {
            return null;
        }
        return new MeasurementSettings((int) read.whole(ServerOption.MEASUREMENT_ROUND_TRIPS),
            (int) read.whole(ServerOption.MEASUREMENT_WARMUP_ROUND_TRIPS), read.whole(ServerOption.MEASUREMENT_TIMEOUT_MILLIS),
            read.whole(ServerOption.MEASUREMENT_MIN_INTERVAL_MILLIS),
            (int) read.whole(ServerOption.MEASUREMENT_BUDGET_ROUND_TRIPS_PER_SECOND),
            (int) read.whole(ServerOption.MEASUREMENT_MAX_CONCURRENT_MEASUREMENTS), read.whole(ServerOption.MEASUREMENT_DWELL_MILLIS),
            read.whole(ServerOption.MEASUREMENT_SETTLE_MILLIS), read.decimal(ServerOption.MEASUREMENT_PATH_SHARE_PERCENT),
            read.whole(ServerOption.MEASUREMENT_TIME_BUDGET_MILLIS), (int) read.whole(ServerOption.MEASUREMENT_MAX_OPEN_PER_CLIENT));
    }

    // ---- limits -------------------------------------------------------------------------------

    /** Read in place of an absent {@code limits.max_giop_message_bytes}: below its range, so never a value read. */
    private static final long GIOP_LIMIT_FROM_OTHER_LIMITS = 0;

    private static InputLimits limits(final NumberBlock read) {
        if (read == null) {
            return InputLimits.DEFAULT;
        }
        if (!read.complete()) {
            return null;
        }
        return new InputLimits(read.whole(ServerOption.LIMITS_MAX_RESULT_MILLIS), read.decimal(ServerOption.LIMITS_PLAUSIBILITY_FACTOR),
            (int) read.whole(ServerOption.LIMITS_MAX_HISTOGRAM_BINS), read.whole(ServerOption.LIMITS_MAX_PROFILE_BYTES),
            (int) read.whole(ServerOption.LIMITS_MAX_SUBSCRIPTIONS_PER_CALLER));
    }

    /**
     * The transport limits; a message limit below the largest legitimate call (which the other limits let
     * through) is a fault, since such calls would then close their connection.
     */
    private static ConnectionLimits connectionLimits(final InputMapping section, final NumberBlock read, final InputLimits limits) {
        if (read == null) {
            return ConnectionLimits.defaultsFor(InputLimits.DEFAULT.maxHistogramBins(), InputLimits.DEFAULT.maxProfileBytes());
        }
        if (limits == null) {
            return null;
        }
        final long largest = ConnectionLimits.largestLegitimateCallBytes(limits.maxHistogramBins(), limits.maxProfileBytes());
        final long configured = read.whole(ServerOption.LIMITS_MAX_GIOP_MESSAGE_BYTES);
        if (configured != GIOP_LIMIT_FROM_OTHER_LIMITS && configured < largest) {
            section.fault(ServerOption.LIMITS_MAX_GIOP_MESSAGE_BYTES.key(), String.format(java.util.Locale.ROOT,
                "%,d bytes is below the largest legitimate call, %,d bytes (max(24 × max_histogram_bins %,d, max_profile_bytes"
                    + " %,d) + 65,536): lower those limits first, or leave max_giop_message_bytes out", configured, largest,
                limits.maxHistogramBins(), limits.maxProfileBytes()));
            return null;
        }
        return new ConnectionLimits(configured == GIOP_LIMIT_FROM_OTHER_LIMITS ? largest : configured,
            read.whole(ServerOption.LIMITS_IDLE_CONNECTION_TIMEOUT_MILLIS), (int) read.whole(ServerOption.LIMITS_MAX_CONNECTIONS));
    }

    // ---- profiles -----------------------------------------------------------------------------

    /** The loaded profiles, and how many files were refused (so that a reference to one is not also "unknown"). */
    record ProfileSet(Map<String, Profile> byName, int refusedFiles) {
    }

    private ProfileSet profiles(final InputMapping top, final ProfileLimits limits) {
        final Map<String, Profile> profiles = new LinkedHashMap<>();
        final FirstPlaces<String> names = new FirstPlaces<>();
        final List<InputNode> items = top.list(ServerOption.PROFILES.key());
        int refused = 0;
        for (int i = 0; i < items.size(); i++) {
            final InputNode item = items.get(i);
            final String path = "profiles[" + i + "]";
            if (item.kind() != InputNode.Kind.SCALAR || item.text().isBlank()) {
                if (item.kind() != InputNode.Kind.INVALID) {
                    faults.at(item, path, "expected a profile file path, was " + item.describe());
                }
                continue;
            }
            final Path profileFile;
            try {
                profileFile = directory.resolve(item.text()).normalize();
            } catch (InvalidPathException e) {
                faults.at(item, path, "not a valid path: '" + item.text() + "' (" + e.getReason() + ")");
                continue;
            }
            try {
                final Profile profile = ProfileJson.read(profileFile, limits);
                final String first = names.earlier(profile.name(), path, item.line());
                if (first != null) {
                    faults.at(item, path, "'" + item.text() + "' is a second profile named '" + profile.name()
                        + "', after " + first);
                } else {
                    profiles.put(profile.name(), profile);
                }
            } catch (ProfileValidationException e) {
                refused++;
                for (final InputFault fault : e.faults()) {
                    faults.at(item, path, "profile refused: " + fault);
                }
            }
        }
        return new ProfileSet(profiles, refused);
    }

    // ---- nodes and links ----------------------------------------------------------------------

    /**
     * Nodes or links: every declared name (so that a reference to a faulty one is not also
     * reported as unknown) and those that passed every check, by name.
     *
     * @param <T> {@link NodeConfig} or {@link LinkConfig}
     */
    record NamedSet<T>(Set<String> declared, Map<String, T> valid) {
    }

    /** What a node and a link both have: where its utilisation comes from, and how to poll it. */
    private record Source(MibSource mibSource, SnmpBlockReader.Result snmp) {
    }

    /**
     * Reads what only a node or only a link has.
     *
     * @param <T> {@link NodeConfig} or {@link LinkConfig}
     */
    private interface OwnKeys<T> {
        /**
         * Reads the item's own keys, reporting their faults.
         *
         * @param name the item's name, null when missing or bad (reported)
         * @return what builds the item from its source once the whole item is known to be fault-free
         */
        Function<Source, T> read(InputMapping item, String name);
    }

    private NamedSet<NodeConfig> nodes(final InputMapping top) {
        top.require(ServerOption.NODES.key(), "nodes, " + ServerOption.NODES.doc());
        final Map<String, WorkstationType> types = new HashMap<>(Map.of("TAC-3", WorkstationType.TAC_3, "TAC-4",
            WorkstationType.TAC_4));
        final FirstPlaces<Long> ids = new FirstPlaces<>();
        return named(top, SnmpBlockReader.Owner.NODE, (node, name) -> {
            final Long id = OptionReads.requiredWhole(node, ServerOption.NODES_NODE_ID,
                "node_id, the IDL's client_node/peer_node number");
            final String typeName = node.requiredText("workstation_type", "workstation_type, e.g. TAC-4, as profiles name it");
            if (id != null) {
                final String first = ids.earlier(id, node);
                if (first != null) {
                    node.fault("node_id", "node_id " + id + " is already used by " + first);
                }
            }
            // TAC-3 and TAC-4 keep the thesis's codes; other types are numbered from 5 in order of appearance.
            final WorkstationType type = typeName == null ? null
                : types.computeIfAbsent(typeName, t -> new WorkstationType(t, nextCode(types)));
            return source -> new NodeConfig(name, id.shortValue(), type, source.mibSource(), source.snmp().access());
        });
    }

    private static int nextCode(final Map<String, WorkstationType> types) {
        return types.values().stream().mapToInt(WorkstationType::code).max().orElse(4) + 1;
    }

    private NamedSet<LinkConfig> links(final InputMapping top) {
        return named(top, SnmpBlockReader.Owner.LINK, (link, name) -> source -> new LinkConfig(name, source.mibSource(),
            source.snmp().access(), source.snmp().ifIndex(), source.snmp().speedMbps(), source.snmp().discardsOid()));
    }

    /**
     * Reads the list of nodes or links: each item's keys, its required and unique name, its own
     * keys, its {@code mib_source} and {@code snmp} block; an item is built only without faults.
     */
    private <T> NamedSet<T> named(final InputMapping top, final SnmpBlockReader.Owner owner, final OwnKeys<T> ownKeys) {
        final String word = owner.word();
        final boolean nodes = owner == SnmpBlockReader.Owner.NODE;
        final ServerOption list = nodes ? ServerOption.NODES : ServerOption.LINKS;
        final ServerOption mibSource = nodes ? ServerOption.NODES_MIB_SOURCE : ServerOption.LINKS_MIB_SOURCE;
        final Set<String> declared = new LinkedHashSet<>();
        final Map<String, T> valid = new LinkedHashMap<>();
        final FirstPlaces<String> names = new FirstPlaces<>();
        final Map<String, String> elsewhere = snmpKeysBelongInBlock(owner);
        for (final InputMapping item : top.sections(list.key())) {
            final int before = faults.count();
            OptionReads.allowOnlyOptionsOf(item, list.path() + "[]", elsewhere);
            final String name = item.requiredText("name", "name, which connections use to refer to the " + word);
            final Function<Source, T> build = ownKeys.read(item, name);
            final MibSource source = item.choice(mibSource.key(), SnmpBlockReader.MIB_SOURCES.get(mibSource.defaultString()),
                SnmpBlockReader.MIB_SOURCES);
            final SnmpBlockReader.Result snmp = snmpReader.read(item, source, owner);
            if (name != null) {
                final String first = names.earlier(name, item);
                if (first != null) {
                    item.fault("name", "a second " + word + " named '" + name + "', after " + first);
                }
                declared.add(name);
            }
            if (faults.count() == before) {
                valid.put(name, build.apply(new Source(source, snmp)));
            }
        }
        return new NamedSet<>(declared, valid);
    }

    private static Map<String, String> snmpKeysBelongInBlock(final SnmpBlockReader.Owner owner) {
        final Map<String, String> elsewhere = new HashMap<>();
        SnmpBlockReader.keys(owner).forEach(key -> elsewhere.put(key, "it belongs in the snmp block"));
        return elsewhere;
    }

}
