package org.latencyserver.server.config;

/**
 * One thing wrong with the configuration file.
 *
 * <p>Immutable and thread-safe.
 *
 * @param file   the file
 * @param line   1-based line, 0 when the fault concerns the whole file
 * @param column 1-based column, 0 when unknown
 * @param path   the key path, e.g. {@code connections[2].qos}
 * @param reason what is wrong, with the bad value
 */
public record ConfigurationFault(String file, int line, int column, String path, String reason) {

    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + path + ": " + reason;
    }
}
