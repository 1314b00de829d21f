package org.latencyserver.benchmarks.stores;

import java.nio.file.Path;
import org.latencyserver.server.engine.UpdateEngine;

/**
 * One way of keeping the connection table on disk, weighed by {@code StateStoreComparisonHarness}
 * at one guarantee: once {@link #acknowledge} returns, every change the engine published before
 * survives {@code kill -9} of the process (not a power cut).
 *
 * <p>Thread-safety: confined to the thread that drives the engine.
 */
public interface ComparedStore extends AutoCloseable {

    /** @return the store's name in the harness's tables */
    String name();

    /**
     * Creates the store in an empty directory, saves the engine's whole table and listens to its changes.
     *
     * @param directory where its files go
     * @param engine    the engine whose table is kept
     * @throws Exception when it cannot be created
     */
    void open(Path directory, UpdateEngine engine) throws Exception;

    /**
     * Returns once every change published so far survives {@code kill -9}.
     *
     * @throws Exception when the change could not be saved
     */
    void acknowledge() throws Exception;

    /**
     * Reads a directory this store wrote (after a close or a kill) into a fresh engine.
     *
     * @param directory        the store's directory
     * @param engine           an engine over the same configuration
     * @param maxHistogramBins the most bins a saved histogram may have
     * @return how many connections were restored
     * @throws Exception when the files cannot be read
     */
    int restore(Path directory, UpdateEngine engine, int maxHistogramBins) throws Exception;

    /**
     * @param name {@code journal}, {@code sqlite}, {@code mvstore} or {@code mvstore-bg} (with MVStore's background thread)
     * @return a new store of that kind, not open
     */
    static ComparedStore named(final String name) {
        return switch (name) {
            case "journal" -> new JournalStore();
            case "sqlite" -> new SqliteWalStore();
            case "mvstore" -> new MvStoreStore(false);
            case "mvstore-bg" -> new MvStoreStore(true);
            default -> throw new IllegalArgumentException("no store " + name + " (journal, sqlite, mvstore, mvstore-bg)");
        };
    }
}
