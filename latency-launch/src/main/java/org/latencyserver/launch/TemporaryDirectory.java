package org.latencyserver.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A directory a run makes for its own files (its children's logs and ready files, generated stores)
 * and takes away with all it holds on {@link #close}, whether the run ended well or not. Open it in
 * the same try-with-resources as the {@link ProcessKit} that writes into it, before the kit, so the
 * children are stopped before their directory goes.
 *
 * <p>Thread-safety: not thread-safe; one thread makes and closes it.
 */
public final class TemporaryDirectory implements AutoCloseable {

    private final Path path;

    private TemporaryDirectory(final Path path) {
        this.path = path;
    }

    /**
     * @param prefix the start of the directory's name, e.g. {@code profile-measure}
     * @return a new empty directory under the system's temporary directory ({@code java.io.tmpdir})
     * @throws IOException when it cannot be made
     */
    public static TemporaryDirectory create(final String prefix) throws IOException {
        return new TemporaryDirectory(Files.createTempDirectory(prefix).toAbsolutePath());
    }

    /**
     * @param parent where to make it (made first when absent)
     * @param prefix the start of the directory's name
     * @return a new empty directory under {@code parent}
     * @throws IOException when it cannot be made
     */
    public static TemporaryDirectory createIn(final Path parent, final String prefix) throws IOException {
        Files.createDirectories(parent);
        return new TemporaryDirectory(Files.createTempDirectory(parent, prefix).toAbsolutePath());
    }

    /** @return the directory, absolute; it exists until {@link #close} */
    public Path path() {
        return path;
    }

    /**
     * Deletes the directory and all it holds; nothing when it is already gone.
     *
     * @throws IOException naming the first file that could not be deleted (the rest are still tried)
     */
    @Override
    public void close() throws IOException {
        deleteTree(path);
    }

    /**
     * Deletes a directory and all it holds, deepest first; nothing when it does not exist.
     *
     * @param directory the tree's root
     * @throws IOException naming the first file that could not be deleted (the rest are still tried)
     */
    public static void deleteTree(final Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        final List<Path> deepestFirst;
        try (Stream<Path> paths = Files.walk(directory)) {
            deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
        }
        IOException first = null;
        for (final Path path : deepestFirst) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                if (first == null) {
                    first = new IOException("cannot delete " + path + " (of " + directory + "): " + e.getMessage(), e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
