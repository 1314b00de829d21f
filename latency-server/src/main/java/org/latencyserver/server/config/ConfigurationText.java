package org.latencyserver.server.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a configuration file's text, at most {@link #MAX_BYTES} of it: a larger or endless file
 * (a 100 MB log named by mistake, {@code /dev/zero}) is refused after reading one byte more than
 * the limit, never read whole.
 *
 * <p>Stateless; safe from any thread.
 */
final class ConfigurationText {

    /** The largest configuration file read, in bytes: 4 MiB (the shipped examples are a few KiB). */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private ConfigurationText() {
    }

    /** Thrown when the file is larger than {@link #MAX_BYTES}. */
    static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException() {
            super("the file is larger than the limit of " + MAX_BYTES / (1024 * 1024)
                + " MiB for a configuration; is it the right file?");
        }
    }

    /**
     * @param file the file
     * @return its text, decoded as UTF-8
     * @throws TooLargeException when it holds more than {@link #MAX_BYTES} bytes
     * @throws IOException       when it cannot be read or is not UTF-8
     */
    static String read(final Path file) throws IOException {
        final byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new TooLargeException();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IOException("the file is not UTF-8 text (" + e.getMessage() + ")", e);
        }
    }
}
