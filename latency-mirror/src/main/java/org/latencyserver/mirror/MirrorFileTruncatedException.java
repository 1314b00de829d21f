package org.latencyserver.mirror;

import java.nio.file.Path;

/**
 * The mirror file a reader mapped became shorter than the layout's length: its fields cannot be
 * read any more. Close the reader and open the path again.
 */
public final class MirrorFileTruncatedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MirrorFileTruncatedException(final Path path, final String length) {
        super(path + ": the estimate mirror file was truncated under the reader: it is " + length + " long, expected "
            + MirrorLayout.FILE_LENGTH + " bytes; open it again");
    }
}
