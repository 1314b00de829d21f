package org.latencyserver.server.persistence;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The state store's running counts, read as a {@link StateSaveCounters} snapshot.
 *
 * <p>Thread-safety: counted by the update thread (changes) and the writer or compactor's
 * finishing (writes); read by any thread. The counters are read one by one, so a snapshot taken
 * during a write may hold its append count without its bytes.
 */
final class SaveTally {

    private final AtomicLong changesSeen = new AtomicLong();
    private final AtomicLong journalAppends = new AtomicLong();
    private final AtomicLong journalBytes = new AtomicLong();
    private final AtomicLong stateFiles = new AtomicLong();
    private final AtomicLong stateFileBytes = new AtomicLong();

    void changeSeen() {
        changesSeen.incrementAndGet();
    }

    /** @param bytes appended, header included */
    void journalAppended(final long bytes) {
        journalAppends.incrementAndGet();
        journalBytes.addAndGet(bytes);
    }

    /** @param bytes the state file's size */
    void stateFileWritten(final long bytes) {
        stateFiles.incrementAndGet();
        stateFileBytes.addAndGet(bytes);
    }

    StateSaveCounters snapshot() {
        return new StateSaveCounters(changesSeen.get(), journalAppends.get(), journalBytes.get(), stateFiles.get(),
            stateFileBytes.get());
    }
}
