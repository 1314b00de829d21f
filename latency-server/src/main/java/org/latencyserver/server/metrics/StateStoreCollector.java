package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;
import org.latencyserver.server.persistence.StateSaveCounters;

/**
 * The saved state's counters: how often the journal and the state file are written for how many
 * changes, and how much ({@code file="journal"}, {@code file="state_file"}).
 *
 * <p>Each scrape reads one {@link StateSaveCounters} snapshot, so the families agree with each
 * other. Thread-safe as the supplier is.
 */
final class StateStoreCollector extends SnapshotCollector<StateSaveCounters> {

    /** @param counters the state store's counters since start, read once per scrape */
    StateStoreCollector(final Supplier<StateSaveCounters> counters) {
        super(counters);
    }

    @Override
    MetricSnapshots families(final StateSaveCounters now) {
        final CounterFamily saves = new CounterFamily("latency_server_state_saves_total",
            "writes of the saved state: appends to the journal (one write for any number of changed connections) and"
                + " whole state files (forced to disk)", "file");
        saves.add(now.journalAppends(), "journal");
        saves.add(now.stateFiles(), "state_file");
        final CounterFamily bytes = new CounterFamily("latency_server_state_saved_bytes_total",
            "bytes of the saved state written: appended to the journal, and of whole state files", "file");
        bytes.add(now.journalBytes(), "journal");
        bytes.add(now.stateFileBytes(), "state_file");
        return MetricSnapshots.of(
            CounterFamily.single("latency_server_state_changes_total",
                "changes of the connection table, each of which marks its connection for saving", now.changesSeen()),
            saves.build(), bytes.build());
    }
}
