package org.latencyserver.profiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/** The profiles shipped in this module: valid, schema-conformant, and true to the thesis CSV. */
class ShippedProfilesTest {

    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path CSV = MODULE.resolve("data/thesis-appendix-a.csv");

    static Stream<Path> shippedProfiles() throws Exception {
        try (Stream<Path> files = Files.list(MODULE)) {
            final List<Path> profiles = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            assertFalse(profiles.isEmpty(), "no profiles found in " + MODULE);
            return profiles.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("shippedProfiles")
    void shippedProfileIsValidAndMatchesTheSchema(final Path file) throws Exception {
        final Profile profile = ProfileJson.read(file);
        assertEquals(file.getFileName().toString(), profile.name() + ".json");
        final Set<ValidationMessage> messages = schema().validate(new ObjectMapper().readTree(file.toFile()));
        assertTrue(messages.isEmpty(), file + ": " + messages);
    }

    private static JsonSchema schema() throws Exception {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(Files.readString(MODULE.resolve("schema/latency-profile.schema.json")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "wrong latency unit     | \"latency\" : \"ms\"              | \"latency\" : \"us\"",
        "unknown top field      | \"layer\" : \"CORBA\",            | \"layer\" : \"CORBA\", \"x\" : 1,",
        "unknown cell field     | \"max_ms\" : 42.029               | \"max_ms\" : 42.029, \"min_ms\" : 1",
        "unknown format version | latency-profile/1                 | latency-profile/3",
        "unknown CPU label      | [ \"0-33\", \"0-33\" ]              | [ \"0-33\", \"0-30\" ]",
        "zero n                 | \"n\" : 10000                     | \"n\" : 0",
        "negative mean          | \"mean_ms\" : 1.164               | \"mean_ms\" : -1.164",
        "mean as a string       | \"mean_ms\" : 1.164               | \"mean_ms\" : \"1.164\"",
        "blank name             | \"name\" : \"thesis-tac4-corba\"   | \"name\" : \" \"",
        "port model with rows   | \"kind\" : \"thesis-queue\"        | \"kind\" : \"thesis-queue\", \"rows\" : []"})
    void schemaRejectsWhatTheReaderRejects(final String fault, final String original, final String replacement) throws Exception {
        final String good = Files.readString(MODULE.resolve("thesis-tac4-corba.json"));
        assertTrue(good.contains(original), original);
        final String bad = good.replaceFirst(java.util.regex.Pattern.quote(original), java.util.regex.Matcher.quoteReplacement(replacement));
        assertFalse(schema().validate(new ObjectMapper().readTree(bad)).isEmpty(), fault + ": the schema accepted it");
        assertThrows(ProfileValidationException.class, () -> ProfileJson.parse(bad, fault), fault + ": the reader accepted it");
    }

    @Test
    void schemaAcceptsWhatTheReaderWritesWithHistogramsAndAMeasuredPortTable() throws Exception {
        final Profile thesis = ProfileJson.read(MODULE.resolve("thesis-tac4-corba.json"));
        final List<ProfileCell> cells = new ArrayList<>();
        for (final ProfileCell cell : thesis.cells()) {
            // The thesis's 100 bins of 1 ms, n spread over the first three bins and one overflow.
            final long[] counts = new long[100];
            counts[0] = cell.sampleCount() - 4;
            counts[1] = 2;
            counts[2] = 1;
            cells.add(new ProfileCell(cell.cpuStates(), cell.messageSizeBytes(), cell.sampleCount(), cell.meanMillis(), 0.5,
                cell.maxMillis(), LatencyHistogram.uniform(1_000_000, counts, 1)));
        }
        final Profile measured = new Profile("lab", "x86", Layer.TCP, new Provenance("test", null, null, null, "2024-05-01", null),
            null, MeasuredTablePortModel.thesisTable3_6_2_1(), cells);
        final String json = ProfileJson.toJson(measured);
        assertEquals(measured, ProfileJson.parse(json, "lab.json"));
        final Set<ValidationMessage> messages = schema().validate(new ObjectMapper().readTree(json));
        assertTrue(messages.isEmpty(), messages.toString());
        // Nulls for what is optional are accepted by both too.
        final String withNulls = json.replace("\"measured_on\" : \"2024-05-01\"", "\"measured_on\" : null")
            .replaceFirst("\"std_dev_ms\" : 0.5", "\"std_dev_ms\" : null");
        assertTrue(schema().validate(new ObjectMapper().readTree(withNulls)).isEmpty());
        assertNull(ProfileJson.parse(withNulls, "nulls.json").provenance().measuredOn());
    }

    @Test
    void shippedThesisProfilesAreExactlyWhatTheGeneratorMakesFromTheCsv() throws Exception {
        for (final Profile generated : ThesisProfiles.fromCsv(CSV)) {
            final Path shipped = MODULE.resolve(generated.name() + ".json");
            assertEquals(ProfileJson.toJson(generated), Files.readString(shipped),
                shipped + " drifted from the CSV; regenerate with ThesisProfiles.main");
        }
    }

    @Test
    void everyCsvRowAppearsInItsProfileCellWithTheSameMeanAndMaximum() throws Exception {
        final List<String> rows = Files.readAllLines(CSV);
        assertEquals(193, rows.size(), "header + 4 profiles x 48 cells");
        for (final String row : rows.subList(1, rows.size())) {
            final String[] f = row.split(",");
            final String name = "thesis-" + f[0].replace("-", "").toLowerCase() + "-" + f[1].toLowerCase();
            final Profile profile = ProfileJson.read(MODULE.resolve(name + ".json"));
            final CpuStatePair pair = new CpuStatePair(CpuState.parse(f[3]), CpuState.parse(f[4]));
            final ProfileCell cell = profile.cell(pair, Integer.parseInt(f[2])).orElseThrow(() -> new AssertionError(row));
            assertEquals(Double.parseDouble(f[5]), cell.meanMillis(), 0.0, row);
            assertEquals(Double.parseDouble(f[6]), cell.maxMillis(), 0.0, row);
            assertEquals(10_000, cell.sampleCount(), row);
            assertNull(cell.stdDevMillis(), "the thesis published no standard deviations");
            assertFalse(cell.hasHistogram(), "the thesis published no histograms as data");
            // A round trip is symmetric: the receiver/sender order reads the same cell.
            assertEquals(cell, profile.cell(new CpuStatePair(pair.peer(), pair.client()), cell.messageSizeBytes()).orElseThrow());
        }
    }

    @Test
    void thesisProfilesRecordTheThesisAssumptionAsAnAssumption() throws Exception {
        final Profile profile = ProfileJson.read(MODULE.resolve("thesis-tac3-corba.json"));
        assertEquals(5.0, profile.assumptions().assumedStdDevMillis());
        assertTrue(profile.assumptions().note().contains("4.2.4"));
        assertEquals("thesis Appendix A", profile.provenance().source());
        assertEquals("HP-UX 9.01", profile.provenance().operatingSystem());
        assertEquals("Orbix 2.0.1 (IONA)", profile.provenance().orb());
        // The reading of the sample counts (10,000 per cell, not the extra 100,000-sample runs) is on record.
        assertTrue(profile.provenance().method().contains("n = 10,000 per cell"), profile.provenance().method());
        assertTrue(profile.provenance().method().contains("1.385 ms"), profile.provenance().method());
        assertNull(ProfileJson.read(MODULE.resolve("thesis-tac3-tcp.json")).provenance().orb(), "TCP has no ORB");
    }

    @Test
    void generatorRefusesACsvThatLeavesACellOut(@TempDir final Path directory) throws Exception {
        final List<String> rows = new ArrayList<>(Files.readAllLines(CSV));
        final String dropped = rows.remove(20);
        final Path csv = directory.resolve("short.csv");
        Files.write(csv, rows);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ThesisProfiles.fromCsv(csv));
        final String[] f = dropped.split(",");
        assertTrue(error.getMessage().contains("missing cell " + f[3] + "/" + f[4] + " at " + f[2] + " B"), error.getMessage());
    }
}
