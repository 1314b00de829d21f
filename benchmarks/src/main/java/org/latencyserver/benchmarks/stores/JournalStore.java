package org.latencyserver.benchmarks.stores;

import java.io.IOException;
import java.nio.file.Path;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.launch.ServerContext;
import org.latencyserver.server.persistence.StateStore;

/**
 * The server's own state store, driven as the server drives it: a listener of the engine, started
 * with the server's flush interval, each acknowledgement a {@link StateStore#awaitSaved}.
 */
final class JournalStore implements ComparedStore {

    private static final long SAVE_TIMEOUT_MILLIS = 10_000;

    private StateStore store;

    @Override
    public String name() {
        return "journal";
    }

    private static Path stateFile(final Path directory) {
        return directory.resolve("state.json");
    }

    @Override
    public void open(final Path directory, final UpdateEngine engine) {
        store = new StateStore(stateFile(directory), engine.table(), engine.limits().maxHistogramBins());
        engine.addListener(store);
        store.start(ServerContext.DEFAULT_STATE_FLUSH_INTERVAL_MILLIS);
    }

    @Override
    public void acknowledge() throws IOException {
        if (!store.awaitSaved(SAVE_TIMEOUT_MILLIS)) {
            throw new IOException("the state store did not save within " + SAVE_TIMEOUT_MILLIS + " ms");
        }
    }

    @Override
    public int restore(final Path directory, final UpdateEngine engine, final int maxHistogramBins) throws IOException {
        try (StateStore reader = new StateStore(stateFile(directory), engine.table(), maxHistogramBins)) {
            final int restored = reader.restoreInto(engine, 0);
            if (reader.refusedBecause() != null) {
                throw new IOException("the saved state was refused: " + reader.refusedBecause());
            }
            return restored;
        }
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
