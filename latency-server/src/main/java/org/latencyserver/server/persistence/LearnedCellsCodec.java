package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.state.CpuStatePair;

/**
 * A change of the profile cells learned from live probes ({@link LearnedCell}), as a primary sends
 * it to its standby ({@link Change}): one JSON object, UTF-8,
 * {@code {"whole": false, "profiles": {"<profile name>": [cell, ...]}, "replaced": ["<profile name>", ...],
 * "removed": ["<profile name>", ...]}}: the cells new or changed since the standby's last
 * acknowledgement, merged into its own — or, for the profiles {@code replaced} names, replacing
 * them, and for {@code whole}, replacing everything; {@code removed} profiles' cells are dropped.
 * Each cell
 * {@code {"cpu": 12, "size_bytes": 256, "upper_edges_nanos": [...], "decayed_counts": [...],
 * "decayed_overflow": d, "decayed_sum_millis": d, "decayed_sum_squares_millis": d,
 * "round_trips": n, "max_millis": d, "first_epoch_millis": n, "last_epoch_millis": n}}
 * ({@code cpu} is the pair's IDL code, 10 × client + peer). Doubles are written in their shortest
 * exact form, so a decoded cell equals the encoded one.
 *
 * <p>Stateless and thread-safe.
 */
public final class LearnedCellsCodec {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The most profiles, and the most cells per profile, one message may carry. */
    static final int MAX_ENTRIES = 10_000;

    private LearnedCellsCodec() {
    }

    /**
     * What changed in the learned cells between two of an engine's snapshots, found by identity: the engine replaces a
     * profile's map, and a cell, only when it changes.
     *
     * <p>Immutable and thread-safe.
     *
     * @param whole    whether {@code cells} is everything (replacing all a standby has)
     * @param cells    the cells new or changed, by profile name
     * @param replaced profiles whose cells in {@code cells} replace the standby's (one of theirs was dropped)
     * @param removed  profiles whose cells are dropped
     */
    public record Change(boolean whole, Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> cells,
                         java.util.Set<String> replaced, java.util.Set<String> removed) {

        /**
         * @param sent the snapshot the standby acknowledged last, or null when it has none
         * @param now  the engine's snapshot now
         * @return what to send; {@link #isEmpty()} when nothing changed
         */
        public static Change between(final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> sent,
                                     final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> now) {
            if (sent == null) {
                return new Change(true, now, java.util.Set.of(), java.util.Set.of());
            }
            final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> cells = new HashMap<>();
            final java.util.Set<String> replaced = new java.util.HashSet<>();
            now.forEach((name, profileCells) -> {
                final Map<LearnedProfiles.CellKey, LearnedCell> before = sent.get(name);
                if (before == profileCells) {
                    return;
                }
                if (before == null || !profileCells.keySet().containsAll(before.keySet())) {
                    cells.put(name, profileCells);
                    replaced.add(name);
                    return;
                }
                final Map<LearnedProfiles.CellKey, LearnedCell> changed = new HashMap<>();
                profileCells.forEach((key, cell) -> {
                    if (before.get(key) != cell) {
                        changed.put(key, cell);
                    }
                });
                if (!changed.isEmpty()) {
                    cells.put(name, changed);
                }
            });
            final java.util.Set<String> removed = new java.util.HashSet<>(sent.keySet());
            removed.removeAll(now.keySet());
            return new Change(false, cells, replaced, removed);
        }

        /** @return whether it changes nothing */
        public boolean isEmpty() {
            return !whole && cells.isEmpty() && removed.isEmpty();
        }

        /**
         * @param current a standby's learned cells
         * @return them with this change applied, immutable
         */
        public Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> applyTo(
            final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> current) {
            final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> next = new HashMap<>(whole ? Map.of() : current);
            removed.forEach(next::remove);
            cells.forEach((name, changed) -> {
                final Map<LearnedProfiles.CellKey, LearnedCell> merged =
                    new HashMap<>(whole || replaced.contains(name) ? Map.of() : next.getOrDefault(name, Map.of()));
                merged.putAll(changed);
                next.put(name, Map.copyOf(merged));
            });
            return Map.copyOf(next);
        }
    }

    /**
     * @param change what changed in the learned cells
     * @return its JSON form
     */
    public static byte[] encode(final Change change) {
        final ObjectNode root = MAPPER.createObjectNode();
        root.put("whole", change.whole());
        final ObjectNode profiles = root.putObject("profiles");
        change.cells().forEach((name, cells) -> {
            final ArrayNode list = profiles.putArray(name);
            cells.values().forEach(cell -> list.add(encode(cell)));
        });
        final ArrayNode replaced = root.putArray("replaced");
        change.replaced().forEach(replaced::add);
        final ArrayNode removed = root.putArray("removed");
        change.removed().forEach(removed::add);
        try {
            return MAPPER.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException("the learned cells could not be written as JSON: " + e.getMessage(), e);
        }
    }

    private static ObjectNode encode(final LearnedCell cell) {
        final ObjectNode n = MAPPER.createObjectNode();
        n.put("cpu", cell.cpuStates().code());
        n.put("size_bytes", cell.messageSizeBytes());
        final ArrayNode edges = n.putArray("upper_edges_nanos");
        for (final long edge : cell.upperEdgesNanos()) {
            edges.add(edge);
        }
        final ArrayNode counts = n.putArray("decayed_counts");
        for (final double count : cell.decayedCounts()) {
            counts.add(count);
        }
        n.put("decayed_overflow", cell.decayedOverflow());
        n.put("decayed_sum_millis", cell.decayedSumMillis());
        n.put("decayed_sum_squares_millis", cell.decayedSumSquaresMillis());
        n.put("round_trips", cell.roundTrips());
        n.put("max_millis", cell.maxMillis());
        n.put("first_epoch_millis", cell.firstEpochMillis());
        n.put("last_epoch_millis", cell.lastEpochMillis());
        return n;
    }

    /**
     * @param json    what {@link #encode} wrote
     * @param maxBins the most bins a cell may have
     * @return the change, its maps and sets immutable
     * @throws IllegalArgumentException naming the profile, the cell and the field at fault
     */
    public static Change decode(final byte[] json, final int maxBins) {
        final JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the primary's learned cells are not JSON: " + e.getMessage(), e);
        }
        final JsonNode profiles = root == null ? null : root.get("profiles");
        if (profiles == null || !profiles.isObject() || profiles.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("the primary's learned cells: \"profiles\" must be an object of at most "
                + MAX_ENTRIES + " profiles");
        }
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned = new HashMap<>();
        for (final var entry : (Iterable<Map.Entry<String, JsonNode>>) profiles::fields) {
            final JsonNode list = entry.getValue();
            if (!list.isArray() || list.size() > MAX_ENTRIES) {
                throw new IllegalArgumentException("the primary's learned cells of profile " + entry.getKey()
                    + ": must be a list of at most " + MAX_ENTRIES + " cells");
            }
            final Map<LearnedProfiles.CellKey, LearnedCell> cells = new HashMap<>();
            int index = 0;
            for (final JsonNode n : list) {
                final String where = "the primary's learned cell " + index++ + " of profile " + entry.getKey();
                final LearnedCell cell = decodeCell(n, maxBins, where);
                cells.put(new LearnedProfiles.CellKey(cell.cpuStates(), cell.messageSizeBytes()), cell);
            }
            learned.put(entry.getKey(), Map.copyOf(cells));
        }
        final JsonNode whole = root.get("whole");
        if (whole == null || !whole.isBoolean()) {
            throw new IllegalArgumentException("the primary's learned cells: \"whole\" must be true or false");
        }
        return new Change(whole.booleanValue(), Map.copyOf(learned), names(root, "replaced"), names(root, "removed"));
    }

    private static java.util.Set<String> names(final JsonNode root, final String field) {
        final JsonNode list = root.get(field);
        if (list == null || !list.isArray() || list.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("the primary's learned cells: \"" + field + "\" must be a list of at most "
                + MAX_ENTRIES + " profile names");
        }
        final java.util.Set<String> names = new java.util.HashSet<>();
        for (final JsonNode name : list) {
            if (!name.isTextual()) {
                throw new IllegalArgumentException("the primary's learned cells: \"" + field + "\" holds a non-name " + name);
            }
            names.add(name.textValue());
        }
        return java.util.Set.copyOf(names);
    }

    private static LearnedCell decodeCell(final JsonNode n, final int maxBins, final String where) {
        final CpuStatePair pair;
        try {
            pair = CpuStatePair.fromCode((int) integral(n, "cpu", where));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        final long size = integral(n, "size_bytes", where);
        if (size < 1 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(where + ": size_bytes " + size + " is not a message size");
        }
        final JsonNode edgesNode = n.get("upper_edges_nanos");
        final JsonNode countsNode = n.get("decayed_counts");
        if (edgesNode == null || !edgesNode.isArray() || countsNode == null || !countsNode.isArray()
            || edgesNode.size() != countsNode.size() || edgesNode.isEmpty() || edgesNode.size() > maxBins) {
            throw new IllegalArgumentException(where + ": upper_edges_nanos and decayed_counts must be lists of the same"
                + " length, 1 to " + maxBins);
        }
        final long[] edges = new long[edgesNode.size()];
        final double[] counts = new double[countsNode.size()];
        for (int i = 0; i < edges.length; i++) {
            final JsonNode edge = edgesNode.get(i);
            if (!edge.canConvertToLong() || !edge.isIntegralNumber() || edge.asLong() < 1
                || i > 0 && edge.asLong() <= edges[i - 1]) {
                throw new IllegalArgumentException(where + ": upper_edges_nanos[" + i + "] must be a positive whole number"
                    + " above the one before");
            }
            edges[i] = edge.asLong();
            counts[i] = nonNegative(countsNode.get(i), "decayed_counts[" + i + "]", where);
        }
        final long roundTrips = integral(n, "round_trips", where);
        final long first = integral(n, "first_epoch_millis", where);
        final long last = integral(n, "last_epoch_millis", where);
        if (roundTrips < 0 || first < 0 || last < first) {
            throw new IllegalArgumentException(where + ": round_trips, first_epoch_millis and last_epoch_millis must be"
                + " non-negative, the last not before the first");
        }
        return new LearnedCell(pair.canonical(), (int) size, edges, counts, nonNegative(n.get("decayed_overflow"),
            "decayed_overflow", where), nonNegative(n.get("decayed_sum_millis"), "decayed_sum_millis", where),
            nonNegative(n.get("decayed_sum_squares_millis"), "decayed_sum_squares_millis", where), roundTrips,
            nonNegative(n.get("max_millis"), "max_millis", where), first, last);
    }

    private static long integral(final JsonNode n, final String field, final String where) {
        final JsonNode value = n.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException(where + ": " + field + " must be a whole number");
        }
        return value.asLong();
    }

    private static double nonNegative(final JsonNode value, final String field, final String where) {
        if (value == null || !value.isNumber() || !Double.isFinite(value.asDouble()) || value.asDouble() < 0) {
            throw new IllegalArgumentException(where + ": " + field + " must be a finite number, not negative");
        }
        return value.asDouble();
    }
}
