package org.latencyserver.server.persistence;

/**
 * What the state store has written since start, read at one moment: an immutable snapshot for
 * metrics and tests. Each counter only grows; two snapshots' differences are the work in between.
 *
 * @param changesSeen     changes of the connection table the store was told of (each marks its connection for saving)
 * @param journalAppends  appends to the journal (one {@code write()} each, for any number of connections)
 * @param journalBytes    bytes appended to the journal, headers included
 * @param stateFiles      whole state files written (the table each, forced to disk)
 * @param stateFileBytes  bytes of those state files
 */
public record StateSaveCounters(long changesSeen, long journalAppends, long journalBytes, long stateFiles, long stateFileBytes) {

    /** @return writes of either kind: journal appends and state files */
    public long saves() {
        return journalAppends + stateFiles;
    }

    /** @return bytes written of either kind: journal appends and state files */
    public long bytesSaved() {
        return journalBytes + stateFileBytes;
    }
}
