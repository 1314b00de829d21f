package org.latencyserver.server.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The connection table: one published {@link ConnectionRow} per connection.
 *
 * <p>Thread-safety: single writer, many readers. Only the update thread calls {@link #publish};
 * it swaps a row in atomically (a volatile write). Readers — {@code RequestStatus} and every
 * other call — look the row up by {@code index_ref} through an array built once at start-up and
 * read it without locks or allocation.
 */
public final class ConnectionTable {

    private final int[] slotByIndexRef;
    private final AtomicReferenceArray<ConnectionRow> rows;
    private final short[] indexRefs;

    /**
     * @param initialRows one row per connection, with distinct {@code index_ref}s
     * @throws IllegalArgumentException when an {@code index_ref} repeats
     */
    public ConnectionTable(final List<ConnectionRow> initialRows) {
        slotByIndexRef = new int[Short.MAX_VALUE + 1];
        Arrays.fill(slotByIndexRef, -1);
        rows = new AtomicReferenceArray<>(initialRows.size());
        indexRefs = new short[initialRows.size()];
        for (int slot = 0; slot < initialRows.size(); slot++) {
            final ConnectionRow row = initialRows.get(slot);
            final short indexRef = row.spec().indexRef();
            if (slotByIndexRef[indexRef] != -1) {
                throw new IllegalArgumentException("index_ref " + indexRef + " is used twice");
            }
            slotByIndexRef[indexRef] = slot;
            indexRefs[slot] = indexRef;
            rows.set(slot, row);
        }
    }

    /**
     * Lock-free and allocation-free.
     *
     * @param indexRef any value
     * @return the published row, or null when no connection has this {@code index_ref}
     */
    public ConnectionRow row(final short indexRef) {
        if (indexRef < 1) {
            return null;
        }
        final int slot = slotByIndexRef[indexRef];
        return slot < 0 ? null : rows.get(slot);
    }

    /**
     * Update thread only.
     *
     * @param row the new row of a known connection
     */
    public void publish(final ConnectionRow row) {
        final int slot = slotByIndexRef[row.spec().indexRef()];
        if (slot < 0) {
            throw new IllegalArgumentException("no connection " + row.spec().indexRef());
        }
        rows.set(slot, row);
    }

    /** @return every published row, in configuration order (a snapshot of each, not of the whole) */
    public List<ConnectionRow> rows() {
        final List<ConnectionRow> all = new ArrayList<>(indexRefs.length);
        for (int slot = 0; slot < indexRefs.length; slot++) {
            all.add(rows.get(slot));
        }
        return all;
    }

    /** @return number of connections */
    public int size() {
        return indexRefs.length;
    }
}
