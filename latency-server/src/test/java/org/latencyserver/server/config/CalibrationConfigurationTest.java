package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

/** The keys of "estimates that hold": {@code calibration}, {@code probe_rate_per_second}, {@code dwell_millis}. */
class CalibrationConfigurationTest {

    @TempDir
    Path directory;

    @Test
    void aConnectionIsAdaptiveWithTenProbesPerSecondAndDwellsTwoPollsUnlessTheFileSaysOtherwise() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "base.yaml", BASE));
        final ConnectionSpec connection = configuration.connectionSpecs().get(0);
        assertEquals(CalibrationMode.ADAPTIVE, connection.calibration());
        assertEquals(10.0, connection.probeRatePerSecond());
        assertEquals(2 * configuration.server().pollIntervalMillis() * 1_000_000L, configuration.engine().dwellNanos());
        assertEquals(20_000 - 10, configuration.engine().budgetRoundTripsPerSecond(), "the probes come out of the budget");
    }

    @Test
    void thesisCalibrationNoProbesAndAnExplicitDwellAreRead() throws Exception {
        final String yaml = edit(BASE, "    qos: 3\n", "    qos: 3\n    calibration: thesis\n    probe_rate_per_second: 0\n")
            + "measurement:\n  dwell_millis: 750\n";
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "thesis.yaml", yaml));
        assertEquals(CalibrationMode.THESIS, configuration.connectionSpecs().get(0).calibration());
        assertEquals(0.0, configuration.connectionSpecs().get(0).probeRatePerSecond());
        assertEquals(750_000_000L, configuration.engine().dwellNanos());
    }

    @Test
    void anUnknownCalibrationModeIsRefusedNamingBothModes() throws Exception {
        final String yaml = edit(BASE, "    qos: 3\n", "    qos: 3\n    calibration: magic\n");
        final InputFault fault = ConfigFixture.onlyFault(directory, "magic.yaml", yaml);
        assertEquals("connections[0].calibration", fault.path());
        assertTrue(fault.reason().contains("'adaptive'") && fault.reason().contains("'thesis'"), fault.reason());
    }

    @Test
    void probesThatWouldTakeMoreThanHalfTheBudgetAreRefused() throws Exception {
        final String yaml = edit(BASE, "    qos: 3\n", "    qos: 3\n    probe_rate_per_second: 600\n")
            + "measurement:\n  budget_round_trips_per_second: 1000\n";
        final InputFault fault = ConfigFixture.onlyFault(directory, "greedy.yaml", yaml);
        assertTrue(fault.reason().contains("600.0 round trips/s, more than half"), fault.reason());
    }

    @Test
    void aNegativeProbeRateOrDwellIsRefused() throws Exception {
        final String yaml = edit(BASE, "    qos: 3\n", "    qos: 3\n    probe_rate_per_second: -1\n")
            + "measurement:\n  dwell_millis: -5\n";
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "negative.yaml", yaml);
        assertEquals(2, faults.size(), faults::toString);
    }
}
