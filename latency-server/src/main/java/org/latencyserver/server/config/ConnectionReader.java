package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * Reads the {@code connections:} list and checks each connection against the nodes, links and
 * profiles: references resolve, client and peer differ, {@code index_ref} is unique, the bound
 * is given exactly for QoS 2 and 4, QoS 1 and 2 have a profile, and a connection's profile fits it
 * ({@link ProfileFit}: for the client's workstation type, with histograms for QoS 2).
 *
 * <p>Not thread-safe: one loader, one thread.
 */
final class ConnectionReader {

    private final InputFaults faults;
    private final NodeLinkReader.NamedSet<NodeConfig> nodes;
    private final NodeLinkReader.NamedSet<LinkConfig> links;
    private final ConfigurationLoader.ProfileSet profiles;

    ConnectionReader(final InputFaults faults, final NodeLinkReader.NamedSet<NodeConfig> nodes, final NodeLinkReader.NamedSet<LinkConfig> links,
                     final ConfigurationLoader.ProfileSet profiles) {
        this.faults = faults;
        this.nodes = nodes;
        this.links = links;
        this.profiles = profiles;
    }

    /** @return the connections that passed every check, in file order */
    List<ConnectionSpec> read(final InputMapping top) {
        top.require(ServerOption.CONNECTIONS.key(), "connections, " + ServerOption.CONNECTIONS.doc());
        final List<ConnectionSpec> connections = new ArrayList<>();
        final FirstPlaces<Long> indexRefs = new FirstPlaces<>();
        for (final InputMapping c : top.sections("connections")) {
            final int before = faults.count();
            OptionReads.allowOnlyOptionsOf(c, "connections[]");
            final Long indexRef = required(c, ServerOption.CONNECTIONS_INDEX_REF);
            if (indexRef != null) {
                final String first = indexRefs.earlier(indexRef, c);
                if (first != null) {
                    c.fault("index_ref", "index_ref " + indexRef + " is already used by " + first);
                }
            }
            final NodeConfig client = node(c, "client");
            final NodeConfig peer = node(c, "peer");
            if (c.has("client") && c.has("peer") && c.text("client", "").equals(c.text("peer", null))) {
                c.fault("peer", "client and peer are both '" + c.text("peer", "") + "': a connection joins two different workstations");
            }
            final List<LinkConfig> path = links(c);
            final Long size = required(c, ServerOption.CONNECTIONS_MESSAGE_SIZE_BYTES);
            final Long qosLevel = required(c, ServerOption.CONNECTIONS_QOS);
            final Qos qos = qosLevel == null ? null : Qos.ofLevel(qosLevel.intValue());
            final double bound = bound(c, qos);
            final String profile = profile(c, qos, client);
            final CalibrationMode calibration = calibration(c);
            final Double probeRate = OptionReads.decimal(c, ServerOption.CONNECTIONS_PROBE_RATE_PER_SECOND);
            // A node or link with faults of its own is not built; its connections cannot be either.
            final BoundMethod pathBound = pathBound(c);
            final Optional<TrafficShape> traffic = traffic(c, indexRef);
            final boolean partsBuilt = client != null && peer != null && path != null;
            if (faults.count() == before && partsBuilt) {
                connections.add(ConnectionSpecs.of(indexRef.shortValue(), client, peer, path, size.intValue(), qos.level(),
                    bound, profile, calibration, probeRate, pathBound, traffic));
            }
        }
        return connections;
    }

    /** @return a required whole number within the option's range, or null when missing or bad (reported) */
    private static Long required(final InputMapping c, final ServerOption option) {
        return OptionReads.requiredWhole(c, option, option.key() + ", " + option.doc());
    }

    private CalibrationMode calibration(final InputMapping c) {
        final String mode = OptionReads.text(c, ServerOption.CONNECTIONS_CALIBRATION);
        for (final CalibrationMode known : CalibrationMode.values()) {
            if (known.configName().equals(mode)) {
                return known;
            }
        }
        c.fault("calibration", "must be 'adaptive' (serve values corrected so they hold for the messages that follow) "
            + "or 'thesis' (serve the thesis's values unchanged), was '" + mode + "'");
        return null;
    }

    /**
     * {@code traffic:}, the application's traffic shape: absent, or all four keys, each within its range; faults name
     * the connection (its index_ref when known, and its place in the list) and the key.
     *
     * @return the shape, empty when none is declared; empty too when the block has faults (reported)
     */
    private Optional<TrafficShape> traffic(final InputMapping c, final Long indexRef) {
        if (!c.has(ServerOption.CONNECTIONS_TRAFFIC.key())) {
            return Optional.empty();
        }
        final InputMapping block = c.section(ServerOption.CONNECTIONS_TRAFFIC.key());
        if (block == null) {
            return Optional.empty(); // not a mapping: reported
        }
        final String connection = "connection " + (indexRef == null ? "at " + c.path() : indexRef) + ": ";
        OptionReads.allowOnlyOptionsOf(block, "connections[].traffic");
        final Long spacing = trafficWhole(block, ServerOption.CONNECTIONS_TRAFFIC_SPACING_MICROS, connection,
            "the start-to-start spacing of a burst's messages, µs");
        final Long burst = trafficWhole(block, ServerOption.CONNECTIONS_TRAFFIC_BURST_ROUND_TRIPS, connection,
            "the messages per burst");
        final Long pause = trafficWhole(block, ServerOption.CONNECTIONS_TRAFFIC_PAUSE_MILLIS, connection,
            "the pause after a burst, ms");
        CallKind call = null;
        final String callKey = ServerOption.CONNECTIONS_TRAFFIC_CALL.key();
        if (block.require(callKey, connection + "traffic.call, octets or arrays: the call the application makes")) {
            final String word = block.text(callKey, null);
            call = word == null ? null : CallKind.fromWord(word).orElse(null);
            if (word != null && call == null) {
                block.fault(callKey, connection + "traffic.call must be 'octets' (EchoPeer.echo with an octet sequence) or"
                    + " 'arrays' (the thesis's fm1 array calls), was '" + word + "'");
            }
        }
        if (spacing == null || burst == null || pause == null || call == null) {
            return Optional.empty();
        }
        return Optional.of(new TrafficShape(spacing, burst.intValue(), pause, call));
    }

    private static Long trafficWhole(final InputMapping block, final ServerOption option, final String connection,
                                     final String what) {
        final OptionValues.Whole range = option.whole();
        if (!block.require(option.key(), connection + "traffic." + option.key() + ", " + what + ", " + range.describe())) {
            return null;
        }
        final Long value = block.integer(option.key(), null, Long.MIN_VALUE, Long.MAX_VALUE);
        if (value != null && (value < range.minimum() || value > range.maximum())) {
            block.fault(option.key(), connection + "traffic." + option.key() + " must be " + range.describe() + " (" + what
                + "), was " + value);
            return null;
        }
        return value;
    }

    private NodeConfig node(final InputMapping c, final String key) {
        final String name = c.requiredText(key, key + ", the name of a node");
        if (name == null) {
            return null;
        }
        if (!nodes.declared().contains(name)) {
            c.fault(key, "unknown node '" + name + "'; " + (nodes.declared().isEmpty() ? "there are no nodes"
                : "the nodes are " + String.join(", ", nodes.declared())));
        }
        return nodes.valid().get(name);
    }

    /**
     * @return the links of {@code link} or {@code links}, in path order (empty for none), or null when one has faults of
     *         its own or is unknown (reported)
     */
    private List<LinkConfig> links(final InputMapping c) {
        if (c.has("link") && c.has("links")) {
            c.fault("links", "give either link (one switch port) or links (a path's ports in order), not both");
            return null;
        }
        if (!c.has("links")) {
            final String name = c.text("link", null);
            if (name == null) {
                return c.has("link") ? null : List.of();
            }
            final LinkConfig link = link(c, "link", name);
            return link == null ? null : List.of(link);
        }
        final List<InputNode> items = c.list("links");
        if (items.isEmpty()) {
            c.fault("links", "a path needs at least one link; without a switch port leave links out");
            return null;
        }
        if (items.size() > ConnectionSpec.MAX_HOPS) {
            c.fault("links", "a path crosses at most " + ConnectionSpec.MAX_HOPS + " switch ports, had " + items.size());
            return null;
        }
        final List<LinkConfig> path = new ArrayList<>();
        boolean built = true;
        for (int i = 0; i < items.size(); i++) {
            final InputNode item = items.get(i);
            final String where = "links[" + i + "]";
            if (item.kind() != InputNode.Kind.SCALAR || item.text() == null || item.text().isBlank()) {
                c.fault("links", where + ": expected a link's name, found " + item.describe());
                built = false;
                continue;
            }
            final String name = item.text();
            if (path.stream().anyMatch(known -> known.name().equals(name))) {
                c.fault("links", where + ": link '" + name + "' is already on the path: a path crosses a port once");
                built = false;
                continue;
            }
            final LinkConfig link = link(c, "links", name);
            if (link == null) {
                built = false;
                continue;
            }
            if (items.size() > 1 && link.mibSource() != MibSource.SNMP) {
                c.fault("links", where + ": link '" + name + "' is pushed (mib_source: push), but each port of a path of"
                    + " several is polled: PutMibUpdates carries one port value per connection");
                built = false;
                continue;
            }
            path.add(link);
        }
        return built ? path : null;
    }

    private LinkConfig link(final InputMapping c, final String key, final String name) {
        if (!links.declared().contains(name)) {
            c.fault(key, "unknown link '" + name + "'; " + (links.declared().isEmpty() ? "there are no links"
                : "the links are " + String.join(", ", links.declared())));
        }
        return links.valid().get(name);
    }

    private BoundMethod pathBound(final InputMapping c) {
        final String word = OptionReads.text(c, ServerOption.CONNECTIONS_PATH_BOUND);
        if ("union".equals(word)) {
            return BoundMethod.UNION;
        }
        if ("independent".equals(word)) {
            return BoundMethod.INDEPENDENT;
        }
        c.fault("path_bound", "must be 'union' (holds whatever the dependence between hops) or 'independent' (tighter;"
            + " assumes the hops' delays independent), was '" + word + "'");
        return BoundMethod.UNION;
    }

    private double bound(final InputMapping c, final Qos qos) {
        final boolean servesBound = qos != null && qos.needsBoundPercent();
        if (qos != null && !servesBound) {
            if (c.value("bound_percent") != null) {
                c.fault("bound_percent", "QoS " + qos.level() + " serves an average, not a bound: remove bound_percent (was "
                    + c.value("bound_percent").describe() + "), or use QoS " + qos.withBound().level());
            }
            return 0;
        }
        if (servesBound && !c.require("bound_percent", "QoS " + qos.level() + " serves a bound, so bound_percent is required: "
            + "the share of messages the bound covers, in (0, 100], e.g. 96")) {
            return 0;
        }
        final Double bound = OptionReads.decimal(c, ServerOption.CONNECTIONS_BOUND_PERCENT, 0.0);
        return bound == null ? 0 : bound;
    }

    private String profile(final InputMapping c, final Qos qos, final NodeConfig client) {
        final boolean fromProfile = qos != null && qos.needsProfile();
        if (fromProfile && !c.require("profile", "QoS " + qos.level() + " is served from a profile, so profile is required; "
            + loadedProfiles())) {
            return null;
        }
        final String name = c.text("profile", null);
        if (name == null) {
            return null;
        }
        final Profile profile = profiles.byName().get(name);
        if (profile == null) {
            c.fault("profile", "unknown profile '" + name + "'; " + loadedProfiles()
                + (profiles.refusedFiles() > 0 ? " (" + profiles.refusedFiles() + " profile file(s) were refused, see above)" : ""));
            return name;
        }
        // The same checks load_profile and a restart run on a profile loaded into the server.
        ProfileFit.reasons(profile, qos, client == null ? null : client.name(),
            client == null ? null : client.workstationType().name()).forEach(reason -> c.fault("profile", reason));
        return name;
    }

    private String loadedProfiles() {
        return profiles.byName().isEmpty() ? "no profiles are loaded (list their files under profiles:)"
            : "the loaded profiles are " + String.join(", ", profiles.byName().keySet());
    }
}
