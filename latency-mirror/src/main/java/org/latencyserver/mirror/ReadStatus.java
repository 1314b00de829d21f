package org.latencyserver.mirror;

/**
 * What {@link EstimateMirror#read(int, MirrorRecord)} found. The C header's {@code lm_status}
 * has the same values in the same order ({@code LM_OK} …).
 */
public enum ReadStatus {
    /** A consistent copy of the record is in the holder and the mirror's heartbeat is fresh. */
    OK,
    /** The record's sequence is 0: the mirror does not follow this connection. The holder is unchanged. */
    NOT_MIRRORED,
    /**
     * Every attempt found the record being written ({@link EstimateMirror#READ_ATTEMPTS} of them,
     * a few hundred microseconds): the writer is descheduled or died mid-write. The holder is
     * unchanged; try again later, and see {@link EstimateMirror#alive(long)}.
     */
    BUSY,
    /**
     * A consistent copy of the record is in the holder, but the mirror's heartbeat is older than
     * 3 heartbeat intervals (or further ahead than {@link EstimateMirror#HEARTBEAT_FUTURE_SLACK_MILLIS}): the values are the last ones the mirror wrote. Open the path again
     * (a restarted mirror renames a new file over it) or treat the connection as unknown.
     */
    MIRROR_DEAD,
    /**
     * A consistent copy is in the holder, but a field breaks the layout's contract
     * ({@link RecordCheck#problem(MirrorRecord, int)} says which and how): {@code index_ref} not the
     * slot, a code outside its enum, a value not finite or out of its range. Never use its values.
     */
    BAD_RECORD,
    /**
     * The file is shorter than the layout's length (truncated under the mapping): the holder's
     * values are meaningless. Close the reader and open the path again.
     */
    FILE_TRUNCATED
}
