package org.latencyserver.profiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
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
        final JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(Files.readString(MODULE.resolve("schema/latency-profile.schema.json")));
        final Set<ValidationMessage> messages = schema.validate(new ObjectMapper().readTree(file.toFile()));
        assertTrue(messages.isEmpty(), file + ": " + messages);
    }

    @Test
    void schemaRejectsWhatTheReaderRejects() throws Exception {
        final JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(Files.readString(MODULE.resolve("schema/latency-profile.schema.json")));
        final String good = Files.readString(MODULE.resolve("thesis-tac4-corba.json"));
        final JsonNode wrongUnit = new ObjectMapper().readTree(good.replace("\"latency\" : \"ms\"", "\"latency\" : \"us\""));
        assertFalse(schema.validate(wrongUnit).isEmpty());
        final JsonNode unknownField = new ObjectMapper().readTree(good.replace("\"layer\" : \"CORBA\",", "\"layer\" : \"CORBA\", \"x\" : 1,"));
        assertFalse(schema.validate(unknownField).isEmpty());
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
        assertTrue(profile.provenance().source().contains("Appendix A"));
        assertEquals("HP-UX 9.01", profile.provenance().operatingSystem());
    }
}
