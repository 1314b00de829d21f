package org.latencyserver.core.profile;

/**
 * One thing wrong with a profile file.
 *
 * <p>Immutable and thread-safe.
 *
 * @param file     the file (or source name) it was read from
 * @param location where in it: a JSON path with the cell named, e.g.
 *                 {@code cells[3] (0-33/67-100, 256 B).histogram.counts[7]}, or {@code line 4, column 9}
 * @param reason   what is wrong, with the bad value
 */
public record ProfileFault(String file, String location, String reason) {

    @Override
    public String toString() {
        return file + ": " + location + ": " + reason;
    }
}
