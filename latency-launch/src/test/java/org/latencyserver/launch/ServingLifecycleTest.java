package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServingLifecycleTest {

    @TempDir
    Path directory;

    @Test
    void aStaleReadyFileIsDeletedAtTheStartBeforeTheComponentServes() throws IOException {
        final Path file = Files.writeString(directory.resolve("peer.ready.json"), "{}");

        try (ServingLifecycle life = ServingLifecycle.begin(Component.PEER_AGENT, file)) {
            assertFalse(Files.exists(file), "an earlier run's file would say ready too early");
        }
    }

    @Test
    void readyWritesTheFileAndAStopRequestDeletesItBeforeTheComponentCloses() throws Exception {
        final Path file = directory.resolve("peer.ready.json");
        try (ServingLifecycle life = ServingLifecycle.begin(Component.PEER_AGENT, file)) {
            life.ready(ReadyFile.of(Component.PEER_AGENT).port("tcp", 4711));
            assertEquals(4711, ReadyFile.read(file).port("tcp"));

            life.requestStop();
            life.awaitStop();

            assertFalse(Files.exists(file));
        }
    }

    @Test
    void closeDeletesTheReadyFileWhenTheComponentStopsWithoutAStopRequestAndTwiceIsHarmless() throws Exception {
        final Path file = directory.resolve("console.ready.json");
        final ServingLifecycle life = ServingLifecycle.begin(Component.CONSOLE, file);
        life.ready(ReadyFile.of(Component.CONSOLE).port("http", 8470));
        assertTrue(Files.exists(file));

        life.close();
        life.close();

        assertFalse(Files.exists(file));
    }

    @Test
    void readyAgainRewritesTheFileWhileServingButNeverAfterAStopDeletedIt() throws Exception {
        final Path file = directory.resolve("agent.ready.json");
        try (ServingLifecycle life = ServingLifecycle.begin(Component.CLIENT_AGENT, file)) {
            life.ready(ReadyFile.of(Component.CLIENT_AGENT).fact("tls_certificate_expires", "2027-01-01T00:00:00Z"));
            life.readyAgain(ReadyFile.of(Component.CLIENT_AGENT).fact("tls_certificate_expires", "2029-01-01T00:00:00Z"));
            assertEquals("2029-01-01T00:00:00Z", ReadyFile.read(file).fact("tls_certificate_expires"));

            life.requestStop();
            life.awaitStop();
            life.readyAgain(ReadyFile.of(Component.CLIENT_AGENT).fact("tls_certificate_expires", "2030-01-01T00:00:00Z"));

            assertFalse(Files.exists(file), "a stopping component's ready file stays deleted");
        }
    }

    @Test
    void withoutAReadyFileNothingIsWritten() throws Exception {
        try (ServingLifecycle life = ServingLifecycle.begin(Component.MIRROR, null)) {
            life.ready(ReadyFile.of(Component.MIRROR).fact("connections", 2));
        }
        try (var files = Files.list(directory)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aReadyFileThatCannotBeWrittenIsNamedInTheError() throws Exception {
        final Path blocker = Files.writeString(directory.resolve("not-a-directory"), "x");
        final Path file = blocker.resolve("peer.ready.json");
        try (ServingLifecycle life = ServingLifecycle.begin(Component.PEER_AGENT, file)) {
            final IOException refused = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> life.ready(ReadyFile.of(Component.PEER_AGENT)));
            assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
        }
    }
}
