package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./latency certs}: what it prints works when pasted; what it writes only its owner reads. */
class CertsMainTest {

    @TempDir
    Path directory;

    private record Run(int exitCode, String out) {
    }

    private static Run certs(final Map<String, String> environment, final String... args) {
        final StringWriter out = new StringWriter();
        final CommandLine command = new CommandLine(new CertsMain(environment::get));
        command.setOut(new PrintWriter(out, true));
        final int exitCode = command.execute(args);
        return new Run(exitCode, out.toString());
    }

    private static Map<String, String> printedPaths(final String out) {
        return out.lines().map(String::strip).filter(line -> line.startsWith("keystore: ") || line.startsWith("truststore: "))
            .collect(Collectors.toMap(line -> line.substring(0, line.indexOf(':')), line -> line.substring(line.indexOf(':') + 2)));
    }

    @Test
    void everyPrintedPathIsAbsoluteAndNamesAFileThatExistsWhenTheDirectoryIsGivenRelative() throws IOException {
        final Path cwd = Path.of("").toAbsolutePath();
        final Path relative = cwd.relativize(directory.resolve("rt").resolve("certs"));
        final Run run = certs(Map.of(), "--dir", relative.toString(), "--agent", "ws1");
        assertEquals(0, run.exitCode(), run.out());
        final Map<String, String> paths = printedPaths(run.out());
        assertEquals(2, paths.size(), run.out());
        paths.values().forEach(path -> {
            assertTrue(Path.of(path).isAbsolute(), path);
            assertTrue(Files.isReadable(Path.of(path)), path);
        });
        assertTrue(run.out().contains("absolute"), run.out());
    }

    @Test
    void withThePasswordInTheEnvironmentNoPasswordFileIsWrittenOrNamed() {
        final Run run = certs(Map.of("LATENCY_TLS_PASSWORD", "chosen-pass-1"), "--dir", directory.toString());
        assertEquals(0, run.exitCode(), run.out());
        assertFalse(Files.exists(directory.resolve("password")));
        assertFalse(run.out().contains(directory.resolve("password").toString()), run.out());
        assertTrue(run.out().contains("LATENCY_TLS_PASSWORD"), run.out());
    }

    @Test
    void aWrittenPasswordFileIsNamedAndOnlyItsOwnerReadsItOrAnyKeyStore() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "no POSIX permissions here");
        final Run run = certs(Map.of(), "--dir", directory.toString(), "--operator", "alice");
        assertEquals(0, run.exitCode(), run.out());
        final Path password = directory.resolve("password");
        assertTrue(run.out().contains(password.toString()), run.out());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(password)));
        for (final String store : List.of("server.p12", "operator-alice.p12")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(store))), store);
        }
        final Path caDirectory = directory.resolve("ca");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(caDirectory)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(caDirectory.resolve("ca.p12"))));
        try (Stream<Path> issued = Files.list(directory)) {
            assertFalse(issued.anyMatch(path -> path.getFileName().toString().equals("ca.p12")),
                "the CA's key store lies apart from the issued ones");
        }
    }

    @Test
    void aSecondRunWithTheWrittenPasswordFileKeepsTheCaAndAddsTheNewParty() throws IOException {
        assertEquals(0, certs(Map.of(), "--dir", directory.toString()).exitCode());
        final byte[] caStore = Files.readAllBytes(directory.resolve("ca").resolve("ca.p12"));
        final Run again = certs(Map.of(), "--dir", directory.toString(), "--agent", "ws3");
        assertEquals(0, again.exitCode(), again.out());
        assertTrue(Files.exists(directory.resolve("agent-ws3.p12")));
        assertTrue(java.util.Arrays.equals(caStore, Files.readAllBytes(directory.resolve("ca").resolve("ca.p12"))));
        assertTrue(again.out().contains(directory.resolve("password").toString()), again.out());
    }

    @Test
    void revokeAppendsTheCertificatesSerialOnceToTheListAndSaysWhereItIs() throws Exception {
        final Map<String, String> environment = Map.of("LATENCY_TLS_PASSWORD", "test-pass-4");
        assertEquals(0, certs(environment, "--dir", directory.toString(), "--agent", "ws1").exitCode());

        final Run run = certs(environment, "--dir", directory.toString(), "--revoke", "agent-ws1");
        certs(environment, "--dir", directory.toString(), "--revoke", "agent-ws1");

        assertEquals(0, run.exitCode(), run.out());
        final Path list = directory.toAbsolutePath().resolve("revoked-serials");
        assertTrue(run.out().contains("revoked_serials_file: " + list), run.out());
        final java.security.KeyStore store = java.security.KeyStore.getInstance("JKS");
        try (java.io.InputStream in = Files.newInputStream(directory.resolve("agent-ws1.p12"))) {
            store.load(in, "test-pass-4".toCharArray());
        }
        final java.math.BigInteger serial = ((java.security.cert.X509Certificate) store.getCertificate("agent-ws1")).getSerialNumber();
        final org.latencyserver.server.security.RevokedSerials revoked = org.latencyserver.server.security.RevokedSerials.read(list);
        assertTrue(revoked.contains(serial), Files.readString(list));
        assertEquals(1, revoked.size(), Files.readString(list));
    }

    @Test
    void revokingACertificateNotMadeHereFailsNamingIt() {
        final Run run = certs(Map.of("LATENCY_TLS_PASSWORD", "test-pass-4"), "--dir", directory.toString(), "--revoke", "agent-nobody");
        assertEquals(1, run.exitCode(), run.out());
        assertFalse(Files.exists(directory.resolve("revoked-serials")));
    }
}
