package org.latencyserver.agent.probe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.ConnectionInfo;

/**
 * Picks, from the server's connection list, the connections this agent probes: those of a client
 * node it measures for, with a probe rate above 0, and the traffic shape it declares. A connection
 * whose values make no sense (a rate that is negative, NaN or absurdly high, a message size out of
 * range, no peer, a declared shape outside its ranges) is left out with the reason, never guessed at:
 * the server is another process and may be of another version.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProbeTargets {

    /**
     * Highest probe rate taken, round trips per second. Probing is meant to be light (a few to a
     * few tens per second); a thousand a second already keeps a core measurably busy and would
     * disturb the path it measures, so a higher rate is taken for a configuration error.
     */
    public static final double MAX_RATE_PER_SECOND = 1_000;

    /** Largest probe message, bytes: the server's own limit for a connection's message size. */
    public static final int MAX_MESSAGE_SIZE_BYTES = Short.MAX_VALUE;

    private ProbeTargets() {
    }

    /**
     * What to probe, and why some connections were left out.
     *
     * @param targets  the connections to probe, in the server's order
     * @param problems one line per connection left out for bad values, each starting "connection N"
     */
    public record Selection(List<ProbeTarget> targets, List<String> problems) {
        /** Copies both lists. */
        public Selection {
            targets = List.copyOf(targets);
            problems = List.copyOf(problems);
        }
    }

    /**
     * @param connections from {@code list_connections()}; null entries are skipped
     * @param measuresFor whether this agent measures for a client node
     * @return the connections to probe and the problems found
     */
    public static Selection select(final ConnectionInfo[] connections, final Predicate<String> measuresFor) {
        final List<ProbeTarget> targets = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        final Set<Short> seen = new HashSet<>();
        for (final ConnectionInfo info : connections) {
            if (info == null) {
                continue;
            }
            final String where = "connection " + info.index_ref;
            if (blank(info.client_node_name)) {
                // measuresFor cannot be asked about no node; a connection without a client is no one's.
                problems.add(where + ": no client node; not probed");
                continue;
            }
            if (!measuresFor.test(info.client_node_name)) {
                continue; // another node's agent probes it
            }
            final double rate = info.probe_rate_per_second;
            if (Double.isNaN(rate) || rate < 0 || Double.isInfinite(rate)) {
                problems.add(where + ": probe rate " + rate + " per second is not a rate (finite and >= 0); not probed");
                continue;
            }
            if (rate == 0) {
                continue; // probing switched off for this connection
            }
            if (rate > MAX_RATE_PER_SECOND) {
                problems.add(String.format(Locale.ROOT, "%s: probe rate %.1f per second is above the %.0f per second a light probe"
                    + " may send; not probed", where, rate, MAX_RATE_PER_SECOND));
                continue;
            }
            if (info.message_size_bytes < 1 || info.message_size_bytes > MAX_MESSAGE_SIZE_BYTES) {
                problems.add(where + ": message size " + info.message_size_bytes + " B is outside 1.." + MAX_MESSAGE_SIZE_BYTES
                    + " B; not probed");
                continue;
            }
            if (blank(info.peer_node_name)) {
                problems.add(where + ": no peer node; not probed");
                continue;
            }
            if (!seen.add(info.index_ref)) {
                problems.add(where + ": listed twice; only the first is probed");
                continue;
            }
            final Optional<TrafficShape> traffic;
            try {
                traffic = traffic(info);
            } catch (IllegalArgumentException e) {
                problems.add(where + ": declared traffic is not a shape (" + e.getMessage() + "); not probed");
                continue;
            }
            targets.add(new ProbeTarget(info.index_ref, info.client_node_name, info.peer_node_name, info.message_size_bytes, rate,
                traffic));
        }
        return new Selection(targets, problems);
    }

    /**
     * @return the declared shape, empty when none is declared
     * @throws IllegalArgumentException when the declared shape is missing or outside its ranges, naming the field
     */
    private static Optional<TrafficShape> traffic(final ConnectionInfo info) {
        if (!info.traffic_declared) {
            return Optional.empty();
        }
        if (info.traffic == null) {
            throw new IllegalArgumentException("traffic missing");
        }
        final CallKind call = CallKind.fromWireCode(info.traffic.call)
            .orElseThrow(() -> new IllegalArgumentException("traffic.call " + info.traffic.call + " is not 1 (octets) or 2 (arrays)"));
        return Optional.of(new TrafficShape(info.traffic.spacing_micros, info.traffic.burst_round_trips, info.traffic.pause_millis,
            call));
    }

    private static boolean blank(final String text) {
        return text == null || text.isBlank();
    }
}
