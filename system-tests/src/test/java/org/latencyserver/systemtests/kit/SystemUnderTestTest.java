package org.latencyserver.systemtests.kit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ReadinessException;

/** The kit itself: a started component is serving, a failed start says why, and closing leaves nothing running. */
class SystemUnderTestTest {

    @TempDir
    Path directory;

    @Test
    void aServerIsReadyWithItsReferenceAndMetricsUrlAndClosingTheKitStopsIt() throws Exception {
        final ServerUnderTest server;
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            server = system.server(Testbed.write(directory, "testbed.yaml", Testbed.text()));
            assertTrue(server.ior().startsWith("IOR:"), server.ior());
            assertTrue(server.metricsUrl().startsWith("http://"), server.metricsUrl());
            assertTrue(Files.exists(directory.resolve("server.ready.json")), "its ready file, in the kit's directory");
            assertTrue(server.log().contains("INFO"), "it logs as in production (INFO), not as the tests do:\n" + server.log());
        }
        assertFalse(server.isAlive(), "closing the kit stopped it");
        assertFalse(Files.exists(directory.resolve("server.ready.json")), "a server stopped by SIGTERM deletes its ready file");
    }

    @Test
    void aComponentThatExitsBeforeItIsReadyFailsItsStartQuotingItsLog() throws Exception {
        final Path config = Testbed.write(directory, "broken.yaml", Testbed.text() + "not_an_option_of_the_server: 1\n");
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final ReadinessException refused = assertThrows(ReadinessException.class, () -> system.server(config));
            assertTrue(refused.getMessage().contains("not_an_option_of_the_server"), refused.getMessage());
        }
    }
}
