package org.latencyserver.server.config;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.input.InputMapping;

/**
 * Where each value of a key that must be unique (a node's name, a connection's {@code index_ref})
 * was first written, so that a second use is reported with the place of the first, e.g.
 * {@code nodes[0] (line 4)}.
 *
 * <p>Not thread-safe: one loader, one thread.
 *
 * @param <V> the value's type
 */
final class FirstPlaces<V> {

    private final Map<V, String> places = new HashMap<>();

    /**
     * Records the value's place unless it was seen before.
     *
     * @param path the key path of where it is written now
     * @param line the line it is written on now
     * @return where it was first written, or null when this is the first time
     */
    String earlier(final V value, final String path, final int line) {
        return places.putIfAbsent(value, path + " (line " + line + ")");
    }

    /** @return as {@link #earlier(Object, String, int)}, the value written in {@code item} */
    String earlier(final V value, final InputMapping item) {
        return earlier(value, item.path(), item.node().line());
    }
}
