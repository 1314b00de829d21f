package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    @Test
    void edgesOutOfOrderAreRefusedNamingTheKey() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "disorder.yaml",
            ConfigFixture.BASE + "thresholds: { port_states: bands, port_band_upper_percents: [97, 93] }");
        assertEquals("thresholds.port_band_upper_percents", fault.path());
        assertTrue(fault.reason().contains("must be a whole percent above 97"), fault.reason());
    }

    @Test
    void anEdgeOutsideTheLoadedRangeIsRefusedNamingTheItem() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "range.yaml",
            ConfigFixture.BASE + "thresholds: { port_states: bands, port_band_upper_percents: [95, 100] }");
        assertEquals("thresholds.port_band_upper_percents[1]", fault.path());
        assertEquals("must be 91..99, was 100", fault.reason());
    }

    @Test
    void edgesWithTheThesisStatesAreRefusedSayingTheyApplyOnlyToBands() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "thesis.yaml",
            ConfigFixture.BASE + "thresholds: { port_band_upper_percents: [95] }");
        assertEquals("thresholds.port_band_upper_percents", fault.path());
        assertTrue(fault.reason().startsWith("applies only with port_states: bands"), fault.reason());
    }

    @Test
    void anUnknownPortStatesWordIsRefusedWithTheWordsAllowed() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "word.yaml", ConfigFixture.BASE + "thresholds: { port_states: fine }");
        assertEquals("thresholds.port_states", fault.path());
        assertTrue(fault.reason().startsWith("must be one of bands | thesis"), fault.reason());
    }
}
