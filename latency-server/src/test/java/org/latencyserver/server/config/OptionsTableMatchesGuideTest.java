package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operator guide's configuration table is the options table, row by row: a key, default, range,
 * unit or meaning changed on either side alone fails here. When it fails, the table as it should
 * stand is written to {@code target/operator-guide-options-table.md}, to be pasted into the guide
 * after checking that the change is meant.
 */
class OptionsTableMatchesGuideTest {

    private static final Path GUIDE = Path.of("../docs/operator-guide.md");

    @Test
    void theOperatorGuidesConfigurationTableIsTheOptionsTableRowByRow() throws IOException {
        final List<String> differences = OptionsMarkdown.differences("docs/operator-guide.md", Files.readAllLines(GUIDE));
        if (!differences.isEmpty()) {
            Files.createDirectories(Path.of("target"));
            Files.write(Path.of("target/operator-guide-options-table.md"), OptionsMarkdown.lines());
        }
        assertEquals(List.of(), differences, "the guide's table differs from ServerOption (the table as it should be: "
            + "target/operator-guide-options-table.md)");
    }

    @Test
    void aDefaultChangedInTheGuideAloneIsReportedAtItsLine() throws IOException {
        final List<String> guide = new ArrayList<>(Files.readAllLines(GUIDE));
        final String row = OptionsMarkdown.row(ServerOption.SERVER_POLL_INTERVAL_MILLIS);
        final int at = guide.indexOf(row);
        assertTrue(at >= 0, "the guide has the row " + row);
        guide.set(at, row.replace("| 100 |", "| 250 |"));

        final List<String> differences = OptionsMarkdown.differences("guide.md", guide);

        assertEquals(1, differences.size(), differences::toString);
        assertTrue(differences.get(0).startsWith("guide.md:" + (at + 1) + ": the guide says "), differences.get(0));
        assertTrue(differences.get(0).contains("| 250 |") && differences.get(0).contains("| 100 |"), differences.get(0));
    }

    @Test
    void aRowMissingFromTheGuideIsReportedWithTheRowItNeeds() throws IOException {
        final List<String> guide = new ArrayList<>(Files.readAllLines(GUIDE));
        final String lastRow = OptionsMarkdown.row(ServerOption.values()[ServerOption.values().length - 1]);
        assertTrue(guide.remove(lastRow), "the guide has the row " + lastRow);

        final List<String> differences = OptionsMarkdown.differences("guide.md", guide);

        assertEquals(List.of(differences.get(0)), differences);
        assertTrue(differences.get(0).contains("missing row: " + lastRow), differences.get(0));
    }

    @Test
    void aGuideWithoutTheMarkedTableIsReportedAsHavingNone() {
        final List<String> differences = OptionsMarkdown.differences("guide.md", List.of("# Guide", "| key | default |"));

        assertEquals(1, differences.size());
        assertTrue(differences.get(0).startsWith("guide.md: no options table"), differences.get(0));
    }
}
