package org.latencyserver.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.latencyserver.orb.TlsStores;

/**
 * PKCS#12 stores as {@code ./latency certs} makes them, made with the JDK's {@code keytool} in a test's directory:
 * a CA and its trust store, the console's server certificate ({@code serverAuth}, for {@code localhost},
 * {@code 127.0.0.1} and this machine's first non-loopback IPv4 address), and client certificates
 * ({@code clientAuth}, subject {@code CN=<name>,OU=<role>,O=Latency Server}). One password for all.
 */
final class HttpsTestStores {

    static final String PASSWORD = "test-stores-pass";
    private static final String CA = "ca";

    private final Path directory;
    private final Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");

    private HttpsTestStores(final Path directory) {
        this.directory = directory;
    }

    /**
     * @param directory an empty directory
     * @return the CA, its trust store and the console's server store made
     * @throws IOException when keytool fails
     */
    static HttpsTestStores make(final Path directory) throws IOException {
        final HttpsTestStores stores = new HttpsTestStores(directory);
        stores.keytool("-genkeypair", "-alias", CA, "-dname", "CN=test CA,O=Latency Server", "-ext", "bc:c", "-keyalg", "EC",
            "-groupname", "secp256r1", "-keystore", stores.store(CA).toString(), "-storetype", "PKCS12", "-keypass", PASSWORD);
        // The trust store holds the CA's certificate (as keytool -importcert would write it), without another keytool JVM.
        try (OutputStream out = Files.newOutputStream(stores.trustStore())) {
            final KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(CA, load(stores.store(CA)).getCertificate(CA));
            trust.store(out, PASSWORD.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot write the trust store: " + e.getMessage(), e);
        }
        final StringBuilder names = new StringBuilder("san=dns:localhost,ip:127.0.0.1");
        nonLoopbackAddress().ifPresent(address -> names.append(",ip:").append(address.getHostAddress()));
        stores.issue("console", "CN=localhost,OU=console,O=Latency Server", "eku=serverAuth", names.toString());
        return stores;
    }

    /** @return an IPv4 address of an interface of this machine that is up and not loopback, if it has one */
    static Optional<InetAddress> nonLoopbackAddress() {
        try {
            for (final NetworkInterface face : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (face.isUp() && !face.isLoopback()) {
                    for (final InetAddress address : Collections.list(face.getInetAddresses())) {
                        if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                            return Optional.of(address);
                        }
                    }
                }
            }
            return Optional.empty();
        } catch (SocketException e) {
            return Optional.empty();
        }
    }

    /**
     * @param role a role, the subject's OU: {@code operator}, {@code agent}
     * @param name the party, the subject's CN
     * @return the party's key store (client authentication only)
     * @throws IOException when keytool fails
     */
    Path client(final String role, final String name) throws IOException {
        return issue(role + "-" + name, "CN=" + name + ",OU=" + role + ",O=Latency Server", "eku=clientAuth", null);
    }

    /** @return the console's stores: its server certificate, and the CA's trust store */
    TlsStores consoleStores() {
        return new TlsStores(store("console"), trustStore(), PASSWORD);
    }

    /**
     * @param clientStore a party's key store, or null for a client without a certificate
     * @return a client's TLS context: trusts the CA, presents the party's certificate
     * @throws GeneralSecurityException when a store cannot be opened
     * @throws IOException when a store cannot be read
     */
    SSLContext clientContext(final Path clientStore) throws GeneralSecurityException, IOException {
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trustStore()));
        KeyManagerFactory keys = null;
        if (clientStore != null) {
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(clientStore), PASSWORD.toCharArray());
        }
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(final Path file) throws GeneralSecurityException, IOException {
        try (InputStream in = Files.newInputStream(file)) {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            return store;
        }
    }

    private Path trustStore() {
        return directory.resolve("trust.p12");
    }

    private Path store(final String name) {
        return directory.resolve(name + ".p12");
    }

    /**
     * One keytool JVM per store: the key and its certificate signed by the CA ({@code -signer}, which must be in the
     * same store), made in a copy of the CA's store whose CA entry is then removed; its chain is the party's
     * certificate, then the CA's.
     */
    private Path issue(final String name, final String subject, final String usage, final String alternativeNames)
        throws IOException {
        final Path store = store(name);
        Files.copy(store(CA), store);
        final List<String> generation = new ArrayList<>(List.of("-genkeypair", "-alias", name, "-dname", subject, "-keyalg", "EC",
            "-groupname", "secp256r1", "-keystore", store.toString(), "-storetype", "PKCS12", "-keypass", PASSWORD,
            "-signer", CA, "-signerkeypass", PASSWORD, "-ext", usage));
        if (alternativeNames != null) {
            generation.addAll(List.of("-ext", alternativeNames));
        }
        keytool(generation.toArray(String[]::new));
        try {
            final KeyStore made = load(store);
            made.deleteEntry(CA);
            try (OutputStream out = Files.newOutputStream(store)) {
                made.store(out, PASSWORD.toCharArray());
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot take the CA's key out of " + store + ": " + e.getMessage(), e);
        }
        return store;
    }

    private void keytool(final String... arguments) throws IOException {
        // A JVM that lives well under a second: the client compiler and the serial collector start it sooner.
        final List<String> command = new ArrayList<>(List.of(keytool.toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storepass", PASSWORD));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("keytool " + arguments[0] + " failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
    }
}
