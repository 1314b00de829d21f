package org.latencyserver.core.input;

/**
 * One thing wrong with an input (a configuration file, a scenario, a profile, a state file),
 * pointing at the place to fix.
 *
 * <p>Immutable and thread-safe.
 *
 * @param source the file (or a label such as {@code "profile from load_profile"}) as the reader was given it
 * @param line   1-based line; 0 when the fault concerns the whole input (it cannot be read, is too large)
 *               or the place is not known
 * @param column 1-based column; 0 when unknown
 * @param path   the key path, e.g. {@code connections[2].qos} (list indexes count from 0), or {@code file}
 *               for the input as a whole
 * @param reason what is wrong, with the bad value (never a secret's value)
 */
public record InputFault(String source, int line, int column, String path, String reason) {

    /** @return {@code source:line:column: path: reason}, the form compilers use, so editors can jump to it */
    @Override
    public String toString() {
        return source + ":" + line + ":" + column + ": " + path + ": " + reason;
    }
}
