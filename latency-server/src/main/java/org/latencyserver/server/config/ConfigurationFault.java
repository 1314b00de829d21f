package org.latencyserver.server.config;

/**
 * One thing wrong with a configuration file, pointing at the place to fix.
 *
 * <p>Immutable and thread-safe.
 *
 * @param file   the file as it was given to {@link ConfigurationLoader#load}
 * @param line   1-based line; 0 when the fault concerns the whole file (e.g. it cannot be read)
 * @param column 1-based column; 0 when unknown
 * @param path   the key path, e.g. {@code connections[2].qos} (list indexes count from 0), or
 *               {@code file}
 * @param reason what is wrong, with the bad value (never a secret's value)
 */
public record ConfigurationFault(String file, int line, int column, String path, String reason) {

    /** @return {@code file:line:column: path: reason}, the form compilers use, so editors can jump to it */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + path + ": " + reason;
    }
}
