package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.latencyserver.server.config.ConfigFixture.BASE;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.server.transport.ConnectionLimits;

/** The transport keys of {@code limits:}: the message limit sized from the other limits, and its check against them. */
class ConnectionLimitsConfigurationTest {

    @TempDir
    Path directory;

    private ConnectionLimits load(final String yaml) throws Exception {
        return ConfigurationLoader.load(ConfigFixture.write(directory, "server.yaml", yaml)).connectionLimits();
    }

    @Test
    void withoutTheKeysTheMessageLimitIsTheLargestLegitimateCall() throws Exception {
        assertEquals(new ConnectionLimits(67_174_400, 60_000, 1000), load(BASE));
        // Without large profiles the largest result decides: 24 × 20,000 + 65,536.
        assertEquals(545_536, load(BASE + "limits:\n  max_profile_bytes: 16384\n").maxGiopMessageBytes());
    }

    @Test
    void everyKeyIsRead() throws Exception {
        assertEquals(new ConnectionLimits(100_000_000, 5_000, 20), load(BASE + "limits:\n  max_giop_message_bytes: 100000000\n"
            + "  idle_connection_timeout_millis: 5000\n  max_connections: 20\n"));
    }

    @Test
    void aMessageLimitBelowTheLargestLegitimateCallIsRefusedNamingWhatDecidesIt() throws Exception {
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "server.yaml",
            BASE + "limits:\n  max_histogram_bins: 20000\n  max_profile_bytes: 16384\n  max_giop_message_bytes: 100000\n");
        assertEquals(List.of("limits.max_giop_message_bytes: 100,000 bytes is below the largest legitimate call, 545,536 bytes"
                + " (max(24 × max_histogram_bins 20,000, max_profile_bytes 16,384) + 65,536): lower those limits first, or leave"
                + " max_giop_message_bytes out"),
            faults.stream().map(f -> f.path() + ": " + f.reason()).toList());
    }
}
