package org.latencyserver.orb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file's modification time and size, as a watch of TLS files compares them to see a change; a missing or
 * unreadable file has a stamp of its own (-1, -1).
 *
 * @param file           the file
 * @param modifiedMillis its modification time, epoch ms
 * @param size           its size, bytes
 */
public record FileStamp(Path file, long modifiedMillis, long size) {

    /**
     * @param file a file
     * @return its stamp now
     */
    public static FileStamp of(final Path file) {
        try {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(file, attributes.lastModifiedTime().toMillis(), attributes.size());
        } catch (IOException e) {
            return new FileStamp(file, -1, -1);
        }
    }
}
