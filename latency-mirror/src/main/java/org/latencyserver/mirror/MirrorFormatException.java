package org.latencyserver.mirror;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An estimate mirror file that this reader refuses: a header field or the file length differs
 * from what layout version {@value MirrorLayout#VERSION} ({@code docs/mirror-layout.md}) requires.
 * The message names the file, the field, the value found and the value expected.
 *
 * <p>Immutable; thread-safe.
 */
public final class MirrorFormatException extends IOException {

    private final Path path;
    private final String field;
    private final String found;
    private final String expected;

    /**
     * @param path the refused file
     * @param field the header field as the document names it ({@code magic}, {@code version},
     *     {@code header_bytes}, {@code record_bytes}, {@code record_count},
     *     {@code heartbeat_interval_millis}) or {@code file length}
     * @param found the value in the file
     * @param expected the value this reader requires
     */
    public MirrorFormatException(final Path path, final String field, final String found, final String expected) {
        super(path + ": not an estimate mirror file of layout version " + MirrorLayout.VERSION + ": " + field
            + " is " + found + ", expected " + expected + " (docs/mirror-layout.md)");
        this.path = path;
        this.field = field;
        this.found = found;
        this.expected = expected;
    }

    /**
     * @return the refused file
     */
    public Path path() {
        return path;
    }

    /**
     * @return the field that was wrong, e.g. {@code record_bytes} or {@code file length}
     */
    public String field() {
        return field;
    }

    /**
     * @return the value found, as text
     */
    public String found() {
        return found;
    }

    /**
     * @return the value expected, as text
     */
    public String expected() {
        return expected;
    }
}
