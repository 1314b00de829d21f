package org.latencyserver.core.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads an input file whole, an unreadable file refused like any other input: with a fault for the
 * whole file, its source the file's path. Stateless and thread-safe.
 */
public final class InputFiles {

    private InputFiles() {
    }

    /**
     * @param file the file, read as UTF-8
     * @param what what it is, as the fault names it: e.g. {@code "scenario file"}
     * @return its text
     * @throws InputFaultsException with one fault, {@code cannot read the WHAT: CAUSE}, when it cannot be read
     */
    public static String readText(final Path file, final String what) throws InputFaultsException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            final InputFaults unreadable = new InputFaults(file.toString());
            unreadable.whole("cannot read the " + what + ": " + e);
            throw new InputFaultsException(unreadable.inFileOrder());
        }
    }
}
