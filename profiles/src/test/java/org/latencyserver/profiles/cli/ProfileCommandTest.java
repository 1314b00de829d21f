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
        assertEquals("OK thesis-tac4-corba.json: thesis-tac4-corba, TAC-4 CORBA, 48 cells (6 CPU pairs x 8 sizes, 64-8192 B), "
            + "histograms: none (QoS 2 unavailable), port model: thesis-queue, "
            + "source: thesis Appendix A (R. Pallack, 1997, 'Latency Server', sections 3.2-3.3)",
            out.toString().strip());
        assertEquals("", err.toString());
    }

    @Test
    void badFileGivesEveryFaultAndExitOne(@TempDir final Path directory) throws Exception {
        final Path bad = directory.resolve("bad.json");
        Files.writeString(bad, Files.readString(Path.of("thesis-tac4-corba.json"))
            .replace("\"mean_ms\" : 1.164", "\"mean_ms\" : -1.164")
            .replace("\"layer\" : \"CORBA\"", "\"layer\" : \"SCTP\""));
        final int exit = run("validate", bad.toString(), "thesis-tac3-tcp.json");
        assertEquals(1, exit);
        final String[] lines = err.toString().strip().split("\\R");
        assertEquals(3, lines.length, err.toString());
        assertEquals(bad + ": layer: unknown layer 'SCTP'; expected CORBA, TCP or UDP", lines[0]);
        assertEquals(bad + ": cells[0] (0-33/0-33, 64 B).mean_ms: must be > 0, was -1.164", lines[1]);
        assertEquals("REFUSED " + bad + ": 2 faults", lines[2]);
        assertTrue(out.toString().startsWith("OK thesis-tac3-tcp.json"), "the good file is still checked");
    }

    @Test
    void missingFileIsAFaultAndNoFileIsAUsageError() {
        assertEquals(1, run("validate", "no-such-profile.json"));
        assertTrue(err.toString().contains("no-such-profile.json: file: cannot be read"), err.toString());
        assertEquals(2, run("validate"));
        assertEquals(2, run());
    }
}
