package org.latencyserver.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InstallationTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty(Installation.ROOT_PROPERTY);
        System.clearProperty(Installation.STATE_PROPERTY);
        System.clearProperty(Installation.HOME_PROPERTY);
    }

    @Test
    void aCheckoutKeepsItsStateInDotLatencyUnderItsRootAndHasNoHome() {
        System.setProperty(Installation.ROOT_PROPERTY, "/r/checkout");

        final Installation installation = Installation.current();

        assertEquals(Path.of("/r/checkout"), installation.root());
        assertEquals(Path.of("/r/checkout/.latency"), installation.stateDirectory());
        assertEquals(Optional.empty(), installation.home());
        assertEquals("./latency", installation.launcherCommand());
    }

    @Test
    void aDistributionTakesTheStateDirectoryAndHomeItsLauncherSets() {
        System.setProperty(Installation.ROOT_PROPERTY, "/opt/latency-1.0/share/latency");
        System.setProperty(Installation.STATE_PROPERTY, "/home/u/.latency");
        System.setProperty(Installation.HOME_PROPERTY, "/opt/latency-1.0");

        final Installation installation = Installation.current();

        assertEquals(Path.of("/home/u/.latency"), installation.stateDirectory());
        assertEquals(Optional.of(Path.of("/opt/latency-1.0")), installation.home());
        assertEquals("/opt/latency-1.0/bin/latency", installation.launcherCommand());
    }

    @Test
    void withoutALauncherTheWorkingDirectoryIsTheRoot() {
        final Installation installation = Installation.current();

        assertEquals(Path.of("").toAbsolutePath(), installation.root());
        assertTrue(installation.stateDirectory().endsWith(".latency"));
    }
}
