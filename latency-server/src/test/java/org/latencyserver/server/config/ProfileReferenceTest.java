package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.server.table.ConnectionSpec;

/** Profiles listed in the configuration: loading, refusal, and the checks connections make against them. */
class ProfileReferenceTest {

    private static final Path SHIPPED = Path.of("../profiles").toAbsolutePath().normalize();

    @TempDir
    Path directory;

    /** BASE with a profiles section first (lines 1..1+n) and connection 1 at the given QoS with a profile. */
    private static String withProfiles(final String connection, final String... files) {
        return "profiles:\n" + String.join("\n", List.of(files).stream().map(f -> "  - " + f).toList()) + "\n"
            + edit(BASE, "    qos: 3", connection);
    }

    private Path copyShipped(final String name) throws Exception {
        return Files.copy(SHIPPED.resolve(name), directory.resolve(name));
    }

    @Test
    void profilesAreFoundRelativeToTheConfigurationFile() throws Exception {
        copyShipped("thesis-tac4-corba.json");
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "server.yaml",
            withProfiles("    qos: 1\n    profile: thesis-tac4-corba", "thesis-tac4-corba.json")));
        assertEquals("TAC-4", configuration.profiles().get("thesis-tac4-corba").workstationType());
        assertEquals("thesis-tac4-corba", configuration.connectionSpecs().get(0).profileName());
    }

    @Test
    void aProfileForAnotherWorkstationTypeThanTheClientsIsRefused() throws Exception {
        copyShipped("thesis-tac3-corba.json");
        final String yaml = withProfiles("    qos: 1\n    profile: thesis-tac3-corba # <-", "thesis-tac3-corba.json");
        final InputFault fault = ConfigFixture.onlyFault(directory, "server.yaml", yaml);
        assertEquals("connections[0].profile", fault.path());
        assertEquals(ConfigFixture.markedLine(yaml), fault.line());
        assertEquals("profile 'thesis-tac3-corba' is for TAC-3 workstations, but client 'ws1' is a TAC-4: a connection's profile "
            + "must be for its client's workstation type", fault.reason());
    }

    @Test
    void qos2OnAProfileWithoutHistogramsIsRefused() throws Exception {
        copyShipped("thesis-tac4-corba.json");
        final String yaml = withProfiles("    qos: 2\n    bound_percent: 96\n    profile: thesis-tac4-corba # <-",
            "thesis-tac4-corba.json");
        final InputFault fault = ConfigFixture.onlyFault(directory, "server.yaml", yaml);
        assertEquals(ConfigFixture.markedLine(yaml), fault.line());
        assertTrue(fault.reason().startsWith("QoS 2 takes its bound from the profile's histograms, but profile "
            + "'thesis-tac4-corba' has none"), fault::toString);
    }

    @Test
    void qos2OnAProfileWithHistogramsIsAccepted() throws Exception {
        ProfileJson.write(TestProfiles.tenBins("measured-tac4", "TAC-4", 1_000_000L, true), directory.resolve("measured.json"));
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "server.yaml",
            withProfiles("    qos: 2\n    bound_percent: 96\n    profile: measured-tac4", "measured.json")));
        final ConnectionSpec connection = configuration.connectionSpecs().get(0);
        assertEquals(2, connection.qos());
        assertEquals(96.0, connection.boundPercent());
        assertTrue(configuration.profiles().get("measured-tac4").hasHistograms());
    }

    @Test
    void aRefusedProfileIsReportedAtItsListEntryWithEachOfTheProfilesOwnFaults() throws Exception {
        copyShipped("thesis-tac4-corba.json");
        final Path broken = directory.resolve("broken.json");
        Files.writeString(broken, Files.readString(directory.resolve("thesis-tac4-corba.json"))
            .replace("\"name\" : \"thesis-tac4-corba\"", "\"name\" : \"broken\"")
            .replaceFirst("\"mean_ms\" : [0-9.]+", "\"mean_ms\" : -1")
            .replace("\"layer\" : \"CORBA\"", "\"layer\" : \"SMOKE-SIGNALS\""));
        final List<InputFault> ownFaults = assertThrows(ProfileValidationException.class, () -> ProfileJson.read(broken))
            .faults();
        final String yaml = withProfiles("    qos: 1\n    profile: thesis-tac4-corba", "thesis-tac4-corba.json",
            "broken.json # <-");
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "server.yaml", yaml);

        assertEquals(ownFaults.size(), faults.size(), faults::toString);
        assertTrue(ownFaults.size() >= 2, "both planted faults are the profile's own: " + ownFaults);
        for (int i = 0; i < faults.size(); i++) {
            assertEquals("profiles[1]", faults.get(i).path());
            assertEquals(3, faults.get(i).line());
            assertEquals(5, faults.get(i).column());
            assertEquals("profile refused: " + ownFaults.get(i), faults.get(i).reason());
        }
    }

    @Test
    void aReferenceToARefusedProfileSaysSoInsteadOfOnlyUnknown() throws Exception {
        Files.writeString(directory.resolve("truncated.json"), "{\"format\": \"latency-profile/1\"");
        final String yaml = withProfiles("    qos: 1\n    profile: truncated", "truncated.json");
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "server.yaml", yaml);
        final InputFault reference = faults.stream().filter(f -> f.path().equals("connections[0].profile")).findFirst()
            .orElseThrow(() -> new AssertionError(faults.toString()));
        assertTrue(reference.reason().contains("unknown profile 'truncated'"), reference::toString);
        assertTrue(reference.reason().contains("1 profile file(s) were refused"), reference::toString);
        assertTrue(faults.get(0).reason().startsWith("profile refused: "), faults.get(0)::toString);
    }

    @Test
    void twoFilesHoldingOneProfileNameAreRefusedAtTheSecond() throws Exception {
        copyShipped("thesis-tac4-corba.json");
        Files.copy(directory.resolve("thesis-tac4-corba.json"), directory.resolve("copy.json"));
        final String yaml = withProfiles("    qos: 1\n    profile: thesis-tac4-corba", "thesis-tac4-corba.json", "copy.json");
        final InputFault fault = ConfigFixture.onlyFault(directory, "server.yaml", yaml);
        assertEquals("profiles[1]", fault.path());
        assertEquals(3, fault.line());
        assertEquals("'copy.json' is a second profile named 'thesis-tac4-corba', after profiles[0] (line 2)",
            fault.reason());
    }
}
