package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** What a demo clears in its work directory before it starts; stateless. */
final class DemoWorkDirectory {

    private DemoWorkDirectory() {
    }

    /**
     * Removes what an earlier run left in the work directory: the server's state and journal, its
     * stored profiles, and the naming service's bindings (an old run's point at dead objects).
     */
    static void clearState(final Path work) throws IOException {
        Files.deleteIfExists(work.resolve("demo.state.json"));
        Files.deleteIfExists(work.resolve("demo.state.json.journal"));
        deleteTree(work.resolve("naming"));
        deleteTree(work.resolve("demo.state.json.profiles"));
    }

    /** Deletes a directory and all it holds; nothing when it does not exist. */
    static void deleteTree(final Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
