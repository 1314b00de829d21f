package org.latencyserver.server.config;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileLimits;
import org.latencyserver.core.profile.ProfileValidationException;
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
 * <p>Each section has its reader ({@link ServerSectionReader}, {@link ThresholdsReader}, {@link NodeLinkReader},
 * {@link ConnectionReader}, {@link SecurityReader}); this class reads the file, hands each reader its section, and
 * checks what spans sections (limits, profiles, the probes' share of the measurement budget).
 *
 * <p>One instance reads one file; {@link #load} is safe to call from any thread.
 */
public final class ConfigurationLoader {

    private final Path file;
    private final Path directory;
    private final InputFaults faults;

    private ConfigurationLoader(final Path file) {
        this.file = file.toAbsolutePath().normalize();
        this.directory = this.file.getParent();
        this.faults = new InputFaults(file.toString());
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

        final ServerSettings server = new ServerSectionReader(file, directory).read(top.section("server"));
        final Thresholds thresholds = ThresholdsReader.read(top.section("thresholds"), faults);
        final MeasurementSettings measurement = measurement(top.section("measurement"));
        final InputMapping limitsSection = top.section("limits");
        final NumberBlock limitsRead = limitsSection == null ? null : NumberBlock.read(limitsSection, "limits",
            Map.of(ServerOption.LIMITS_MAX_GIOP_MESSAGE_BYTES, GIOP_LIMIT_FROM_OTHER_LIMITS));
        final InputLimits limits = limits(limitsRead);
        final ConnectionLimits connectionLimits = connectionLimits(limitsSection, limitsRead, limits);
        // Profiles are read within the limits; with faulty limits (reported) within the defaults.
        final ProfileSet profiles = profiles(top, (limits == null ? InputLimits.DEFAULT : limits).profileLimits());
        final NodeLinkReader nodeLinks = new NodeLinkReader(faults);
        final NodeLinkReader.NamedSet<NodeConfig> nodes = nodeLinks.nodes(top);
        final NodeLinkReader.NamedSet<LinkConfig> links = nodeLinks.links(top);
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


}
