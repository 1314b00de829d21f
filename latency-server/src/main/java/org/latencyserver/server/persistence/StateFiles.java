package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.latencyserver.server.table.ConnectionRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The saved state's files, all beside the configured state file, and the file operations that keep
 * them whole:
 * <pre>
 * &lt;state_file&gt;                the whole table as of its generation G ({@link StateCodec})
 * &lt;state_file&gt;.journal        header "continues G", then one line per changed connection ({@link StateJournal})
 * &lt;state_file&gt;.journal.next   only while a compaction runs: header "continues G+1", then whole records
 * </pre>
 *
 * <p>Durability: {@link #writeStateFile} leaves the old state file or the new one, never half of
 * one, and returns only once the new one and its name are on the disk.
 *
 * <p>Immutable; the methods touch only the files they name and may run on any thread, but two
 * threads must not write the state file at once (the state store's writer and compactor take
 * turns: see {@link StateWriter}).
 *
 * @param stateFile   the state file, absolute
 * @param journal     {@code <state_file>.journal}
 * @param nextJournal {@code <state_file>.journal.next}
 */
record StateFiles(Path stateFile, Path journal, Path nextJournal) {

    private static final int FILE_BUFFER_BYTES = 1 << 16;
    private static final Logger LOG = LoggerFactory.getLogger(StateFiles.class);

    /** @param file the configured state file; the others are named after it */
    static StateFiles beside(final Path file) {
        final Path stateFile = file.toAbsolutePath();
        return new StateFiles(stateFile, stateFile.resolveSibling(stateFile.getFileName() + ".journal"),
            stateFile.resolveSibling(stateFile.getFileName() + ".journal.next"));
    }

    /**
     * Writes {@code rows} as the state file of {@code generation}, streamed one record at a time
     * (never the whole file in memory), by {@link #replace}: the old file or the new one, never
     * half. Reads only immutable rows.
     *
     * @return the file's size in bytes
     * @throws IOException when it could not be written; the old state file is then in place
     */
    long writeStateFile(final ObjectMapper mapper, final List<ConnectionRow> rows, final long generation) throws IOException {
        Files.createDirectories(stateFile.getParent());
        return replace(stateFile, "." + stateFile.getFileName(), ".tmp",
            out -> StateCodec.write(mapper, rows, System.currentTimeMillis(), generation, out));
    }

    /** Writes a file's content. */
    @FunctionalInterface
    interface Content {
        /** @param out where; buffered, flushed and closed by the caller */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Replaces {@code target} whole: writes a temporary file beside it, forces it, renames it over
     * {@code target} and forces the directory. Afterwards the old file or the new one is there,
     * never half of one, also after a power cut; a temporary file is left only by a kill.
     *
     * @param target     the file to replace; its directory must exist
     * @param tempPrefix the temporary file's name starts with this
     * @param tempSuffix ... and ends with this
     * @param content    what to write
     * @return the new file's size in bytes
     * @throws IOException when it could not be written; {@code target} is then as it was
     */
    static long replace(final Path target, final String tempPrefix, final String tempSuffix, final Content content)
        throws IOException {
        final Path temporary = Files.createTempFile(target.getParent(), tempPrefix, tempSuffix);
        try {
            final long bytes;
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                final OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), FILE_BUFFER_BYTES);
                content.writeTo(out);
                out.flush();
                bytes = channel.size();
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(target.getParent());
            return bytes;
        } finally {
            Files.deleteIfExists(temporary); // gone after the move; left only by a failure, and removed then
        }
    }

    /** Forces a rename or a new file's name to disk: without it a power cut could bring back the old one. */
    static void forceDirectory(final Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException notSupported) {
            // Some platforms cannot open a directory; the rename is then as durable as they make it.
        }
    }

    /** Deletes a journal a newer state file replaced; a failure is logged and harmless. */
    static void deleteReplacedJournal(final Path replaced) {
        try {
            Files.deleteIfExists(replaced);
        } catch (IOException e) {
            // Harmless: it names an older generation, so it is not replayed, and the next append truncates it.
            LOG.warn("could not delete the replaced journal {}: {}", replaced, e.toString());
        }
    }

    /** @return the current time as a file name's suffix, for files moved aside together */
    static String timeSuffix() {
        return Instant.now().toString().replace(':', '-');
    }

    /**
     * Renames a damaged file to {@code <name>.corrupt-<timeSuffix>}.
     *
     * @return where it went, or null when it could not be moved (logged)
     */
    static Path moveAside(final Path damaged, final String timeSuffix) {
        final Path aside = damaged.resolveSibling(damaged.getFileName() + ".corrupt-" + timeSuffix);
        try {
            Files.move(damaged, aside, StandardCopyOption.REPLACE_EXISTING);
            return aside;
        } catch (IOException e) {
            LOG.error("could not move {} aside: {}", damaged, e.getMessage());
            return null;
        }
    }
}
