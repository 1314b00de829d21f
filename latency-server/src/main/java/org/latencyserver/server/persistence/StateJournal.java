package org.latencyserver.server.persistence;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The journal beside the state file, {@code <state_file>.journal}: what changed since the state
 * file was written, appended without rewriting anything.
 *
 * <p>Layout (a contract, read back by {@link StateRestorer}): UTF-8 text, one compact JSON
 * object per line, each line ended by {@code \n}:
 * <pre>
 * {"format":"latency-server-journal/1","generation":7}     -- header: continues the state file of generation 7
 * {"index_ref":4,"qos":3,...}                             -- a connection's record ({@link ConnectionRecordCodec}), as it is now
 * {"index_ref":1,"qos":1,...}
 * ...
 * </pre>
 * Read in order, the last record of a connection wins. The file is created with its header by the
 * first append after a state file is written, and deleted once a newer state file is in place.
 * While a compaction writes that newer state file, the journal that continues it is written as
 * {@code <state_file>.journal.next} (header: the newer generation; every record whole, no
 * {@code *_as_before}) and renamed to {@code <state_file>.journal} once the state file is in place
 * ({@link #moveTo}); see {@link StateWriter}. A line without its {@code \n} at the end, or a last
 * line that is not JSON, was cut off by a kill during an append and is ignored; a bad line before
 * the last makes the whole state damaged.
 *
 * <p>Appends are plain {@code write()}s into the page cache, which a killed process cannot take
 * back: they survive {@code kill -9} without {@code fsync}. {@link #force} puts them on the disk
 * too (a power cut).
 *
 * <p>Thread-safety: an instance belongs to the state store's writer thread ({@link StateWriter});
 * {@link #read} is for start-up.
 */
final class StateJournal implements Closeable {

    private static final byte NEWLINE = '\n';

    private Path path;
    private final byte[] header;
    /** Null until the first append creates the file. */
    private FileChannel channel;
    private long bytes;
    private boolean unforced;
    private boolean directoryForced;

    /**
     * A journal that does not exist yet; the first append creates it, replacing any older one.
     *
     * @param path   {@code <state_file>.journal}
     * @param header its first line, without the {@code \n}
     */
    StateJournal(final Path path, final byte[] header) {
        this.path = path;
        this.header = header.clone();
    }

    /**
     * Appends records in one {@code write()}, the header first when the file is new.
     *
     * @param records compact JSON records, without {@code \n}
     * @return bytes written
     * @throws IOException when not all was written: the file may end in a cut-off line, so nothing
     *                     must be appended to it any more (the caller writes a state file next)
     */
    long append(final List<byte[]> records) throws IOException {
        int length = channel == null ? header.length + 1 : 0;
        for (final byte[] record : records) {
            length += record.length + 1;
        }
        final ByteBuffer buffer = ByteBuffer.allocate(length);
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            buffer.put(header).put(NEWLINE);
        }
        for (final byte[] record : records) {
            buffer.put(record).put(NEWLINE);
        }
        buffer.flip();
        unforced = true;
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        bytes += length;
        return length;
    }

    /**
     * Renames the file (open or not yet created) to {@code target}; appends go on into it.
     *
     * @param target the new name, replaced if it exists
     * @throws IOException when the rename failed: the file keeps its name
     */
    void moveTo(final Path target) throws IOException {
        if (channel != null) {
            Files.move(path, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            StateFiles.forceDirectory(target.getParent());
        }
        path = target;
    }

    /** @return bytes in the file, header included; 0 while it does not exist */
    long bytes() {
        return bytes;
    }

    /** @return whether appends were made since the last {@link #force} */
    boolean unforced() {
        return unforced;
    }

    /**
     * Puts what was appended on the disk (the directory entry too, the first time).
     *
     * @throws IOException when the disk refused: what was appended since the last force may be lost
     *                     on a power cut, so the caller writes a state file next
     */
    void force() throws IOException {
        if (channel == null || !unforced) {
            return;
        }
        channel.force(false);
        unforced = false;
        if (!directoryForced) {
            StateFiles.forceDirectory(path.getParent());
            directoryForced = true;
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Nothing more is written through it; a failed close loses nothing already written.
            }
        }
    }

    /** A journal as read: its whole lines, then what followed the last {@code \n}, if anything. */
    record Lines(List<String> whole, String cutOff) {

        /** @return the whole lines and the cut-off one, in file order */
        List<String> all() {
            final List<String> all = new ArrayList<>(whole);
            if (cutOff != null) {
                all.add(cutOff);
            }
            return all;
        }
    }

    /**
     * @param path a journal
     * @return its lines
     * @throws IOException when it cannot be read
     */
    static Lines read(final Path path) throws IOException {
        final byte[] content = Files.readAllBytes(path);
        final List<String> whole = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < content.length; i++) {
            if (content[i] == NEWLINE) {
                whole.add(new String(content, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        return new Lines(whole, start < content.length ? new String(content, start, content.length - start, StandardCharsets.UTF_8)
            : null);
    }
}
