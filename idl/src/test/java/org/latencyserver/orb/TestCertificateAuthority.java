package org.latencyserver.orb;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority for tests, made with the JDK's {@code keytool} as {@code ./latency certs} makes its
 * stores (EC keys, PKCS#12, subjects {@code CN=NAME,OU=ROLE,O=Latency Server}), in a directory the caller owns
 * and removes (a JUnit {@code @TempDir}). Each authority has its own trust store ({@link #trustStore()});
 * certificates are issued on demand and kept.
 *
 * <p>Not thread-safe: use one from one test thread.
 */
public final class TestCertificateAuthority {

    /** The password of every store of every test authority. */
    public static final String PASSWORD = "test-password";
    private static final String ORGANISATION = "Latency Server";

    private final Path directory;
    private final String name;

    private TestCertificateAuthority(final Path directory, final String name) {
        this.directory = directory;
        this.name = name;
    }

    /**
     * @param parent the caller's directory (a JUnit {@code @TempDir}, which removes it); the authority's
     *               stores go in its subdirectory {@code ca-NAME}
     * @param name   the authority's name, in its subject and file names; one authority of a name per parent
     * @return a new authority with its key store and trust store made
     * @throws IOException when keytool fails or {@code ca-NAME} already exists
     */
    public static TestCertificateAuthority create(final Path parent, final String name) throws IOException {
        final TestCertificateAuthority ca = new TestCertificateAuthority(Files.createDirectory(parent.resolve("ca-" + name)), name);
        ca.keytool("-genkeypair", "-alias", "ca", "-dname", "CN=" + name + " test CA,O=" + ORGANISATION, "-keyalg", "EC",
            "-groupname", "secp256r1", "-validity", "30", "-ext", "bc:c", "-keystore", ca.caStore().toString(),
            "-storetype", "PKCS12");
        ca.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.caStore().toString(), "-file", ca.caPem().toString());
        ca.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.caPem().toString(), "-keystore",
            ca.trustStore().toString(), "-storetype", "PKCS12");
        return ca;
    }

    /** @return the trust store holding only this authority's certificate */
    public Path trustStore() {
        return directory.resolve("trust.p12");
    }

    /**
     * @param role       the subject's OU, e.g. {@code peer}
     * @param commonName the subject's CN, e.g. a node name
     * @param serverAuth whether it may serve TLS (extended key usage serverAuth as well as clientAuth)
     * @return a key store with the certificate, its key and this authority's certificate as its chain
     * @throws IOException when keytool fails
     */
    public Path issue(final String role, final String commonName, final boolean serverAuth) throws IOException {
        final String file = role + "-" + commonName + (serverAuth ? "" : "-client");
        final Path store = directory.resolve(file + ".p12");
        if (Files.exists(store)) {
            return store;
        }
        final Path request = directory.resolve(file + ".csr");
        final Path signed = directory.resolve(file + ".pem");
        keytool("-genkeypair", "-alias", file, "-dname", "CN=" + commonName + ",OU=" + role + ",O=" + ORGANISATION, "-keyalg", "EC",
            "-groupname", "secp256r1", "-validity", "30", "-keystore", store.toString(), "-storetype", "PKCS12");
        keytool("-certreq", "-alias", file, "-keystore", store.toString(), "-file", request.toString());
        keytool("-gencert", "-alias", "ca", "-keystore", caStore().toString(), "-infile", request.toString(), "-outfile",
            signed.toString(), "-rfc", "-validity", "30", "-ext", serverAuth ? "eku=serverAuth,clientAuth" : "eku=clientAuth");
        final Path chain = directory.resolve(file + ".chain.pem");
        Files.writeString(chain, Files.readString(signed) + Files.readString(caPem()));
        keytool("-importcert", "-noprompt", "-alias", file, "-file", chain.toString(), "-keystore", store.toString());
        return store;
    }

    /**
     * @param keystore a store {@link #issue}d by this or another test authority
     * @return it with this authority's trust store
     */
    public TlsStores stores(final Path keystore) {
        return new TlsStores(keystore, trustStore(), PASSWORD);
    }

    /**
     * @param keystore a store {@link #issue}d by a test authority
     * @return the serial number of its certificate, as a revoked-serials file lists it
     * @throws IOException when the store cannot be read
     */
    public static BigInteger serialOf(final Path keystore) throws IOException {
        try {
            final java.security.KeyStore store = java.security.KeyStore.getInstance(keystore.toFile(), PASSWORD.toCharArray());
            for (final String alias : java.util.Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    return ((java.security.cert.X509Certificate) store.getCertificate(alias)).getSerialNumber();
                }
            }
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot read " + keystore + ": " + e.getMessage(), e);
        }
        throw new IOException(keystore + " holds no key entry");
    }

    private Path caStore() {
        return directory.resolve("ca.p12");
    }

    private Path caPem() {
        return directory.resolve("ca.pem");
    }

    private void keytool(final String... arguments) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // keytool's work is a few milliseconds; its JVM's start-up is the cost: client compiler, serial collector.
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storepass", PASSWORD));
        if ("-genkeypair".equals(arguments[0])) {
            command.addAll(List.of("-keypass", PASSWORD));
        }
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool " + arguments[0] + " did not end in 120 s (" + name + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for keytool", e);
        }
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", arguments) + " failed (" + name + "): " + output);
        }
    }
}
