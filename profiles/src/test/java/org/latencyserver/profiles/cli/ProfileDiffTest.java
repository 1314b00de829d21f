package org.latencyserver.profiles.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code profile diff}: cell by cell, with Welch's test, on the shipped thesis profiles. */
class ProfileDiffTest {

    @TempDir
    Path directory;

    private static String[] run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine line = ProfileCommand.commandLine();
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(err));
        final int code = line.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void corbaAgainstTcpDiffersInEveryCellAndTheLineCarriesBothMeansAndTheTest() {
        final String[] result = run("diff", "thesis-tac4-corba.json", "thesis-tac4-tcp.json");
        assertEquals("0", result[0], result[2]);
        // Appendix A, TAC-4 256 B LOW/LOW: CORBA 1.365 ms, TCP 0.7 ms range; the line shows both and B - A.
        final String line = result[1].lines().filter(l -> l.matches("0-33/0-33 +256 .*")).findFirst().orElseThrow();
        assertTrue(line.contains("1.3650"), line);
        assertTrue(line.contains("yes (t = "), line);
        assertTrue(line.contains("assumed sd"), "the thesis cells publish no deviation: " + line);
        assertTrue(result[1].contains("48 cells compared, 48 differ significantly at 95 %"), result[1]);
    }

    @Test
    void aProfileAgainstItselfHasNoSignificantDifference() {
        final String[] result = run("diff", "thesis-tac3-corba.json", "thesis-tac3-corba.json");
        assertEquals("0", result[0]);
        assertTrue(result[1].contains("48 cells compared, 0 differ significantly at 95 %"), result[1]);
    }

    @Test
    void cellsOfSizesOnlyOneProfileHasAreListedAsSuch() throws Exception {
        // B keeps only the 64 B cells of A.
        final String json = Files.readString(Path.of("thesis-tac4-corba.json"));
        final com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        final com.fasterxml.jackson.databind.node.ObjectNode root = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json);
        final com.fasterxml.jackson.databind.node.ArrayNode kept = mapper.createArrayNode();
        root.withArray("cells").forEach(cell -> {
            if (cell.get("message_size_bytes").asInt() == 64) {
                kept.add(cell);
            }
        });
        root.set("cells", kept);
        final Path small = directory.resolve("small.json");
        Files.writeString(small, mapper.writeValueAsString(root));
        final String[] result = run("diff", "thesis-tac4-corba.json", small.toString());
        assertEquals("0", result[0], result[2]);
        assertTrue(result[1].contains("6 cells compared"), result[1]);
        assertEquals(42, result[1].lines().filter(l -> l.endsWith("only in A")).count(), result[1]);
    }

    @Test
    void anUnreadableProfileIsReportedAndExitsOne() {
        final String[] result = run("diff", "thesis-tac4-corba.json", directory.resolve("missing.json").toString());
        assertEquals("1", result[0]);
        assertTrue(result[2].contains("missing.json"), result[2]);
    }
}
