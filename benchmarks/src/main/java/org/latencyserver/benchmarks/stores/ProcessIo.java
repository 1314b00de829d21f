package org.latencyserver.benchmarks.stores;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's I/O counters from {@code /proc/self/io} (all its threads, Linux):
 * {@code wchar} counts the bytes handed to {@code write()} and the like (not writes through a
 * memory map), {@code write_bytes} the bytes of the page-cache pages the process dirtied for files
 * on a block device (a page dirtied again before it was written back counts once).
 *
 * @param wcharBytes      bytes passed to write calls
 * @param writeBytes      bytes of pages dirtied
 * @param writeCalls      write calls ({@code syscw})
 */
public record ProcessIo(long wcharBytes, long writeBytes, long writeCalls) {

    /** @return the counters now */
    public static ProcessIo now() {
        try {
            long wchar = 0;
            long writeBytes = 0;
            long calls = 0;
            for (final String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                final String[] parts = line.split(":\\s*");
                switch (parts[0]) {
                    case "wchar" -> wchar = Long.parseLong(parts[1].trim());
                    case "write_bytes" -> writeBytes = Long.parseLong(parts[1].trim());
                    case "syscw" -> calls = Long.parseLong(parts[1].trim());
                    default -> { }
                }
            }
            return new ProcessIo(wchar, writeBytes, calls);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/io (Linux only)", e);
        }
    }

    /** @return these counters less an earlier reading */
    public ProcessIo minus(final ProcessIo earlier) {
        return new ProcessIo(wcharBytes - earlier.wcharBytes, writeBytes - earlier.writeBytes, writeCalls - earlier.writeCalls);
    }
}
