package org.latencyserver.server.persistence;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * Which connections' records are to be written: connections whose record changed, and, apart,
 * connections whose record changed in its MIB readings alone ({@link ConnectionRecordCodec#sameRecordButReadings}),
 * which the writer appends only with a later change, an awaited save, at close, or when
 * {@link SavePolicy#readingsDue} says so.
 *
 * <p>Invariant that makes no change get lost: a mark is removed before the row it stands for is
 * read, so a change published after the read marks its connection again.
 *
 * <p>Thread-safety: {@link #mark} from the update thread, which never waits; everything else from
 * the writer thread (or the closing thread once the writer has stopped). Both sets are concurrent.
 */
final class ChangeMarks {

    /** Connections changed since their last record was written. */
    private final Set<Short> changed = ConcurrentHashMap.newKeySet();
    /** Connections whose record changed since it was last written in its MIB readings alone. */
    private final Set<Short> readingsChanged = ConcurrentHashMap.newKeySet();

    /** Marks a changed connection; {@code before} is null for a connection's first row. */
    void mark(final ConnectionRow before, final ConnectionRow after) {
        final short indexRef = after.spec().indexRef();
        if (before != null && ConnectionRecordCodec.sameRecordButReadings(before, after)) {
            readingsChanged.add(indexRef);
        } else {
            changed.add(indexRef);
        }
    }

    /** Makes every connection marked for its readings alone marked as changed, so the next take includes it. */
    void promoteReadings() {
        for (final Iterator<Short> marked = readingsChanged.iterator(); marked.hasNext();) {
            final short indexRef = marked.next();
            marked.remove(); // before it is marked as changed: a reading published after this marks it again
            changed.add(indexRef);
        }
    }

    /** @return whether no connection is marked as changed (readings-only marks aside) */
    boolean noneChanged() {
        return changed.isEmpty();
    }

    /** @return whether no connection is marked at all */
    boolean isEmpty() {
        return changed.isEmpty() && readingsChanged.isEmpty();
    }

    /**
     * Takes the changed connections' marks (and their readings-only marks: the record written now
     * holds the readings too) and reads their rows, each after its marks are removed.
     *
     * @return the rows as they are now; connections no longer in the table are left out
     */
    List<ConnectionRow> takeChangedRows(final ConnectionTable table) {
        final List<ConnectionRow> rows = new ArrayList<>();
        for (final Iterator<Short> marked = changed.iterator(); marked.hasNext();) {
            final short indexRef = marked.next();
            marked.remove(); // before the row is read: a change published after this marks it again
            readingsChanged.remove(indexRef); // its readings go in this record too: no second record for them later
            final ConnectionRow row = table.row(indexRef);
            if (row != null) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** Marks the rows' connections as changed again: their records were not written. */
    void markAgain(final List<ConnectionRow> rows) {
        rows.forEach(row -> changed.add(row.spec().indexRef()));
    }

    /** Removes every mark; called before the whole table is read for a state file. */
    void clear() {
        changed.clear();
        readingsChanged.clear();
    }
}
