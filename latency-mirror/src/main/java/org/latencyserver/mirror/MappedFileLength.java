package org.latencyserver.mirror;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * Watches the length of the mirror file a reader mapped, so that the reader never loads beyond a
 * truncated file's end: a load there faults, and the JVM reports that as an {@link InternalError}
 * which may surface after the load, outside any handler.
 *
 * <p>The file is kept open read-only: {@link RandomAccessFile#length()} is one {@code fstat}, takes
 * no lock and is not interruptible (a {@code FileChannel}'s {@code size} is both).
 *
 * <p>Thread-safe: any number of reader threads; {@link #close()} once none reads any more.
 */
final class MappedFileLength implements Closeable {

    private final Path path;
    private final RandomAccessFile file;
    private final long periodNanos;
    /** When the file was last found whole, {@link System#nanoTime()}; any reader thread updates it. */
    private volatile long wholeAtNanos = System.nanoTime();

    /**
     * @param path        the file's path, for messages
     * @param file        the mapped file, open; owned from now on
     * @param periodNanos how long a finding "whole" is trusted by {@link #shortSinceLastCheck()}, ns
     */
    MappedFileLength(final Path path, final RandomAccessFile file, final long periodNanos) {
        this.path = path;
        this.file = file;
        this.periodNanos = periodNanos;
    }

    /** @return whether the file is short now, measured only if it was last found whole over a period ago */
    boolean shortSinceLastCheck() {
        final long nowNanos = System.nanoTime();
        if (nowNanos - wholeAtNanos < periodNanos) {
            return false;
        }
        if (shortNow()) {
            return true;
        }
        wholeAtNanos = nowNanos;
        return false;
    }

    /** @return whether the file is now shorter than the layout's length, or cannot be measured (one fstat) */
    boolean shortNow() {
        try {
            return file.length() < MirrorLayout.FILE_LENGTH;
        } catch (final IOException e) {
            return true;
        }
    }

    /** @return the exception that says the file is short, naming it and its length now */
    MirrorFileTruncatedException truncated() {
        String length;
        try {
            length = file.length() + " bytes";
        } catch (final IOException e) {
            length = "of unknown length (" + e.getMessage() + ")";
        }
        return new MirrorFileTruncatedException(path, length);
    }

    /** Closes the read-only descriptor; nothing was written through it that a failed close could lose. */
    @Override
    public void close() {
        try {
            file.close();
        } catch (final IOException e) {
            // read-only: nothing to lose
        }
    }
}
