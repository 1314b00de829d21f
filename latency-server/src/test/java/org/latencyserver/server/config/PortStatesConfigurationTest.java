package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.state.PortBands;

class PortStatesConfigurationTest {

    @TempDir
    Path directory;

    private ServerConfiguration load(final String thresholds) throws Exception {
        return ConfigurationLoader.load(ConfigFixture.write(directory, "server.yaml", ConfigFixture.BASE + thresholds));
    }

    @Test
    void withoutPortStatesAPortHasTheThesisStateForEveryLoadedPercent() throws Exception {
        assertEquals(PortBands.THESIS, load("").thresholds().portBands());
        assertEquals(PortBands.THESIS, load("thresholds: { port_states: thesis }").thresholds().portBands());
        assertEquals(PortBands.THESIS, load("").engine().portBands());
    }

    @Test
    void bandsWithoutEdgesAreTheDefaultBandsAndEdgesGivenAreUsed() throws Exception {
        assertEquals(List.of(95, 98, 100), load("thresholds: { port_states: bands }").engine().portBands().upperPercents());
        assertEquals(List.of(93, 97, 100),
            load("thresholds: { port_states: bands, port_band_upper_percents: [93, 97] }").engine().portBands().upperPercents());
    }

    /**
     * Loads the base document with these thresholds from its own file, checks it is refused with one fault at
     * {@code path}.
     * @return the fault's reason
     */
    private String refusedAt(final String fileName, final String thresholds, final String path) throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, fileName, ConfigFixture.BASE + thresholds);
        assertEquals(path, fault.path(), fault::toString);
        return fault.reason();
    }

    /** Edges out of order, edges with the thesis states, an unknown port_states word: each refused naming its key. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
        disorder.yaml ; thresholds: { port_states: bands, port_band_upper_percents: [97, 93] } ; thresholds.port_band_upper_percents ; band upper edge [1] must be a whole percent above 97
        thesis.yaml   ; thresholds: { port_band_upper_percents: [95] }                         ; thresholds.port_band_upper_percents ; applies only with port_states: bands
        word.yaml     ; thresholds: { port_states: fine }                                      ; thresholds.port_states              ; must be one of bands | thesis
        """)
    void aRefusedPortStatesSettingIsNamedWithWhatIsAllowed(final String fileName, final String thresholds, final String path,
                                                          final String reasonStart) throws Exception {
        final String reason = refusedAt(fileName, thresholds, path);
        assertTrue(reason.startsWith(reasonStart), reason);
    }

    @Test
    void anEdgeOutsideTheLoadedRangeIsRefusedNamingTheItem() throws Exception {
        assertEquals("must be 91..99, was 100", refusedAt("range.yaml",
            "thresholds: { port_states: bands, port_band_upper_percents: [95, 100] }", "thresholds.port_band_upper_percents[1]"));
    }
}
