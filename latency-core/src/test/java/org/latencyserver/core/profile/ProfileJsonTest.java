package org.latencyserver.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

class ProfileJsonTest {

    private static final String FILE = "bad.json";

    /** A valid profile: six pairs at 256 B, each with a 3-bin histogram of 10 samples. */
    private static String valid() {
        final StringBuilder cells = new StringBuilder();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            if (cells.length() > 0) {
                cells.append(",\n");
            }
            cells.append("    {\"cpu\": [\"").append(pair.client().thesisLabel()).append("\", \"")
                .append(pair.peer().thesisLabel()).append("\"], \"message_size_bytes\": 256, \"n\": 10, ")
                .append("\"mean_ms\": 1.5, \"std_dev_ms\": 0.4, \"max_ms\": 2.9, ")
                .append("\"histogram\": {\"upper_edges_ns\": [1000000, 2000000, 3000000], \"counts\": [4, 5, 1], \"overflow\": 0}}");
        }
        return "{\n"
            + "  \"format\": \"latency-profile/1\",\n"
            + "  \"name\": \"lab\", \"workstation_type\": \"x86-2core\", \"layer\": \"CORBA\",\n"
            + "  \"units\": {\"latency\": \"ms\", \"histogram_edges\": \"ns\"},\n"
            + "  \"provenance\": {\"source\": \"test\", \"orb\": \"JacORB 3.9\"},\n"
            + "  \"port_model\": {\"kind\": \"thesis-queue\"},\n"
            + "  \"cells\": [\n" + cells + "\n  ]\n}\n";
    }

    private static List<ProfileFault> faultsOf(final String json) {
        final ProfileValidationException error =
            assertThrows(ProfileValidationException.class, () -> ProfileJson.parse(json, FILE));
        assertFalse(error.faults().isEmpty());
        error.faults().forEach(fault -> assertEquals(FILE, fault.file()));
        return error.faults();
    }

    private static ProfileFault onlyFault(final String json) {
        final List<ProfileFault> faults = faultsOf(json);
        assertEquals(1, faults.size(), faults.toString());
        return faults.get(0);
    }

    @Test
    void validProfileReadsAndWritesBackUnchanged() throws Exception {
        final Profile profile = ProfileJson.parse(valid(), "valid.json");
        assertEquals("lab", profile.name());
        assertEquals(6, profile.cells().size());
        assertTrue(profile.hasHistograms());
        final ProfileCell cell = profile.cell(new CpuStatePair(CpuState.HIGH, CpuState.LOW), 256).orElseThrow();
        assertEquals(LatencyHistogram.of(new long[] {1_000_000, 2_000_000, 3_000_000}, new long[] {4, 5, 1}, 0), cell.histogram());
        final String written = ProfileJson.toJson(profile);
        assertEquals(profile, ProfileJson.parse(written, "written.json"));
        assertEquals(written, ProfileJson.toJson(ProfileJson.parse(written, "again.json")), "deterministic");
    }

    @Test
    void measuredPortTableRoundTrips() throws Exception {
        final Profile base = ProfileJson.parse(valid(), "valid.json");
        final Profile withTable = new Profile(base.name(), base.workstationType(), base.layer(), base.provenance(),
            base.assumptions(), MeasuredTablePortModel.thesisTable3621(), base.cells());
        assertEquals(withTable, ProfileJson.parse(ProfileJson.toJson(withTable), "table.json"));
    }

    @Test
    void cellsGivenInReceiverSenderOrderAreStoredCanonical() throws Exception {
        final Profile profile = ProfileJson.parse(valid().replace("[\"0-33\", \"67-100\"]", "[\"67-100\", \"0-33\"]"), "x");
        assertTrue(profile.cell(new CpuStatePair(CpuState.LOW, CpuState.HIGH), 256).isPresent());
    }

    @Test
    void missingCellIsNamed() {
        final String json = valid().replaceFirst("\\{\"cpu\": \\[\"34-66\", \"67-100\"\\][^\\n]*\\n", "");
        final ProfileFault fault = onlyFault(json);
        assertEquals("cells", fault.location());
        assertEquals("missing cell 34-66/67-100 at 256 B (every message size needs all six CPU state pairs)", fault.reason());
    }

    @Test
    void negativeCountIsNamedWithItsCellAndIndex() {
        final String json = valid().replaceFirst("\"counts\": \\[4, 5, 1\\]", "\"counts\": [4, -4, 10]");
        final ProfileFault fault = onlyFault(json);
        assertEquals("cells[0] (0-33/0-33, 256 B).histogram.counts[1]", fault.location());
        assertEquals("count must be >= 0, was -4", fault.reason());
    }

    @Test
    void binsOutOfOrderAreNamed() {
        final String json = valid().replaceFirst("\\[1000000, 2000000, 3000000\\]", "[1000000, 3000000, 2000000]");
        final ProfileFault fault = onlyFault(json);
        assertEquals("cells[0] (0-33/0-33, 256 B).histogram.upper_edges_ns[2]", fault.location());
        assertTrue(fault.reason().startsWith("bins out of order: edge 2000000 ns is not above the previous edge 3000000 ns"),
            fault.reason());
    }

    @Test
    void notANumberIsNamed() {
        final String json = valid().replaceFirst("\"mean_ms\": 1.5", "\"mean_ms\": NaN");
        final ProfileFault fault = onlyFault(json);
        assertEquals("cells[0] (0-33/0-33, 256 B).mean_ms", fault.location());
        assertEquals("must be a finite number, was NaN", fault.reason());
    }

    @Test
    void unknownFieldIsNamedAtAnyDepth() {
        final List<ProfileFault> faults = faultsOf(valid()
            .replace("\"layer\": \"CORBA\",", "\"layer\": \"CORBA\", \"colour\": \"blue\",")
            .replaceFirst("\"max_ms\": 2.9,", "\"max_ms\": 2.9, \"maxx_ms\": 3,"));
        assertEquals(2, faults.size(), faults.toString());
        assertEquals("colour", faults.get(0).location());
        assertTrue(faults.get(0).reason().startsWith("unknown field 'colour'"), faults.get(0).reason());
        assertEquals("cells[0] (0-33/0-33, 256 B).maxx_ms", faults.get(1).location());
    }

    @Test
    void wrongUnitsAreRefusedNamingTheUnitFoundAndExpected() {
        final ProfileFault fault = onlyFault(valid().replace("\"latency\": \"ms\"", "\"latency\": \"us\""));
        assertEquals("units.latency", fault.location());
        assertTrue(fault.reason().contains("'us'") && fault.reason().contains("'ms'"), fault.reason());
        final ProfileFault edges = onlyFault(valid().replace("\"histogram_edges\": \"ns\"", "\"histogram_edges\": \"ms\""));
        assertEquals("units.histogram_edges", edges.location());
    }

    @Test
    void truncatedFileIsReportedWithLineAndColumn() {
        final String json = valid();
        final ProfileFault fault = onlyFault(json.substring(0, json.length() / 2));
        assertTrue(fault.location().matches("line \\d+, column \\d+"), fault.location());
        assertTrue(fault.reason().startsWith("malformed or truncated JSON"), fault.reason());
    }

    @Test
    void countsThatDoNotAddUpToNAreRefused() {
        final ProfileFault fault = onlyFault(valid().replaceFirst("\"n\": 10,", "\"n\": 11,"));
        assertEquals("cells[0] (0-33/0-33, 256 B).histogram", fault.location());
        assertEquals("counts plus overflow add up to 10 samples, but n is 11", fault.reason());
    }

    @Test
    void everyFaultIsReportedTogether() {
        final List<ProfileFault> faults = faultsOf(valid()
            .replace("\"format\": \"latency-profile/1\",", "")
            .replace("\"layer\": \"CORBA\"", "\"layer\": \"ATM\"")
            .replaceFirst("\"mean_ms\": 1.5", "\"mean_ms\": -1")
            .replaceFirst("\"cpu\": \\[\"0-33\", \"34-66\"\\]", "\"cpu\": [\"0-33\", \"50-60\"]"));
        final List<String> locations = new ArrayList<>();
        faults.forEach(f -> locations.add(f.location()));
        assertTrue(locations.contains("format"), locations.toString());
        assertTrue(locations.contains("layer"), locations.toString());
        assertTrue(locations.contains("cells[0] (0-33/0-33, 256 B).mean_ms"), locations.toString());
        assertTrue(locations.contains("cells[1].cpu[1]"), locations.toString());
        assertTrue(faults.size() >= 5, "the bad CPU label also leaves a cell missing: " + faults);
    }

    @Test
    void duplicateCellIsRefused() {
        final String json = valid().replace("\"cpu\": [\"0-33\", \"34-66\"]", "\"cpu\": [\"0-33\", \"0-33\"]");
        final List<ProfileFault> faults = faultsOf(json);
        assertTrue(faults.stream().anyMatch(f -> f.reason().startsWith("duplicate cell: cells[0]")), faults.toString());
    }

    @Test
    void unreadableFileIsAFaultToo(@TempDir final Path directory) {
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.read(directory.resolve("absent.json")));
        assertTrue(error.faults().get(0).reason().startsWith("cannot be read"), error.getMessage());
    }

    @Test
    void writeIsAtomicAndLeavesNoTemporaryFiles(@TempDir final Path directory) throws Exception {
        final Profile profile = ProfileJson.parse(valid(), "valid.json");
        final Path file = directory.resolve("lab.json");
        ProfileJson.write(profile, file);
        ProfileJson.write(profile, file);
        assertEquals(profile, ProfileJson.read(file));
        try (var listing = Files.list(directory)) {
            assertEquals(List.of(file), listing.toList());
        }
    }
}
