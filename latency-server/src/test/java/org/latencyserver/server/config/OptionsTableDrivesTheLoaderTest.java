package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.latencyserver.core.input.InputFault;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The loader takes its ranges and its key suggestions from {@link ServerOption}: for every numeric
 * option of the settings sections, a value just past the table's range is refused in the table's
 * words, and a key one letter short is answered with the table's key.
 */
class OptionsTableDrivesTheLoaderTest {

    /** The mappings whose options are plain values, each written once per file. */
    private static final Set<String> SETTINGS = Set.of("server", "server.metrics", "thresholds", "measurement", "limits");

    @TempDir
    Path directory;

    static Stream<ServerOption> numericSettings() {
        return Arrays.stream(ServerOption.values()).filter(o -> SETTINGS.contains(o.parent()))
            .filter(o -> o.accepts() instanceof OptionValues.Whole || o.accepts() instanceof OptionValues.Decimal);
    }

    static Stream<ServerOption> settings() {
        return Arrays.stream(ServerOption.values()).filter(o -> SETTINGS.contains(o.parent()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("numericSettings")
    void aValueJustAboveTheTablesRangeIsRefusedNamingTheRange(final ServerOption option) throws Exception {
        final String tooLarge = option.accepts() instanceof OptionValues.Whole whole ? Long.toString(whole.maximum() + 1)
            : OptionValues.plain(option.decimal().maximum() * 2 + 1);

        final List<InputFault> faults = ConfigFixture.refused(ConfigFixture.write(directory, "range.yaml",
            document(option.path(), tooLarge))).faults();

        final List<InputFault> atOption = faults.stream().filter(f -> f.path().equals(option.path())).toList();
        assertEquals(1, atOption.size(), faults::toString);
        assertTrue(atOption.get(0).reason().contains(option.accepts().describe()), atOption.get(0)::toString);
        assertTrue(atOption.get(0).reason().contains(tooLarge), atOption.get(0)::toString);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void aKeyOneLetterShortIsAnsweredWithTheTablesKey(final ServerOption option) throws Exception {
        final String typo = option.key().substring(0, option.key().length() - 1);
        final String typoPath = option.parent() + "." + typo;
        final String value = option.accepts() instanceof OptionValues.Block ? "{ }" : "1";

        final List<InputFault> faults = ConfigFixture.refused(ConfigFixture.write(directory, "typo.yaml",
            document(typoPath, value))).faults();

        final List<InputFault> atTypo = faults.stream().filter(f -> f.path().equals(typoPath)).toList();
        assertEquals(1, atTypo.size(), faults::toString);
        assertTrue(atTypo.get(0).reason().contains("did you mean '" + option.key() + "'?"), atTypo.get(0)::toString);
    }

    /** @return a valid configuration with {@code path: value} written into its nested mappings */
    private static String document(final String path, final String value) {
        final String[] parts = path.split("\\.");
        final StringBuilder section = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            section.append("  ".repeat(i)).append(parts[i]).append(':').append(i == parts.length - 1 ? " " + value : "").append('\n');
        }
        return section + edit(BASE, "server:\n  name: LatencyServer\n", "");
    }
}
