package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

/** {@code ./latency naming-service}'s options of access control, refused when incomplete or wrong, before anything starts. */
@Isolated // runs alone (junit-platform.properties): replaces the JVM's standard error to read what is printed
class NamingServiceMainTest {

    @TempDir
    Path directory;

    private record Run(int exitCode, String err) {
    }

    private static Run namingService(final String... args) {
        final PrintStream original = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            final int exitCode = new CommandLine(new NamingServiceMain()).execute(args);
            return new Run(exitCode, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }

    @Test
    void aTlsPortWithoutTheStoresAndPrincipalsIsAUsageErrorNamingWhatIsMissing() {
        final Run run = namingService("--tls-port", "2816", "--db-dir", directory.toString());
        assertEquals(NamingServiceMain.EXIT_USAGE, run.exitCode(), run.err());
        assertTrue(run.err().contains("missing --tls-keystore, --tls-truststore, --principals"), run.err());
    }

    @Test
    void aPrincipalsFileThatDoesNotExistIsAUsageErrorNamingIt() {
        final Path missing = directory.resolve("no-such-principals");
        final Run run = namingService("--tls-port", "2816", "--tls-keystore", "k.p12", "--tls-truststore", "t.p12",
            "--principals", missing.toString(), "--db-dir", directory.toString());
        assertEquals(NamingServiceMain.EXIT_USAGE, run.exitCode(), run.err());
        assertTrue(run.err().contains("--principals " + missing + " is not a readable file"), run.err());
    }
}
