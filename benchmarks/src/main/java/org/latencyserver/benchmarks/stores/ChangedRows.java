package org.latencyserver.benchmarks.stores;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The rows changed since the last save, newest row per connection: what an embedded store upserts
 * at the next acknowledgement.
 *
 * <p>Thread-safety: not thread-safe; the harness publishes and saves on one thread.
 */
final class ChangedRows implements EngineListener {

    private final Map<Short, ConnectionRow> changed = new LinkedHashMap<>();

    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        changed.put(after.spec().indexRef(), after);
    }

    /** @return the changed rows, in the order first changed; forgets them */
    List<ConnectionRow> take() {
        final List<ConnectionRow> rows = new ArrayList<>(changed.values());
        changed.clear();
        return rows;
    }
}
