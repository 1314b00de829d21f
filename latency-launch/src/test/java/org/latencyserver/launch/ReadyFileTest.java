package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadyFileTest {

    @TempDir
    Path directory;

    @Test
    void whatIsWrittenIsReadBackByRole() throws IOException {
        final Path file = directory.resolve("server.ready.json");
        ReadyFile.of(Component.SERVER).reference("server", "IOR:00ab").port("metrics", 39121)
            .url("metrics", "http://127.0.0.1:39121/metrics").file("ior", directory.resolve("server.ior"))
            .fact("connections", 6).writeTo(file);

        final ReadyFile ready = ReadyFile.read(file);

        assertEquals("server", ready.component());
        assertEquals(ProcessHandle.current().pid(), ready.pid());
        assertEquals("IOR:00ab", ready.reference("server"));
        assertEquals(39121, ready.port("metrics"));
        assertEquals("http://127.0.0.1:39121/metrics", ready.url("metrics"));
        assertEquals(directory.resolve("server.ior").toAbsolutePath(), ready.file("ior"));
        assertEquals("6", ready.fact("connections"));
        assertTrue(ready.optionalUrl("console").isEmpty());
    }

    @Test
    void aMissingRoleIsRefusedNamingTheComponentAndWhatItHas() throws IOException {
        final Path file = directory.resolve("peer.ready.json");
        ReadyFile.of(Component.PEER_AGENT).reference("peer", "IOR:01").writeTo(file);

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> ReadyFile.read(file).reference("server"));

        assertTrue(refused.getMessage().contains("peer-agent"), refused.getMessage());
        assertTrue(refused.getMessage().contains("references.server"), refused.getMessage());
        assertTrue(refused.getMessage().contains("[peer]"), refused.getMessage());
    }

    @Test
    void anotherFormatIsRefusedWithTheFormatFound() throws IOException {
        final Path file = directory.resolve("old.ready.json");
        Files.writeString(file, "{\"format\":\"latency-demo-ready/1\",\"component\":\"demo\",\"pid\":1}");

        final IOException refused = assertThrows(IOException.class, () -> ReadyFile.read(file));

        assertTrue(refused.getMessage().contains("latency-demo-ready/1"), refused.getMessage());
        assertTrue(refused.getMessage().contains(ReadyFile.FORMAT), refused.getMessage());
    }

    @Test
    void keysANewerWriterAddsAreIgnored() throws IOException {
        final Path file = directory.resolve("newer.ready.json");
        Files.writeString(file, "{\"format\":\"" + ReadyFile.FORMAT + "\",\"component\":\"console\",\"pid\":7,"
            + "\"urls\":{\"console\":\"http://127.0.0.1:1/\"},\"colour\":\"blue\"}");

        assertEquals("http://127.0.0.1:1/", ReadyFile.read(file).url("console"));
    }

    @Test
    void awaitingAFileOfAComponentThatHasExitedFailsAtOnceWithWhatTheCallerKnows() {
        final ReadinessException failed = assertThrows(ReadinessException.class,
            () -> ReadyFile.await(directory.resolve("never.json"), Duration.ofMinutes(5), () -> false, () -> "log: boom"));

        assertTrue(failed.getMessage().contains("exited before it was ready"), failed.getMessage());
        assertTrue(failed.getMessage().contains("log: boom"), failed.getMessage());
    }

    @Test
    void awaitingReturnsTheFileOnceItIsThere() throws Exception {
        final Path file = directory.resolve("late.ready.json");
        final Thread writer = new Thread(() -> {
            try {
                Thread.sleep(200);
                ReadyFile.of(Component.CONSOLE).url("console", "http://127.0.0.1:2/").writeTo(file);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();

        final ReadyFile ready = ReadyFile.await(file, Duration.ofSeconds(60), () -> true, () -> "");

        assertEquals("http://127.0.0.1:2/", ready.url("console"));
        writer.join();
    }

    @Test
    void anUnreadableFileIsReportedAsUnusableNotWaitedFor() throws IOException {
        final Path file = directory.resolve("broken.ready.json");
        Files.writeString(file, "{not json");

        final ReadinessException failed = assertThrows(ReadinessException.class,
            () -> ReadyFile.await(file, Duration.ofMinutes(5), () -> true, () -> "log"));

        assertTrue(failed.getMessage().contains("unusable"), failed.getMessage());
    }
}
