package org.latencyserver.mirror;

/**
 * The estimate mirror file's layout, version 1: every offset, size, code and bit of
 * {@code docs/mirror-layout.md}, which is the contract (like the IDL). The C header
 * {@code latency-mirror/src/main/c/latency_mirror.h} repeats the same numbers; a change here is a
 * new {@link #VERSION} and a change there and in the document.
 *
 * <p>The file is little-endian: a 128-byte header, then one 128-byte record per {@code index_ref}
 * 0…32767 at {@link #recordOffset(int)}. Offsets and lengths are in bytes; times are wall-clock
 * milliseconds since 1970 ({@code EpochMillis}); intervals are in milliseconds ({@code Millis}).
 *
 * <p>Constants only; thread-safe.
 */
public final class MirrorLayout {

    private MirrorLayout() {
    }

    // ---------------------------------------------------------------- header

    /** The file's first 8 bytes, read as a little-endian int64: the ASCII bytes {@code LTMIRROR}. */
    public static final long MAGIC = 0x524F5252494D544CL;
    /** The layout version this code writes and the only one it reads. */
    public static final int VERSION = 1;
    /** Length of the header in bytes ({@code header_bytes}). */
    public static final int HEADER_LENGTH = 128;
    /** Length of one record in bytes ({@code record_bytes}). */
    public static final int RECORD_LENGTH = 128;
    /** Number of records ({@code record_count}): one per {@code index_ref} 0…32767 (the IDL's {@code short}). */
    public static final int RECORD_COUNT = 32768;
    /** Length of the whole file in bytes: {@code HEADER_LENGTH + RECORD_COUNT × RECORD_LENGTH} (4 MiB + 128). */
    public static final int FILE_LENGTH = HEADER_LENGTH + RECORD_COUNT * RECORD_LENGTH;
    /** Lowest valid {@code index_ref}. */
    public static final int MIN_INDEX_REF = 0;
    /** Highest valid {@code index_ref}. */
    public static final int MAX_INDEX_REF = RECORD_COUNT - 1;

    /** int64 {@code magic}: {@link #MAGIC}. */
    public static final int MAGIC_OFFSET = 0;
    /** int32 {@code version}: {@link #VERSION}. */
    public static final int VERSION_OFFSET = 8;
    /** int32 {@code header_bytes}: {@link #HEADER_LENGTH}. */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** int32 {@code record_bytes}: {@link #RECORD_LENGTH}. */
    public static final int RECORD_LENGTH_OFFSET = 16;
    /** int32 {@code record_count}: {@link #RECORD_COUNT}. */
    public static final int RECORD_COUNT_OFFSET = 20;
    /** int64 {@code writer_pid}: process id of the mirror that created the file. */
    public static final int WRITER_PID_OFFSET = 24;
    /** int64 {@code started_epoch_millis}: when the mirror created the file. */
    public static final int STARTED_EPOCH_MILLIS_OFFSET = 32;
    /** int64 {@code heartbeat_epoch_millis}: stored with release ordering every heartbeat interval. */
    public static final int HEARTBEAT_EPOCH_MILLIS_OFFSET = 64;
    /** int32 {@code heartbeat_interval_millis}: the mirror's promise; set before the file is published. */
    public static final int HEARTBEAT_INTERVAL_MILLIS_OFFSET = 72;
    /** int32 {@code server_link}: one of the {@code SERVER_LINK_*} codes, stored with release ordering. */
    public static final int SERVER_LINK_OFFSET = 76;
    /** int64 {@code server_contact_epoch_millis}: last time the server answered or pushed. */
    public static final int SERVER_CONTACT_EPOCH_MILLIS_OFFSET = 80;

    /** A reader treats the mirror as dead when its heartbeat is older than this many heartbeat intervals. */
    public static final int DEAD_AFTER_HEARTBEAT_INTERVALS = 3;

    /** {@code server_link} 0: the mirror is subscribed and the server pushes estimates. */
    public static final int SERVER_LINK_PUSH = 0;
    /** {@code server_link} 1: the subscription failed; the mirror polls the server. */
    public static final int SERVER_LINK_POLLING = 1;
    /** {@code server_link} 2: the server does not answer; records keep their last values, marked stale (reason 2). */
    public static final int SERVER_LINK_LOST = 2;

    // ---------------------------------------------------------------- record

    /** int64 {@code sequence}: the record's seqlock; 0 never written, odd being written, even and &gt; 0 stable. */
    public static final int SEQUENCE_OFFSET = 0;
    /** int16 {@code index_ref}: the connection, equal to the slot. */
    public static final int INDEX_REF_OFFSET = 8;
    /** int8 {@code qos}: 1–4, as {@code Latserv}. */
    public static final int QOS_OFFSET = 10;
    /** int8 {@code kind}: {@link #KIND_AVERAGE} or {@link #KIND_BOUND}. */
    public static final int KIND_OFFSET = 11;
    /** uint8 {@code flags}: the {@code FLAG_*} bits. */
    public static final int FLAGS_OFFSET = 12;
    /** uint8 {@code stale_reason}: one of the {@code STALE_REASON_*} codes. */
    public static final int STALE_REASON_OFFSET = 13;
    /** int16 {@code cpu_state}: {@code 10 × client + peer} (1 LOW, 2 MEDIUM, 3 HIGH), 0 unknown. */
    public static final int CPU_STATE_OFFSET = 14;
    /** int16 {@code port_state}: 0 NORMAL, 91–100 LOADED at that percent, 101 SATURATED, −1 unknown. */
    public static final int PORT_STATE_OFFSET = 16;
    /** float64 {@code value_ms}: the served value in milliseconds. */
    public static final int VALUE_MILLIS_OFFSET = 24;
    /** float64 {@code interval_lower}: ms for AVERAGE, percent for BOUND. */
    public static final int INTERVAL_LOWER_OFFSET = 32;
    /** float64 {@code interval_upper}: ms for AVERAGE, percent for BOUND. */
    public static final int INTERVAL_UPPER_OFFSET = 40;
    /** float64 {@code bound_percent}: the bound's percentage (QoS 2, 4); 0 for AVERAGE. */
    public static final int BOUND_PERCENT_OFFSET = 48;
    /** float64 {@code confidence_level}: of the interval, e.g. 0.95. */
    public static final int CONFIDENCE_LEVEL_OFFSET = 56;
    /** int64 {@code computed_epoch_millis}: when the server computed the estimate (server's clock). */
    public static final int COMPUTED_EPOCH_MILLIS_OFFSET = 64;
    /** int64 {@code mirrored_epoch_millis}: when the mirror wrote the record (this host's clock). */
    public static final int MIRRORED_EPOCH_MILLIS_OFFSET = 72;

    /** {@code kind} 0: the value is a mean, the interval its confidence interval in ms. */
    public static final int KIND_AVERAGE = 0;
    /** {@code kind} 1: the value is the bound at {@code bound_percent}; the interval is in percent. */
    public static final int KIND_BOUND = 1;

    /** {@code flags} bit 0: the server serves an estimate; without it only the state fields mean anything. */
    public static final int FLAG_HAS_ESTIMATE = 1;
    /** {@code flags} bit 1: a measurement of the current state is awaited (QoS 3, 4). */
    public static final int FLAG_UPDATE_PENDING = 1 << 1;
    /** {@code flags} bit 2: the values are stale; {@code stale_reason} says why. */
    public static final int FLAG_STALE = 1 << 2;
    /** {@code flags} bit 3: the estimate comes from the latency-vs-size model. */
    public static final int FLAG_INTERPOLATED = 1 << 3;

    /** {@code stale_reason} 0: not stale. */
    public static final int STALE_REASON_NONE = 0;
    /** {@code stale_reason} 1: an input of the server stopped answering (SNMP or pushed MIB values). */
    public static final int STALE_REASON_INPUT_SILENT = 1;
    /** {@code stale_reason} 2: the mirror lost the server. */
    public static final int STALE_REASON_SERVER_LOST = 2;
    /** {@code stale_reason} 3: the server serves no estimate for this connection now. */
    public static final int STALE_REASON_NO_ESTIMATE = 3;

    /** {@code cpu_state} 0: unknown. */
    public static final int CPU_STATE_UNKNOWN = 0;
    /** {@code port_state} 0: NORMAL. */
    public static final int PORT_STATE_NORMAL = 0;
    /** {@code port_state} −1: unknown. */
    public static final int PORT_STATE_UNKNOWN = -1;

    /**
     * Where a record starts in the file.
     *
     * @param indexRef the connection, {@link #MIN_INDEX_REF}…{@link #MAX_INDEX_REF} (not checked here)
     * @return the byte offset {@code HEADER_LENGTH + indexRef × RECORD_LENGTH}
     */
    public static int recordOffset(final int indexRef) {
        return HEADER_LENGTH + indexRef * RECORD_LENGTH;
    }

    /**
     * Checks an {@code index_ref}.
     *
     * @param indexRef the value to check
     * @return {@code indexRef}
     * @throws IllegalArgumentException if it is outside 0…32767
     */
    public static int checkIndexRef(final int indexRef) {
        if (indexRef < MIN_INDEX_REF || indexRef > MAX_INDEX_REF) {
            throw new IllegalArgumentException("indexRef " + indexRef + " is outside " + MIN_INDEX_REF + "…"
                + MAX_INDEX_REF + " (the IDL's short; the mirror file has one record per value)");
        }
        return indexRef;
    }
}
