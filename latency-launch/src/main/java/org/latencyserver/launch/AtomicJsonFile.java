package org.latencyserver.launch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Function;

/**
 * The one way the components write and read the small JSON files other programs follow (a
 * {@link ReadyFile}, the emulator's status file): written atomically, so that a reader polling the
 * file sees it whole or not at all, and read back with the file's layout and format checked.
 *
 * <p>Why a temporary file in the same directory: a rename is atomic only within one file system.
 * The temporary file starts with a dot so that a directory listing of followers skips it, and is
 * deleted when the write fails.
 *
 * <p>Stateless; thread-safe (two writers of one file leave one writer's content whole).
 */
public final class AtomicJsonFile {

    private AtomicJsonFile() {
    }

    /**
     * Writes a value as JSON, creating missing parent directories, and renames it into place.
     *
     * @param file  where
     * @param value what, as {@code json} serialises it
     * @param json  the mapper (its settings, e.g. indentation, apply)
     * @throws IOException when it cannot be written
     */
    public static void write(final Path file, final Object value, final ObjectMapper json) throws IOException {
        final Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        final Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        try {
            json.writeValue(temporary.toFile(), value);
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Reads a versioned JSON file: one of a layout whose {@code format} key names the layout and
     * its version.
     *
     * @param file           the file
     * @param type           its layout
     * @param json           the mapper
     * @param kind           what such a file is called in a message, e.g. {@code a ready file}
     * @param formatOf       its {@code format} key
     * @param expectedFormat the format this reader understands
     * @param <T>            the layout's type
     * @return its content
     * @throws IOException naming the file when it cannot be read, is not JSON of this layout, or is of
     *                     another format
     */
    public static <T> T read(final Path file, final Class<T> type, final ObjectMapper json, final String kind,
                             final Function<T, String> formatOf, final String expectedFormat) throws IOException {
        final T content;
        try {
            content = json.readValue(Files.readAllBytes(file), type);
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": not " + kind + ": " + e.getOriginalMessage(), e);
        }
        final String format = formatOf.apply(content);
        if (!expectedFormat.equals(format)) {
            throw new IOException(file + ": format '" + format + "', expected '" + expectedFormat + "'");
        }
        return content;
    }
}
