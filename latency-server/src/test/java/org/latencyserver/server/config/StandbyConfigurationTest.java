package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;

/** {@code server.standby}: the pair's two addresses, read and checked. */
class StandbyConfigurationTest {

    @TempDir
    Path directory;

    private static String withStandby(final String... lines) {
        return edit(BASE, "  name: LatencyServer", "  name: LatencyServer\n  standby:\n" + String.join("\n", lines));
    }

    @Test
    void aServerWithoutTheBlockHasNoStandby() throws Exception {
        assertNull(ConfigurationLoader.load(ConfigFixture.write(directory, "single.yaml", BASE)).server().standby());
    }

    @Test
    void theBlockGivesBothAddressesAndTheAcknowledgementTimeOutDefaultsToTwoSeconds() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "pair.yaml",
            withStandby("    listen: 127.0.0.1:7800", "    peer: 10.1.2.3:7801")));
        assertEquals(new StandbySettings("127.0.0.1", 7800, "10.1.2.3", 7801, 2000), configuration.server().standby());
    }

    @Test
    void anAddressWithoutAPortIsRefusedAtItsKey() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "noport.yaml",
            withStandby("    listen: 127.0.0.1", "    peer: 127.0.0.1:7801"));
        assertEquals("server.standby.listen", fault.path());
        assertTrue(fault.reason().contains("host:port"), fault.reason());
    }

    @Test
    void aPeerThatIsThisServersOwnAddressIsRefused() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "self.yaml",
            withStandby("    listen: 127.0.0.1:7800", "    peer: 127.0.0.1:7800"));
        assertEquals("server.standby.peer", fault.path());
        assertTrue(fault.reason().contains("the other server's"), fault.reason());
    }

    @Test
    void aMissingPeerIsRefusedNamingWhatItIsFor() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "nopeer.yaml", withStandby("    listen: 127.0.0.1:7800"));
        assertTrue(fault.path().startsWith("server.standby"), fault.toString());
        assertTrue(fault.toString().contains("peer"), fault.toString());
    }
}
