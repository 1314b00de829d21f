package org.latencyserver.server.persistence;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputNode;

/**
 * The connections whose saved records a restore found damaged and set aside: each starts from the
 * configuration, every other connection is restored. A record is set aside alone only when it names
 * its connection (an {@code index_ref} read from the record, or for a line that is no JSON object,
 * from the line's text as every record begins); a damaged record naming none damages its file whole.
 *
 * <p>Once a connection is set aside, its later journal lines are skipped too: a line abbreviates
 * against the connection's previous record, which may be the damaged one.
 *
 * <p>Not thread-safe: used by the starting thread during one restore.
 */
final class DamagedRecords {

    /** How every record begins, as the codec writes it: its connection's number first. */
    private static final Pattern INDEX_REF_FIRST = Pattern.compile("^\\s*\\{\\s*\"index_ref\"\\s*:\\s*(\\d{1,5})\\s*[,}]");

    /** The first fault of each set-aside connection, in the order found. */
    private final Map<Short, InputFault> faults = new LinkedHashMap<>();

    /**
     * @param record a record that failed to decode
     * @return its connection's {@code index_ref}, when it holds a whole number in the range of a short
     */
    static Optional<Short> indexRefOf(final InputNode record) {
        try {
            return shortOf(LenientJson.requiredInt(record, "index_ref"));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /**
     * @param line a journal line that is no JSON object
     * @return the {@code index_ref} it begins with, as every record does; empty when it does not
     */
    static Optional<Short> indexRefOfText(final String line) {
        final Matcher matcher = INDEX_REF_FIRST.matcher(line);
        return matcher.find() ? shortOf(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }

    private static Optional<Short> shortOf(final int value) {
        return value < Short.MIN_VALUE || value > Short.MAX_VALUE ? Optional.empty() : Optional.of((short) value);
    }

    /**
     * @param indexRef the connection whose record is damaged
     * @param fault    what is wrong, with its place; only a connection's first fault is kept
     */
    void setAside(final short indexRef, final InputFault fault) {
        faults.putIfAbsent(indexRef, fault);
    }

    /** @return whether the connection's saved records are set aside */
    boolean isSetAside(final short indexRef) {
        return faults.containsKey(indexRef);
    }

    boolean isEmpty() {
        return faults.isEmpty();
    }

    /** @return the set-aside connections and their first faults, in the order found (a read-only view) */
    Map<Short, InputFault> faults() {
        return Collections.unmodifiableMap(faults);
    }

    /** @return each set-aside connection's fault, {@code source:line:column: path: reason}, one a line, in the order found */
    String describe() {
        return faults.values().stream().map(InputFault::toString).collect(Collectors.joining(System.lineSeparator()));
    }

    /** @return the set-aside connections' numbers, e.g. {@code 3, 7} */
    String connections() {
        return faults.keySet().stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
