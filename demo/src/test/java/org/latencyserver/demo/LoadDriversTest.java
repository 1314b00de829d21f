package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;

class LoadDriversTest {

    @TempDir
    Path work;

    private ProcessKit kit;
    /** What each driver was asked for: "percent@core". */
    private final List<String> commands = new ArrayList<>();
    private LoadDrivers drivers;

    @BeforeEach
    void startKit() {
        kit = ProcessKit.fromThisClasspath(work);
        // A stand-in driver that loads nothing: it only has to run until stopped.
        drivers = new LoadDrivers(kit, Map.of("lab1", 0, "lab2", 1), (percent, core) -> {
            commands.add(percent + "@" + core);
            return List.of("/bin/sleep", "600");
        });
    }

    @AfterEach
    void stopKit() {
        kit.stopAll();
    }

    private ChildProcess driverOf(final String node) {
        return kit.running().stream().filter(child -> child.name().equals("load-" + node)).findFirst().orElseThrow();
    }

    @Test
    void aNodeGetsOneDriverOnItsCoreAndTheSameLevelAgainKeepsIt() throws Exception {
        drivers.drive("lab1", 30);
        final ChildProcess first = driverOf("lab1");

        drivers.drive("lab1", 30);

        assertEquals(List.of("30@0"), commands);
        assertEquals(first.pid(), driverOf("lab1").pid(), "not restarted for the level it already drives");
        assertTrue(first.isAlive());
    }

    @Test
    void aNewLevelReplacesTheDriverAndZeroStopsIt() throws Exception {
        drivers.drive("lab2", 30);
        final ChildProcess first = driverOf("lab2");

        drivers.drive("lab2", 120);
        final ChildProcess second = driverOf("lab2");
        assertFalse(first.isAlive(), "the old level's driver has ended");
        assertTrue(second.isAlive());

        drivers.drive("lab2", 0);
        assertFalse(second.isAlive());
        assertTrue(kit.running().isEmpty(), "no driver at 0 %");
        assertEquals(List.of("30@1", "100@1"), commands, "levels above 100 % are driven at 100 %");
    }

    @Test
    void aNodeWithoutACoreOfItsOwnIsNotDriven() throws Exception {
        drivers.drive("ws9", 80);

        assertTrue(commands.isEmpty());
        assertTrue(kit.running().isEmpty());
    }
}
