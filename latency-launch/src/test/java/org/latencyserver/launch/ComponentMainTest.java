package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.launch.StderrCapture.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.StderrCapture.Run;

class ComponentMainTest {

    @TempDir
    Path directory;

    @Test
    void aRefusedLaunchPrintsOneLineExitsWithItsStatusAndStillDeletesAStaleReadyFile() throws Exception {
        final Path ready = Files.writeString(directory.resolve("peer.ready.json"), "{}");

        final Run run = run(() -> ComponentMain.serve(Component.PEER_AGENT, ready, "peer-agent ws2",
            () -> { throw ComponentMain.Refusal.failed("cannot start: port 4711 taken"); }, component -> { }));

        assertEquals(ComponentMain.EXIT_FAILED, run.status());
        assertEquals("peer-agent ws2: cannot start: port 4711 taken" + System.lineSeparator(), run.stderr());
        assertFalse(Files.exists(ready), "an earlier run's file would tell a waiting program this run serves");
    }

    @Test
    void aSettingTheContextRefusesIsAUsageErrorWithTheContextsMessage() throws Exception {
        final Run run = run(() -> ComponentMain.serve(Component.MIRROR, null, "latency mirror", () -> {
            ComponentMain.validate(() -> {
                throw new IllegalArgumentException("--poll-millis must be >= 10, was 5");
            });
            return new RunningComponentTest.Counted();
        }, component -> { }));

        assertEquals(ComponentMain.EXIT_USAGE, run.status());
        assertEquals("latency mirror: --poll-millis must be >= 10, was 5" + System.lineSeparator(), run.stderr());
    }

    @Test
    void aRefusalWhenAnnouncingClosesTheComponentAndWritesNoReadyFile() throws Exception {
        final Path ready = directory.resolve("mirror.ready.json");
        final RunningComponentTest.Counted component = new RunningComponentTest.Counted();

        final Run run = run(() -> ComponentMain.serve(Component.MIRROR, ready, "latency mirror", () -> component,
            running -> { throw ComponentMain.Refusal.usage("the server has no connection 7"); }));

        assertEquals(ComponentMain.EXIT_USAGE, run.status());
        assertEquals(1, component.stops.get());
        assertFalse(Files.exists(ready));
    }

    @Test
    void aServingComponentHasItsReadyFileUntilItsMainIsInterruptedThenIsClosedAndTheFileGone() throws Exception {
        final Path ready = directory.resolve("peer.ready.json");
        final RunningComponentTest.Counted component = new RunningComponentTest.Counted();
        final AtomicReference<Throwable> ended = new AtomicReference<>();
        final Thread main = new Thread(() -> {
            try {
                ComponentMain.serve(Component.PEER_AGENT, ready, "peer-agent ws2", () -> component, running -> { });
            } catch (Exception e) {
                ended.set(e);
            }
        }, "component-main-test");
        main.start();

        final ReadyFile serving = ReadyFile.await(ready, Duration.ofSeconds(10), main::isAlive, () -> "the main ended: " + ended);
        assertEquals("0", serving.fact("stops"));
        main.interrupt();
        main.join(10_000);

        assertFalse(main.isAlive());
        assertTrue(ended.get() instanceof InterruptedException, String.valueOf(ended.get()));
        assertEquals(1, component.stops.get());
        assertFalse(Files.exists(ready));
    }

    @Test
    void validatePassesOtherExceptionsThrough() {
        assertThrows(IllegalStateException.class, () -> ComponentMain.validate(() -> {
            throw new IllegalStateException("not a setting");
        }));
    }
}
