package org.latencyserver.benchmarks.stores;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.RecordAccess;
import org.latencyserver.server.table.ConnectionRow;

/**
 * H2's MVStore (no SQL): a map {@code index_ref → record} (the server's whole record, UTF-8 JSON
 * bytes) in {@code state.mv.db}, auto-commit off (no background writer: autoCommitDelay 0) and an
 * explicit {@link MVStore#commit} per acknowledgement, which writes a new chunk with {@code write()}
 * and forces nothing: it survives {@code kill -9} but not a power cut — the journal's guarantee.
 * With {@code housekeeping}, MVStore's background thread runs too (its default auto-commit delay,
 * 1 s): it commits nothing that was not committed already, but it is what frees and rewrites old
 * chunks, without which the file only grows.
 */
final class MvStoreStore implements ComparedStore {

    private static final String MAP = "connections";

    private final boolean housekeeping;

    private final ChangedRows changed = new ChangedRows();
    private MVStore store;
    private MVMap<Integer, byte[]> records;

    /** @param housekeeping whether MVStore's background thread runs (it frees and rewrites old chunks) */
    MvStoreStore(final boolean housekeeping) {
        this.housekeeping = housekeeping;
    }

    @Override
    public String name() {
        return housekeeping ? "mvstore-bg" : "mvstore";
    }

    private MVStore openFile(final Path directory) {
        final MVStore.Builder builder = new MVStore.Builder().fileName(directory.resolve("state.mv.db").toString());
        return (housekeeping ? builder : builder.autoCommitDisabled()).open();
    }

    @Override
    public void open(final Path directory, final UpdateEngine engine) {
        store = openFile(directory);
        records = store.openMap(MAP);
        save(engine.table().rows());
        engine.addListener(changed);
    }

    @Override
    public void acknowledge() {
        save(changed.take());
    }

    private void save(final List<ConnectionRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        for (final ConnectionRow row : rows) {
            records.put((int) row.spec().indexRef(), RecordAccess.wholeRecord(row));
        }
        store.commit();
    }

    @Override
    public int restore(final Path directory, final UpdateEngine engine, final int maxHistogramBins) {
        try (MVStore reader = openFile(directory)) {
            final MVMap<Integer, byte[]> saved = reader.openMap(MAP);
            return RecordAccess.restoreInto(engine, new ArrayList<>(saved.values()), maxHistogramBins, 0);
        }
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
