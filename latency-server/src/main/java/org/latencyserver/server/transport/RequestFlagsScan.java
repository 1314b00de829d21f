package org.latencyserver.server.transport;

/**
 * Finds the byte of a GIOP request header that says whether and how the caller wants a reply, as
 * the body's bytes pass, without holding them: in GIOP 1.2 the {@code response_flags} octet right
 * after the {@code request_id} (body offset 4); in GIOP 1.0 and 1.1 the {@code response_expected}
 * boolean after the service context list and the {@code request_id}. The list is walked field by
 * field (its count, then each context's id, data length, data and padding to 4 bytes), its data skipped.
 * CDR alignment counts from the message's start; its 12-byte header keeps the body's offsets aligned alike.
 *
 * <p>Not thread-safe: one message of one connection, fed by its reader.
 */
final class RequestFlagsScan {

    /** What {@link #feed} returns while the byte has not passed. */
    static final int NOT_YET = -1;

    private static final int COUNT = 0;
    private static final int CONTEXT_ID = 1;
    private static final int CONTEXT_LENGTH = 2;
    private static final int REQUEST_ID = 3;
    private static final int FLAGS = 4;
    private static final int DONE = 5;

    private final boolean littleEndian;
    private final int minorVersion;
    private int stage;
    private long position;
    private long skip;
    private int fieldBytes;
    private long fieldValue;
    private long contextsLeft;

    /**
     * @param minorVersion the GIOP minor version, 0, 1 or 2
     * @param littleEndian bit 0 of the header's flags
     */
    RequestFlagsScan(final int minorVersion, final boolean littleEndian) {
        this.littleEndian = littleEndian;
        this.minorVersion = minorVersion;
        this.stage = minorVersion >= 2 ? REQUEST_ID : COUNT;
    }

    /**
     * @param flags the byte found
     * @return whether JacORB takes it: 0, 1 or 3 in GIOP 1.2 (a sync scope), 0 or 1 before (a CDR boolean)
     */
    boolean valid(final int flags) {
        return flags == 0 || flags == 1 || minorVersion >= 2 && flags == 3;
    }

    /** @return what a valid byte is, for a message */
    String validValues() {
        return minorVersion >= 2 ? "0, 1 or 3" : "0 or 1";
    }

    /** @return the request's GIOP minor version */
    int minorVersion() {
        return minorVersion;
    }

    /**
     * Reads the next bytes of the body.
     *
     * @return the byte (0..255) when it is among them, else {@link #NOT_YET}; after it has been found, {@link #NOT_YET}
     */
    int feed(final byte[] buffer, final int offset, final int length) {
        int at = offset;
        final int end = offset + length;
        while (at < end && stage != DONE) {
            if (skip > 0) {
                final int skipped = (int) Math.min(skip, end - at);
                skip -= skipped;
                at += skipped;
                position += skipped;
                continue;
            }
            final int value = buffer[at++] & 0xff;
            position++;
            if (stage == FLAGS) {
                stage = DONE;
                return value;
            }
            fieldValue = littleEndian ? fieldValue | (long) value << (8 * fieldBytes) : fieldValue << 8 | value;
            if (++fieldBytes == Integer.BYTES) {
                next(fieldValue);
                fieldBytes = 0;
                fieldValue = 0;
            }
        }
        return NOT_YET;
    }

    /** @return whether the byte has passed */
    boolean found() {
        return stage == DONE;
    }

    /** Moves on after the unsigned long {@code value} of the current stage. */
    private void next(final long value) {
        switch (stage) {
            case COUNT -> {
                contextsLeft = value;
                stage = contextsLeft == 0 ? REQUEST_ID : CONTEXT_ID;
            }
            case CONTEXT_ID -> stage = CONTEXT_LENGTH;
            case CONTEXT_LENGTH -> {
                final long padding = (Integer.BYTES - (position + value) % Integer.BYTES) % Integer.BYTES;
                skip = value + padding;
                contextsLeft--;
                stage = contextsLeft == 0 ? REQUEST_ID : CONTEXT_ID;
            }
            case REQUEST_ID -> stage = FLAGS;
            default -> throw new IllegalStateException("no unsigned long is read at stage " + stage);
        }
    }
}
