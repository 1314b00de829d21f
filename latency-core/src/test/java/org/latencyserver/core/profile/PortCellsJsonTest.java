package org.latencyserver.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.state.CpuStatePair;

class PortCellsJsonTest {

    private static final String PORT_CELL = "{\"port_percent\": [91, 95], \"message_size_bytes\": 256, \"n\": 10, "
        + "\"mean_ms\": 12.0, \"std_dev_ms\": 2.0, \"max_ms\": 19.0, "
        + "\"histogram\": {\"upper_edges_ns\": [10000000, 15000000, 20000000], \"counts\": [3, 6, 1], \"overflow\": 0}}";

    /** Six CPU pairs at 256 B and the given port cells, in the given format. */
    private static String profile(final String format, final String... portCells) {
        final StringBuilder cells = new StringBuilder();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            cells.append(cells.length() > 0 ? ",\n" : "").append("    {\"cpu\": [\"").append(pair.client().thesisLabel())
                .append("\", \"").append(pair.peer().thesisLabel()).append("\"], \"message_size_bytes\": 256, \"n\": 10, ")
                .append("\"mean_ms\": 1.5, \"std_dev_ms\": 0.4, \"max_ms\": 2.9, ")
                .append("\"histogram\": {\"upper_edges_ns\": [1000000, 2000000, 3000000], \"counts\": [4, 5, 1], \"overflow\": 0}}");
        }
        return "{\n  \"format\": \"" + format + "\",\n"
            + "  \"name\": \"lab\", \"workstation_type\": \"x86-2core\", \"layer\": \"CORBA\",\n"
            + "  \"units\": {\"latency\": \"ms\", \"histogram_edges\": \"ns\"},\n"
            + "  \"provenance\": {\"source\": \"test\"},\n"
            + "  \"port_model\": {\"kind\": \"thesis-queue\"},\n"
            + "  \"cells\": [\n" + cells + "\n  ]"
            + (portCells.length == 0 ? "" : ",\n  \"port_cells\": [\n    " + String.join(",\n    ", portCells) + "\n  ]") + "\n}\n";
    }

    private static List<InputFault> faultsOf(final String json) {
        return assertThrows(ProfileValidationException.class, () -> ProfileJson.parse(json, "bad.json")).faults();
    }

    @Test
    void aProfileWithPortCellsReadsAndWritesBackAsFormatTwo() throws Exception {
        final Profile profile = ProfileJson.parse(profile("latency-profile/2", PORT_CELL), "ports.json");
        assertEquals(1, profile.portCells().size());
        final PortCell cell = profile.portCells().get(0);
        assertEquals(List.of(91, 95, 256), List.of(cell.lowestPercent(), cell.highestPercent(), cell.messageSizeBytes()));
        assertEquals(cell, profile.portCell(93, 256).orElseThrow());
        assertTrue(profile.portCell(96, 256).isEmpty());
        final String written = ProfileJson.toJson(profile);
        assertTrue(written.contains("\"format\" : \"latency-profile/2\""), written);
        assertEquals(profile, ProfileJson.parse(written, "written.json"));
    }

    @Test
    void aProfileWithoutPortCellsIsStillWrittenAsFormatOneForOlderReaders() throws Exception {
        final Profile profile = ProfileJson.parse(profile("latency-profile/2"), "none.json");
        assertTrue(ProfileJson.toJson(profile).contains("\"format\" : \"latency-profile/1\""));
    }

    @Test
    void portCellsInAFormatOneDocumentAreRefusedNamingTheFormatTheyNeed() {
        final List<InputFault> faults = faultsOf(profile("latency-profile/1", PORT_CELL));
        assertEquals("port_cells", faults.get(0).path());
        assertTrue(faults.get(0).reason().startsWith("measured port cells need format 'latency-profile/2'"), faults.toString());
    }

    @Test
    void aBandOutsideTheLoadedRangeIsNamedWithTheValueFound() {
        final List<InputFault> faults = faultsOf(profile("latency-profile/2", PORT_CELL.replace("[91, 95]", "[85, 95]")));
        assertEquals("port_cells[0].port_percent[0]", faults.get(0).path());
        assertEquals("expected a whole percent 91..100 (a loaded port), found number 85", faults.get(0).reason());
    }

    @Test
    void overlappingBandsOfOneSizeAreRefusedNamingTheLaterCell() {
        final List<InputFault> faults = faultsOf(profile("latency-profile/2", PORT_CELL,
            PORT_CELL.replace("[91, 95]", "[95, 98]")));
        assertEquals("port_cells[1].port_percent", faults.get(0).path());
        assertTrue(faults.get(0).reason().contains("overlaps port 91–95 %, 256 B"), faults.get(0).reason());
    }

    @Test
    void aPortCellWithoutItsHistogramIsRefused() {
        final String withoutHistogram = PORT_CELL.substring(0, PORT_CELL.indexOf(", \"histogram\"")) + "}";
        final List<InputFault> faults = faultsOf(profile("latency-profile/2", withoutHistogram));
        assertEquals("port_cells[0]", faults.get(0).path());
        assertTrue(faults.get(0).reason().startsWith("missing field 'histogram'"), faults.get(0).reason());
    }

    @Test
    void aPortCellWhoseCountsDoNotAddUpToItsNIsRefused() {
        final List<InputFault> faults = faultsOf(profile("latency-profile/2", PORT_CELL.replace("\"n\": 10", "\"n\": 11")));
        assertEquals("port_cells[0].histogram", faults.get(0).path());
    }
}
