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
    void peerAgentsAndTheNamingServiceGetCertificatesAndAPrincipalsFileTheNamingServiceReads() throws IOException {
        final Run run = certs(Map.of(), "--dir", directory.toString(), "--peer", "ws2,ws3");
        assertEquals(0, run.exitCode(), run.out());
        assertTrue(Files.exists(directory.resolve("naming-service.p12")));
        assertTrue(Files.exists(directory.resolve("peer-ws2.p12")));
        final java.util.List<org.latencyserver.server.naming.NamingPrincipal> principals =
            org.latencyserver.server.naming.NamingPrincipalsFile.read(directory.resolve("naming-principals"));
        assertEquals(java.util.List.of("server:null", "peer:ws2", "peer:ws3"),
            principals.stream().map(p -> p.kind().configName() + ":" + p.node()).toList());
        assertEquals("CN=ws2,OU=peer,O=Latency Server", principals.get(1).subject().getName());
        assertTrue(run.out().contains("--principals " + directory.resolve("naming-principals")), run.out());
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
    void aConsoleStoreCarriesAServerCertificateForTheHostItNamesAndThePrintedLineUsesIt() throws Exception {
        final Run run = certs(Map.of("LATENCY_TLS_PASSWORD", "chosen-pass-1"), "--dir", directory.toString(),
            "--console", "192.0.2.7,console.example");
        assertEquals(0, run.exitCode(), run.out());
        final java.security.cert.X509Certificate byAddress = certificate(directory.resolve("console-192.0.2.7.p12"));
        assertEquals("CN=192.0.2.7,OU=console,O=Latency Server", byAddress.getSubjectX500Principal().getName());
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), byAddress.getExtendedKeyUsage(), "serverAuth only");
        assertEquals(List.of(List.of(7, "192.0.2.7")), List.copyOf(byAddress.getSubjectAlternativeNames()).stream()
            .map(List::copyOf).toList(), "an IP address name");
        final java.security.cert.X509Certificate byName = certificate(directory.resolve("console-console.example.p12"));
        assertEquals(List.of(List.of(2, "console.example")), List.copyOf(byName.getSubjectAlternativeNames()).stream()
            .map(List::copyOf).toList(), "a DNS name");
        assertTrue(run.out().contains("--https-keystore " + directory.resolve("console-192.0.2.7.p12")
            + " --https-truststore " + directory.resolve("trust.p12")), run.out());
    }

    @Test
    void aConsoleHostThatIsNeitherANameNorAnAddressIsRefusedAndNoStoreIsMade() {
        final Run run = certs(Map.of("LATENCY_TLS_PASSWORD", "chosen-pass-1"), "--dir", directory.toString(), "--console", "bad_host");
        assertEquals(1, run.exitCode(), run.out());
        assertFalse(Files.exists(directory.resolve("console-bad_host.p12")));
    }

    private static java.security.cert.X509Certificate certificate(final Path store) throws Exception {
        final java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = Files.newInputStream(store)) {
            keys.load(in, "chosen-pass-1".toCharArray());
        }
        return (java.security.cert.X509Certificate) keys.getCertificate(keys.aliases().nextElement());
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
        final org.latencyserver.orb.RevokedSerials revoked = org.latencyserver.orb.RevokedSerials.read(list);
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
