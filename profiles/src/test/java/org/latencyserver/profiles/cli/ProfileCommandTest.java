package org.latencyserver.profiles.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProfileCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args) {
        final CommandLine command = ProfileCommand.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        return command.execute(args);
    }

    @Test
    void goodFileGivesOneSummaryLineAndExitZero() {
        final int exit = run("validate", "thesis-tac4-corba.json");
        assertEquals(0, exit, err.toString());
        assertEquals("OK thesis-tac4-corba.json: thesis-tac4-corba, TAC-4 CORBA, 48 cells (6 CPU pairs x 8 sizes), "
            + "histograms: none (QoS 2 unavailable), source: thesis Appendix A",
            out.toString().strip());
        assertEquals("", err.toString());
    }

    /** @return {@code :line:column} where {@code token} first occurs in {@code text} (1-based) */
    private static String placeOf(final String text, final String token) {
        final String before = text.substring(0, text.indexOf(token));
        return ":" + (before.chars().filter(c -> c == '\n').count() + 1) + ":" + (before.length() - before.lastIndexOf('\n'));
    }

    @Test
    void badFileGivesEveryFaultAndExitOne(@TempDir final Path directory) throws Exception {
        final Path bad = directory.resolve("bad.json");
        final String text = Files.readString(Path.of("thesis-tac4-corba.json"))
            .replace("\"mean_ms\" : 1.164", "\"mean_ms\" : -1.164")
            .replace("\"latency\" : \"ms\"", "\"latency\" : \"us\"")
            .replace("\"layer\" : \"CORBA\"", "\"layer\" : \"SCTP\", \"colour\" : \"blue\"");
        Files.writeString(bad, text);
        final int exit = run("validate", bad.toString(), "thesis-tac3-tcp.json");
        assertEquals(1, exit);
        assertEquals(List.of(
                bad + placeOf(text, "\"colour\"") + ": colour: unknown field 'colour'; expected one of [assumptions, cells, format, "
                    + "layer, name, "
                    + "port_cells, port_model, provenance, units, workstation_type]",
                bad + placeOf(text, "\"SCTP\"") + ": layer: unknown layer 'SCTP'; expected CORBA, TCP or UDP",
                bad + placeOf(text, "\"us\"") + ": units.latency: unit 'us' is not supported; latencies (mean_ms, max_ms, std_dev_ms) are in 'ms'",
                bad + placeOf(text, "-1.164") + ": cells[0] (0-33/0-33, 64 B).mean_ms: must be > 0, was -1.164",
                "REFUSED " + bad + ": 4 faults"),
            List.of(err.toString().strip().split("\\R")));
        assertEquals("OK thesis-tac3-tcp.json: thesis-tac3-tcp, TAC-3 TCP, 48 cells (6 CPU pairs x 8 sizes), "
            + "histograms: none (QoS 2 unavailable), source: thesis Appendix A", out.toString().strip(),
            "the good file after the bad one is still checked");
    }

    @Test
    void fileOverTheSizeLimitIsRefusedWithItsSizeNotAParserError(@TempDir final Path directory) throws Exception {
        // 100 MB once made Jackson say "String value length exceeds"; now the size is checked before reading.
        final Path huge = directory.resolve("huge.json");
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(64L * 1024 * 1024 + 1); // sparse: costs no disk
        }
        assertEquals(1, run("validate", huge.toString()));
        assertEquals(List.of(huge + ":0:0: file: is 67108865 bytes, more than the limit of 67108864 bytes for a profile",
            "REFUSED " + huge + ": 1 fault"), List.of(err.toString().strip().split("\\R")));
    }

    @Test
    void truncatedFileIsReportedAtItsLineAndColumn(@TempDir final Path directory) throws Exception {
        final Path cut = directory.resolve("cut.json");
        final String good = Files.readString(Path.of("thesis-tac4-corba.json"));
        Files.writeString(cut, good.substring(0, good.indexOf("\"cells\"")));
        assertEquals(1, run("validate", cut.toString()));
        final String line = err.toString().strip().split("\\R")[0];
        assertTrue(line.matches(java.util.regex.Pattern.quote(cut.toString())
            + ":\\d+:\\d+: file: malformed or truncated JSON: Unexpected end-of-input.*"), line);
    }

    @Test
    void helpListsEverySubcommandOfLatencyProfile() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("Usage: profile"), out.toString());
        assertTrue(out.toString().contains("validate"), out.toString());
        for (final String profilerCommand : new String[] {"measure", "load", "learned"}) {
            assertTrue(out.toString().contains("  " + profilerCommand + " "), "the profiler's " + profilerCommand + " is listed too: "
                + out);
        }
        out.getBuffer().setLength(0);
        assertEquals(0, run("validate", "--help"));
        assertTrue(out.toString().contains("Usage: profile validate"), out.toString());
        assertTrue(out.toString().contains("FILE..."), out.toString());
    }

    @Test
    void missingFileIsAFaultAndNoFileIsAUsageError() {
        assertEquals(1, run("validate", "no-such-profile.json"));
        assertTrue(err.toString().contains("no-such-profile.json:0:0: file: cannot be read"), err.toString());
        assertEquals(2, run("validate"));
        assertEquals(2, run());
    }
}
