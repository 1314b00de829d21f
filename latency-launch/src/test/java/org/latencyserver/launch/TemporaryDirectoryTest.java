package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemporaryDirectoryTest {

    @TempDir
    Path parent;

    @Test
    void closingDeletesTheDirectoryWithItsFilesAndSubdirectories() throws Exception {
        final Path made;
        try (TemporaryDirectory directory = TemporaryDirectory.createIn(parent, "run")) {
            made = directory.path();
            Files.writeString(made.resolve("child.log"), "log");
            Files.createDirectories(made.resolve("naming/contexts"));
            Files.writeString(made.resolve("naming/contexts/root.json"), "{}");
            assertTrue(made.startsWith(parent) && made.getFileName().toString().startsWith("run"), made.toString());
        }
        assertFalse(Files.exists(made), "the run's directory is gone");
        try (Stream<Path> left = Files.list(parent)) {
            assertEquals(List.of(), left.toList(), "nothing left beside it");
        }
    }

    @Test
    void theDirectoryIsDeletedWhenTheRunFails() throws Exception {
        final Path[] made = new Path[1];
        assertThrows(IllegalStateException.class, () -> {
            try (TemporaryDirectory directory = TemporaryDirectory.createIn(parent, "failing")) {
                made[0] = directory.path();
                Files.writeString(made[0].resolve("peer.log"), "the peer's last words");
                throw new IllegalStateException("the run failed");
            }
        });
        assertFalse(Files.exists(made[0]), "the failed run's directory is gone too");
    }

    @Test
    void aKitClosedInTheSameTryStopsItsChildBeforeTheDirectoryGoes() throws Exception {
        final Path made;
        final ChildProcess child;
        try (TemporaryDirectory directory = TemporaryDirectory.createIn(parent, "kit");
             ProcessKit kit = ProcessKit.fromThisClasspath(directory.path())) {
            made = directory.path();
            child = kit.launchClass("stand-in", ReadyTestMain.class.getName())
                .args("sleep", "--ready-file", made.resolve("stand-in.ready.json").toString()).start();
            ReadyFile.await(made.resolve("stand-in.ready.json"), Duration.ofSeconds(60), child::isAlive, child::logEnd);
        }
        assertFalse(child.isAlive(), "the child was stopped");
        assertFalse(Files.exists(made), "its log and ready file went with the directory");
    }

    @Test
    void deletingATreeThatIsGoneDoesNothing() throws IOException {
        final Path gone = parent.resolve("never-made");

        TemporaryDirectory.deleteTree(gone);

        assertFalse(Files.exists(gone));
    }

    @Test
    void aDirectoryMadeUnderTheSystemTemporaryDirectoryIsThereUntilClosed() throws IOException {
        final TemporaryDirectory directory = TemporaryDirectory.create("temporary-directory-test");
        try {
            assertTrue(Files.isDirectory(directory.path()));
            assertEquals(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath(), directory.path().getParent());
        } finally {
            directory.close();
        }
        assertFalse(Files.exists(directory.path()));
    }
}
