package org.latencyserver.emulator;

import java.nio.file.Path;

/**
 * A scenario file that cannot be used: names the file, the line and column (1-based) and the
 * offending value, so the author can fix it without guessing.
 *
 * <p>Immutable and thread-safe.
 */
public final class ScenarioFault extends Exception {
    private static final long serialVersionUID = 1L;

    private final String fileName;
    private final int line;
    private final int column;
    private final String badValue;

    /**
     * @param file the scenario file (may be a label such as "&lt;string&gt;")
     * @param line 1-based line of the bad value, or 0 when not known
     * @param column 1-based column of the bad value, or 0 when not known
     * @param badValue the offending text as written, or null when a value is missing
     * @param reason what is wrong, in words
     */
    public ScenarioFault(String file, int line, int column, String badValue, String reason) {
        super(file + ":" + line + ":" + column + ": " + reason
                + (badValue == null ? "" : " (got '" + badValue + "')"));
        this.fileName = file;
        this.line = line;
        this.column = column;
        this.badValue = badValue;
    }

    /** Convenience for a path. */
    static ScenarioFault at(Path file, int line, int column, String badValue, String reason) {
        return new ScenarioFault(String.valueOf(file), line, column, badValue, reason);
    }

    /** @return the file name as given to the loader */
    public String fileName() {
        return fileName;
    }

    /** @return the 1-based line of the fault, 0 if unknown */
    public int line() {
        return line;
    }

    /** @return the 1-based column of the fault, 0 if unknown */
    public int column() {
        return column;
    }

    /** @return the bad value as written, or null if a value was missing */
    public String badValue() {
        return badValue;
    }
}
