package org.latencyserver.server.persistence;

/**
 * When the state store's writer appends, forces and compacts.
 *
 * <p>Cost: a change costs its connection's journal line. The journal is <em>compacted</em> — the
 * table written as a new state file — only once it holds max({@value #COMPACT_JOURNAL_MIN_BYTES}
 * bytes, {@value #COMPACT_JOURNAL_TO_STATE_FILE} × the state file): every byte of a state file is
 * paid for by a byte of journal, so the bytes written per change are at most twice its line,
 * whatever the table's size (100 connections or 25,000). Restoring reads at most the state file
 * and as much journal again.
 *
 * <p>Durability: an append is a {@code write()} into the page cache, which survives
 * {@code kill -9}; the journal is forced at most every {@value #JOURNAL_FORCE_INTERVAL_MILLIS} ms,
 * so a power cut loses at most about that much.
 *
 * <p>Readings: a change of a connection's record in its MIB readings alone (a counter that moved a
 * point or two within one load state, an end that turned UNKNOWN and back) waits to be appended
 * with the connection's next change that matters, an awaited save, the close, or at the latest
 * {@value #READINGS_SAVE_INTERVAL_MILLIS} ms: a restart may show readings that old, and the poller
 * replaces them within a poll; at 25,000 polled connections a line per poll would be thousands of
 * lines a second.
 *
 * <p>Immutable and thread-safe; times are monotonic nanoseconds passed in.
 */
final class SavePolicy {

    /** How often the journal is forced to disk, at most: what a power cut may lose. */
    static final long JOURNAL_FORCE_INTERVAL_MILLIS = 1_000;
    /** How long a change of a connection's record in its MIB readings alone may wait to be appended, in ms. */
    static final long READINGS_SAVE_INTERVAL_MILLIS = 30_000;
    /** A journal is compacted into a new state file once it holds this many bytes ... */
    static final long COMPACT_JOURNAL_MIN_BYTES = 1L << 20;
    /**
     * ... and as many as the state file times this: a state file is then paid for by as many bytes
     * of journal, so a change costs at most twice its journal line, whatever the table's size.
     */
    static final long COMPACT_JOURNAL_TO_STATE_FILE = 1;
    /** How long writing a whole state file, or closing, waits for a compaction under way, in ms. */
    static final long COMPACTION_WAIT_MILLIS = 30_000;

    private final long compactJournalMinBytes;

    /** @param compactJournalMinBytes the least journal a compaction waits for, {@link #COMPACT_JOURNAL_MIN_BYTES} but in tests */
    SavePolicy(final long compactJournalMinBytes) {
        this.compactJournalMinBytes = compactJournalMinBytes;
    }

    /** @return whether a journal of {@code journalBytes} after a state file of {@code stateFileBytes} is to be compacted */
    boolean compactionDue(final long journalBytes, final long stateFileBytes) {
        return journalBytes >= Math.max(compactJournalMinBytes, COMPACT_JOURNAL_TO_STATE_FILE * stateFileBytes);
    }

    /** @return whether the journal, last forced at {@code lastForceNanos}, is to be forced now */
    boolean forceDue(final long nowNanos, final long lastForceNanos) {
        return nowNanos - lastForceNanos >= JOURNAL_FORCE_INTERVAL_MILLIS * 1_000_000L;
    }

    /** @return whether readings-only changes, last appended at {@code lastReadingsSaveNanos}, are to be appended now */
    boolean readingsDue(final long nowNanos, final long lastReadingsSaveNanos) {
        return nowNanos - lastReadingsSaveNanos >= READINGS_SAVE_INTERVAL_MILLIS * 1_000_000L;
    }
}
