package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import java.util.List;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The one snapshot of the published rows a scrape reads, with each row's {@code index_ref} label
 * value and label set, made once per scrape and shared by every family (client_java validates each
 * label set built, so building one per row instead of one per row and family halves that work).
 *
 * <p>Immutable once made; made and read by one scraping thread.
 */
final class ScrapedRows {

    private final List<ConnectionRow> rows;
    private final String[] refs;
    private final Labels[] byRef;

    /** @param rows the snapshot, not changed afterwards */
    ScrapedRows(final List<ConnectionRow> rows) {
        this.rows = rows;
        refs = new String[rows.size()];
        byRef = new Labels[rows.size()];
        for (int slot = 0; slot < refs.length; slot++) {
            refs[slot] = Short.toString(rows.get(slot).spec().indexRef());
            byRef[slot] = Labels.of("index_ref", refs[slot]);
        }
    }

    /** @return how many rows */
    int size() {
        return refs.length;
    }

    /** @return the row at {@code slot}, 0 ≤ slot < {@link #size()} */
    ConnectionRow row(final int slot) {
        return rows.get(slot);
    }

    /** @return its {@code index_ref} label value */
    String ref(final int slot) {
        return refs[slot];
    }

    /** @return the label set of its {@code index_ref} alone */
    Labels byRef(final int slot) {
        return byRef[slot];
    }
}
