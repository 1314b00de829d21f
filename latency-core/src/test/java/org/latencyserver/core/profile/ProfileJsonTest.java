package org.latencyserver.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFault;
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

    private static List<InputFault> faultsOf(final String json) {
        final ProfileValidationException error =
            assertThrows(ProfileValidationException.class, () -> ProfileJson.parse(json, FILE));
        assertFalse(error.faults().isEmpty());
        error.faults().forEach(fault -> assertEquals(FILE, fault.source()));
        return error.faults();
    }

    /** @return the 1-based line and column where {@code token} first occurs in {@code text} */
    private static int[] placeOf(final String text, final String token) {
        final int index = text.indexOf(token);
        assertTrue(index >= 0, token + " is in the text");
        final String before = text.substring(0, index);
        return new int[] {(int) before.chars().filter(c -> c == '\n').count() + 1, index - before.lastIndexOf('\n')};
    }

    private static InputFault faultAt(final String text, final String token, final String path, final String reason) {
        final int[] at = placeOf(text, token);
        return new InputFault(FILE, at[0], at[1], path, reason);
    }

    private static InputFault onlyFault(final String json) {
        final List<InputFault> faults = faultsOf(json);
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
            base.assumptions(), MeasuredTablePortModel.thesisTable3_6_2_1(), base.cells());
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
        final InputFault fault = onlyFault(json);
        assertEquals("cells", fault.path());
        assertEquals("missing cell 34-66/67-100 at 256 B (every message size needs all six CPU state pairs)", fault.reason());
    }

    /**
     * One edit of the valid profile, one fault: its path and its reason, exactly. The edit replaces
     * the first occurrence of the text (in the first cell where the text is a cell's).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "a negative count is named with its cell and index | \"counts\": [4, 5, 1] | \"counts\": [4, -4, 10] | cells[0] (0-33/0-33, 256 B).histogram.counts[1] | count must be >= 0, was -4",
        "not a number is named | \"mean_ms\": 1.5 | \"mean_ms\": NaN | cells[0] (0-33/0-33, 256 B).mean_ms | must be a finite number, was NaN",
        "a latency unit other than ms is refused naming the unit found and expected | \"latency\": \"ms\" | \"latency\": \"us\" | units.latency | unit 'us' is not supported; latencies (mean_ms, max_ms, std_dev_ms) are in 'ms'",
        "a histogram edge unit other than ns is refused naming the unit found and expected | \"histogram_edges\": \"ns\" | \"histogram_edges\": \"ms\" | units.histogram_edges | unit 'ms' is not supported; histogram edges are in 'ns'",
        "counts that do not add up to n are refused | \"n\": 10, | \"n\": 11, | cells[0] (0-33/0-33, 256 B).histogram | counts plus overflow add up to 10 samples, but n is 11",
        "a missing required cell field is named | ~\"n\": 10, ~ | ~~ | cells[0] (0-33/0-33, 256 B).n | missing required field 'n'",
        "a missing required top-level field is named | \"provenance\": {\"source\": \"test\", \"orb\": \"JacORB 3.9\"}, | ~~ | provenance | missing required field 'provenance'",
        "a required field given as null is a wrong type | \"n\": 10, | \"n\": null, | cells[0] (0-33/0-33, 256 B).n | expected a whole number, found null",
        "a string where a whole number belongs is named with the value found | \"n\": 10, | \"n\": \"ten\", | cells[0] (0-33/0-33, 256 B).n | expected a whole number, found string \"ten\"",
        "a number where a string belongs is named with the value found | \"layer\": \"CORBA\" | \"layer\": 3 | layer | expected a non-empty string, found number 3",
        "an array where an object belongs is named | \"units\": {\"latency\": \"ms\", \"histogram_edges\": \"ns\"} | \"units\": [\"ms\", \"ns\"] | units | expected an object, found array",
        "a fraction where a whole number belongs is named with the value found | \"n\": 10, | \"n\": 10.5, | cells[0] (0-33/0-33, 256 B).n | expected a whole number, found number 10.5",
        "a maximum below the mean is refused | \"max_ms\": 2.9 | \"max_ms\": 1.2 | cells[0] (0-33/0-33, 256 B).max_ms | maximum 1.2 ms is below the mean 1.5 ms",
        "equal edges are out of order too | [1000000, 2000000, 3000000] | [1000000, 2000000, 2000000] | cells[0] (0-33/0-33, 256 B).histogram.upper_edges_ns[2] | bins out of order: edge 2000000 ns is not above the previous edge 2000000 ns",
        "a zero edge is refused | [1000000, 2000000, 3000000] | [0, 2000000, 3000000] | cells[0] (0-33/0-33, 256 B).histogram.upper_edges_ns[0] | edge must be >= 1 ns, was 0",
        "counts and edges of different length are refused | \"counts\": [4, 5, 1] | \"counts\": [4, 6] | cells[0] (0-33/0-33, 256 B).histogram | upper_edges_ns has 3 entries but counts has 2",
        "an unknown format version is refused | latency-profile/1 | latency-profile/3 | format | unknown format 'latency-profile/3'; this reader understands 'latency-profile/1' and 'latency-profile/2'"})
    void oneBadEditIsOneFaultNamingItsPathAndReason(final String behaviour, final String original, final String replacement,
                                                    final String path, final String reason) {
        final InputFault fault = onlyFault(valid().replaceFirst(Pattern.quote(original), Matcher.quoteReplacement(replacement)));
        assertEquals(path, fault.path());
        assertEquals(reason, fault.reason());
    }

    @Test
    void binsOutOfOrderAreNamed() {
        final String json = valid().replaceFirst("\\[1000000, 2000000, 3000000\\]", "[1000000, 3000000, 2000000]");
        final InputFault fault = onlyFault(json);
        assertEquals("cells[0] (0-33/0-33, 256 B).histogram.upper_edges_ns[2]", fault.path());
        assertTrue(fault.reason().startsWith("bins out of order: edge 2000000 ns is not above the previous edge 3000000 ns"),
            fault.reason());
    }

    @Test
    void unknownFieldIsNamedAtAnyDepth() {
        final List<InputFault> faults = faultsOf(valid()
            .replace("\"layer\": \"CORBA\",", "\"layer\": \"CORBA\", \"colour\": \"blue\",")
            .replaceFirst("\"max_ms\": 2.9,", "\"max_ms\": 2.9, \"maxx_ms\": 3,"));
        assertEquals(2, faults.size(), faults.toString());
        assertEquals("colour", faults.get(0).path());
        assertEquals("unknown field 'colour'; expected one of [assumptions, cells, format, layer, name, port_cells, port_model, "
            + "provenance, units, workstation_type]", faults.get(0).reason());
        assertEquals("cells[0] (0-33/0-33, 256 B).maxx_ms", faults.get(1).path());
        assertTrue(faults.get(1).reason().startsWith("unknown field 'maxx_ms'; expected one of [cpu, "), faults.get(1).reason());
    }

    @Test
    void truncatedFileIsReportedWithLineAndColumn() {
        final String json = valid();
        final InputFault fault = onlyFault(json.substring(0, json.length() / 2));
        assertEquals("file", fault.path());
        assertTrue(fault.line() > 0 && fault.column() > 0, fault::toString);
        assertTrue(fault.reason().startsWith("malformed or truncated JSON"), fault.reason());
    }

    @Test
    void everyFaultIsReportedTogether() {
        final List<InputFault> faults = faultsOf(valid()
            .replace("\"format\": \"latency-profile/1\",", "")
            .replace("\"layer\": \"CORBA\"", "\"layer\": \"ATM\"")
            .replaceFirst("\"mean_ms\": 1.5", "\"mean_ms\": -1")
            .replaceFirst("\"cpu\": \\[\"0-33\", \"34-66\"\\]", "\"cpu\": [\"0-33\", \"50-60\"]"));
        final List<String> locations = new ArrayList<>();
        faults.forEach(f -> locations.add(f.path()));
        assertTrue(locations.contains("format"), locations.toString());
        assertTrue(locations.contains("layer"), locations.toString());
        assertTrue(locations.contains("cells[0] (0-33/0-33, 256 B).mean_ms"), locations.toString());
        assertTrue(locations.contains("cells[1].cpu[1]"), locations.toString());
        assertTrue(faults.size() >= 5, "the bad CPU label also leaves a cell missing: " + faults);
    }

    @Test
    void duplicateCellIsRefused() {
        final String json = valid().replace("\"cpu\": [\"0-33\", \"34-66\"]", "\"cpu\": [\"0-33\", \"0-33\"]");
        final List<InputFault> faults = faultsOf(json);
        assertEquals(2, faults.size(), faults.toString());
        assertEquals("cells[1] (0-33/0-33, 256 B)", faults.get(0).path());
        assertEquals("duplicate cell: cells[0] is the same CPU pair and size", faults.get(0).reason());
        assertEquals("cells", faults.get(1).path(), "and the pair it displaced is now missing");
        assertEquals("missing cell 0-33/34-66 at 256 B (every message size needs all six CPU state pairs)", faults.get(1).reason());
    }

    @Test
    void unreadableFileIsAFaultToo(@TempDir final Path directory) {
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.read(directory.resolve("absent.json")));
        assertEquals(1, error.faults().size(), error.getMessage());
        assertEquals(directory.resolve("absent.json").toString(), error.faults().get(0).source());
        assertEquals("file", error.faults().get(0).path());
        assertTrue(error.faults().get(0).reason().startsWith("cannot be read: NoSuchFileException"), error.getMessage());
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

    /** The first cell's location as every fault in it is reported. */
    private static final String CELL0 = "cells[0] (0-33/0-33, 256 B)";

    @ParameterizedTest(name = "{0}: {1} -> {3}")
    @CsvSource(delimiter = '|', value = {
        "mean_ms    | NaN       | \"mean_ms\": 1.5    | must be a finite number, was NaN",
        "max_ms     | Infinity  | \"max_ms\": 2.9     | must be a finite number, was Infinity",
        "std_dev_ms | -Infinity | \"std_dev_ms\": 0.4 | must be a finite number, was -Infinity",
        "mean_ms    | -1.5      | \"mean_ms\": 1.5    | must be > 0, was -1.5",
        "mean_ms    | 0         | \"mean_ms\": 1.5    | must be > 0, was 0.0",
        "std_dev_ms | -0.4      | \"std_dev_ms\": 0.4 | must be >= 0, was -0.4",
        "n          | 0         | \"n\": 10           | must be >= 1, was 0",
        "n          | -10       | \"n\": 10           | must be >= 1, was -10",
        "message_size_bytes | 0 | \"message_size_bytes\": 256 | must be >= 1, was 0"})
    void numberOutOfRangeIsNamedWithTheBadValue(final String field, final String bad, final String original,
                                                final String reason) {
        final List<InputFault> faults = faultsOf(valid().replaceFirst(original, "\"" + field + "\": " + bad));
        // The size is part of the cell's key: without it the cell is named by index only.
        final String location = "message_size_bytes".equals(field) ? "cells[0]." + field : CELL0 + "." + field;
        assertEquals(location, faults.get(0).path());
        assertEquals(reason, faults.get(0).reason());
        assertEquals("message_size_bytes".equals(field) ? 2 : 1, faults.size(), faults.toString());
    }

    @Test
    void zeroStandardDeviationIsAllowedAndNullMeansNotPublished() throws Exception {
        final Profile zero = ProfileJson.parse(valid().replaceFirst("\"std_dev_ms\": 0.4", "\"std_dev_ms\": 0"), "x");
        assertEquals(0.0, zero.cells().get(0).stdDevMillis());
        final Profile none = ProfileJson.parse(valid().replaceFirst("\"std_dev_ms\": 0.4", "\"std_dev_ms\": null"), "x");
        assertNull(none.cells().get(0).stdDevMillis());
    }

    @Test
    void overflowCountsTowardsTheTotal() throws Exception {
        final Profile profile = ProfileJson.parse(valid().replaceFirst("\"counts\": \\[4, 5, 1\\], \"overflow\": 0",
            "\"counts\": [4, 5, 0], \"overflow\": 1"), "x");
        assertEquals(1, profile.cells().get(0).histogram().overflowCount());
        final InputFault fault = onlyFault(valid().replaceFirst("\"overflow\": 0", "\"overflow\": 2"));
        assertEquals(CELL0 + ".histogram", fault.path());
        assertEquals("counts plus overflow add up to 12 samples, but n is 10", fault.reason());
    }

    @Test
    void unknownCpuLabelIsNamedAndItsCellCountsAsMissing() {
        final List<InputFault> faults = faultsOf(valid().replaceFirst("\"cpu\": \\[\"0-33\", \"0-33\"\\]", "\"cpu\": [\"0-33\", \"0-30\"]"));
        assertEquals(2, faults.size(), faults.toString());
        assertEquals("cells[0].cpu[1]", faults.get(0).path());
        assertEquals("unknown CPU state '0-30'; expected 0-33, 34-66 or 67-100", faults.get(0).reason());
        assertEquals("missing cell 0-33/0-33 at 256 B (every message size needs all six CPU state pairs)", faults.get(1).reason());
    }

    @Test
    void receiverSenderOrderThatDuplicatesACellIsADuplicate() {
        final List<InputFault> faults = faultsOf(valid().replace("\"cpu\": [\"0-33\", \"34-66\"]", "\"cpu\": [\"67-100\", \"0-33\"]"));
        assertEquals("cells[2] (0-33/67-100, 256 B)", faults.get(0).path());
        assertEquals("duplicate cell: cells[1] is the same CPU pair and size", faults.get(0).reason());
    }

    @Test
    void unknownLayerAndPortModelAreRefused() {
        final String json = valid().replace("\"layer\": \"CORBA\"", "\"layer\": \"corba\"")
            .replace("\"kind\": \"thesis-queue\"", "\"kind\": \"m/m/1\"");
        final List<InputFault> faults = faultsOf(json);
        assertEquals(2, faults.size(), faults.toString());
        assertEquals(faultAt(json, "\"corba\"", "layer", "unknown layer 'corba'; expected CORBA, TCP or UDP"), faults.get(0));
        assertEquals(faultAt(json, "\"m/m/1\"", "port_model.kind",
            "unknown port model 'm/m/1'; expected thesis-queue or measured-table"), faults.get(1));
    }

    @Test
    void malformedJsonIsReportedAtItsLineAndColumn() {
        // Line 3 holds the stray comma; Jackson's column is 1-based and points at the offending character.
        final String json = "{\n  \"format\": \"latency-profile/1\",\n  \"name\": ,\n}\n";
        final InputFault fault = onlyFault(json);
        final int column = "  \"name\": ,".indexOf(',') + 1;
        assertEquals(3, fault.line(), fault::toString);
        assertEquals(column, fault.column(), fault::toString);
        assertEquals("file", fault.path());
        assertTrue(fault.reason().startsWith("malformed or truncated JSON: Unexpected character (','"), fault.reason());
    }

    @Test
    void truncatedFileIsReportedAtItsEnd() {
        final String json = valid();
        final String truncated = json.substring(0, json.indexOf("\"cells\""));
        final InputFault fault = onlyFault(truncated);
        final long lines = truncated.chars().filter(c -> c == '\n').count() + 1;
        assertEquals(lines, fault.line(), fault + " in " + lines + " lines");
        assertTrue(fault.reason().startsWith("malformed or truncated JSON: Unexpected end-of-input"), fault.reason());
    }

    @Test
    void textAfterTheProfileIsMalformed() {
        final InputFault fault = onlyFault(valid() + "{}\n");
        assertEquals(valid().lines().count() + 1, fault.line(), fault::toString);
        assertTrue(fault.reason().startsWith("malformed or truncated JSON: Trailing token"), fault.reason());
    }

    @Test
    void repeatedKeyIsRefusedAtTheSecondKey() {
        final InputFault fault = onlyFault(valid().replace("\"name\": \"lab\",", "\"name\": \"lab\", \"name\": \"lab2\","));
        assertEquals(3, fault.line(), fault::toString);
        assertEquals("  \"name\": \"lab\", ".length() + 1, fault.column(), fault::toString);
        assertEquals("name", fault.path());
        assertEquals("key 'name' is given twice in one mapping (first at line 3); keep one", fault.reason());
    }

    @Test
    void exceptionMessageListsEveryFaultOnItsOwnLine() {
        final String json = valid().replace("\"layer\": \"CORBA\"", "\"layer\": \"ATM\"")
            .replaceFirst("\"mean_ms\": 1.5", "\"mean_ms\": -1");
        final ProfileValidationException error = assertThrows(ProfileValidationException.class, () -> ProfileJson.parse(json, FILE));
        final int[] layer = placeOf(json, "\"ATM\"");
        final int[] mean = placeOf(json, "-1,");
        assertEquals(List.of(
                "bad.json:" + layer[0] + ":" + layer[1] + ": layer: unknown layer 'ATM'; expected CORBA, TCP or UDP",
                "bad.json:" + mean[0] + ":" + mean[1] + ": " + CELL0 + ".mean_ms: must be > 0, was -1.0"),
            List.of(error.getMessage().split(System.lineSeparator())));
    }

    @Test
    void newFileIsReadableByOthersAndAnExistingFileKeepsItsPermissions(@TempDir final Path directory) throws Exception {
        assumeTrue(directory.getFileSystem().supportedFileAttributeViews().contains("posix"));
        final Profile profile = ProfileJson.parse(valid(), "valid.json");
        final Path file = directory.resolve("lab.json");
        ProfileJson.write(profile, file);
        assertEquals(PosixFilePermissions.fromString("rw-r--r--"), Files.getPosixFilePermissions(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
        ProfileJson.write(profile, file);
        assertEquals(PosixFilePermissions.fromString("rw-rw----"), Files.getPosixFilePermissions(file));
    }

    @Test
    void measuredPortTableRowsAreCheckedFieldByField() {
        final String json = valid().replace("\"port_model\": {\"kind\": \"thesis-queue\"}",
            "\"port_model\": {\"kind\": \"measured-table\", \"rows\": ["
                + "{\"message_size_bytes\": 1024, \"port_load_percent\": 0, \"avg_round_trip_us\": 968},"
                + "{\"message_size_bytes\": 1024, \"port_load_percent\": 120, \"avg_round_trip_us\": -1339}]}");
        final List<InputFault> faults = faultsOf(json);
        assertEquals(List.of(
                faultAt(json, "120", "port_model.rows[1].port_load_percent", "must be 0..100, was 120"),
                faultAt(json, "-1339", "port_model.rows[1].avg_round_trip_us", "must be > 0, was -1339.0")),
            faults);
    }

    // ---- limits ------------------------------------------------------------------------------

    @Test
    void histogramWithMoreBinsThanTheLimitIsRefusedNamingItsCellAndCount() {
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.parse(valid(), FILE, new ProfileLimits(1_000_000, 2)));
        assertEquals(6, error.faults().size(), "one per cell: " + error.faults());
        assertEquals(faultAt(valid(), "[1000000, 2000000, 3000000]", CELL0 + ".histogram.upper_edges_ns",
            "has 3 bins, more than the limit of 2 bins per histogram"), error.faults().get(0));
        assertTrue(error.overSizeLimit(), "refused for its size alone");
    }

    @Test
    void aProfileIsRefusedForItsSizeAloneOnlyWhenEveryFaultIsASizeOverItsLimit() {
        final String badMean = valid().replaceFirst("\"mean_ms\": ", "\"mean_ms\": -");
        assertTrue(badMean.contains("\"mean_ms\": -"), "the fixture has a mean to spoil");
        final ProfileValidationException content = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.parse(badMean, FILE));
        assertEquals(false, content.overSizeLimit(), content.getMessage());
        final ProfileValidationException both = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.parse(badMean, FILE, new ProfileLimits(1_000_000, 2)));
        assertTrue(both.getMessage().contains("mean_ms"), both.getMessage());
        assertEquals(false, both.overSizeLimit(), "a size and a content fault: " + both.getMessage());
    }

    @Test
    void theDefaultLimitAllowsTwentyThousandBinsAndNoMore() throws Exception {
        assertEquals(20_000, ProfileLimits.DEFAULT.maxHistogramBins());
        final InputFault fault = faultsOf(withFirstHistogram(20_001)).get(0);
        assertEquals(CELL0 + ".histogram.upper_edges_ns", fault.path());
        assertEquals("has 20001 bins, more than the limit of 20000 bins per histogram", fault.reason());
        assertEquals(20_000, ProfileJson.parse(withFirstHistogram(20_000), "at-the-limit.json").cells().stream()
            .mapToInt(cell -> cell.histogram().binCount()).max().orElseThrow());
    }

    /** {@link #valid()} with the first cell's histogram widened to {@code bins} bins of 10 ns (the 10 samples in the last). */
    private static String withFirstHistogram(final int bins) {
        final StringBuilder edges = new StringBuilder();
        final StringBuilder counts = new StringBuilder();
        for (int i = 1; i <= bins; i++) {
            edges.append(i == 1 ? "" : ", ").append(i * 10L);
            counts.append(i == 1 ? "" : ", ").append(i == bins ? 10 : 0);
        }
        final String first = "\"histogram\": {\"upper_edges_ns\": [1000000, 2000000, 3000000], \"counts\": [4, 5, 1], \"overflow\": 0}";
        final String json = valid();
        final int at = json.indexOf(first);
        return json.substring(0, at) + "\"histogram\": {\"upper_edges_ns\": [" + edges + "], \"counts\": [" + counts
            + "], \"overflow\": 0}" + json.substring(at + first.length());
    }

    @Test
    void textLargerThanTheLimitIsRefusedWithItsSizeBeforeItIsParsed() {
        final String text = valid() + "this is not JSON";
        final int bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.parse(text, FILE, new ProfileLimits(bytes - 1, 20_000)));
        assertEquals(List.of(new InputFault(FILE, 0, 0, "file", "is " + bytes + " bytes, more than the limit of " + (bytes - 1)
            + " bytes for a profile")), error.faults(), "the size, not the JSON, is the fault");
        assertTrue(error.overSizeLimit());
    }

    @Test
    void theSizeIsCountedInUtf8Bytes() throws Exception {
        final String text = valid().replace("\"source\": \"test\"", "\"source\": \"Mess\u00fcng \u6e2c\u5b9a\"");
        final int bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertTrue(bytes > text.length() + 4, "the text has multi-byte characters");
        assertEquals("Mess\u00fcng \u6e2c\u5b9a", ProfileJson.parse(text, FILE, new ProfileLimits(bytes, 20_000)).provenance().source());
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.parse(text, FILE, new ProfileLimits(bytes - 1, 20_000)));
        assertTrue(error.faults().get(0).reason().startsWith("is " + bytes + " bytes"), error.getMessage());
    }

    @Test
    void fileLargerThanTheLimitIsRefusedWithItsSizeWithoutBeingRead(@TempDir final Path directory) throws Exception {
        final Path file = directory.resolve("huge.json");
        Files.writeString(file, "[" + "0,".repeat(5000) + "0]");
        final long bytes = Files.size(file);
        final ProfileValidationException error = assertThrows(ProfileValidationException.class,
            () -> ProfileJson.read(file, new ProfileLimits(4096, 20_000)));
        assertEquals(List.of(new InputFault(file.toString(), 0, 0, "file", "is " + bytes + " bytes, more than the limit of 4096"
            + " bytes for a profile")), error.faults());
        assertTrue(error.overSizeLimit());
    }

    @Test
    void overlongStringIsNamedAsTooLongNotAsMalformed() {
        final String longText = "x".repeat(ProfileJson.MAX_STRING_CHARS + 1);
        final InputFault fault = onlyFault(valid().replace("\"orb\": \"JacORB 3.9\"", "\"orb\": \"" + longText + "\""));
        assertTrue(fault.reason().startsWith("a value too long: String value length"), fault.toString());
        assertTrue(fault.reason().contains("(" + ProfileJson.MAX_STRING_CHARS + ")"), fault.toString());
        assertFalse(fault.reason().contains("StreamReadConstraints"), fault.toString());
    }

    @Test
    void limitsBelowOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ProfileLimits(0, 20_000));
        assertThrows(IllegalArgumentException.class, () -> new ProfileLimits(1024, 0));
    }
}
