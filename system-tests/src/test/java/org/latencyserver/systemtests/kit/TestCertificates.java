package org.latencyserver.systemtests.kit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Properties;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.omg.CORBA.ORB;

/**
 * One local CA for the tests of a JVM, made once with {@code ./latency certs}'s code: the server,
 * an operator, a planner, and agents of nodes ws1 and ws3 (thesis testbed), plus an empty key
 * store for a TLS caller without a certificate.
 */
public final class TestCertificates {

    /** The environment variable a server reads its key stores' password from. */
    public static final String PASSWORD_VARIABLE = "LATENCY_TLS_PASSWORD";

    private static TestCertificates instance;

    private final LocalCertificateAuthority ca;
    private final Path directory;

    private TestCertificates(final Path directory) throws IOException {
        this.directory = directory;
        this.ca = LocalCertificateAuthority.open(directory, null);
        ca.issue("server", LocalCertificateAuthority.subject("server", "server"), LocalCertificateAuthority.Usage.SERVER);
        for (final String[] party : new String[][] {{"operator", "ops"}, {"planner", "plan"}, {"agent", "ws1"}, {"agent", "ws3"}}) {
            ca.issue(party[0] + "-" + party[1], LocalCertificateAuthority.subject(party[0], party[1]),
                LocalCertificateAuthority.Usage.CLIENT);
        }
        try (OutputStream out = Files.newOutputStream(directory.resolve("none.p12"))) {
            final KeyStore empty = KeyStore.getInstance("PKCS12");
            empty.load(null, null);
            empty.store(out, ca.password().toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /**
     * @return the CA of this JVM's tests, made on first use in {@code target/latency-test-certsN} of the module and
     *     deleted when the JVM ends (a JVM killed before leaves it to {@code mvn clean}, never in {@code /tmp})
     */
    public static synchronized TestCertificates get() throws IOException {
        if (instance == null) {
            final TemporaryDirectory directory = TemporaryDirectory.createIn(Path.of("target"), "latency-test-certs");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    directory.close();
                } catch (IOException e) {
                    System.err.println("TestCertificates: " + e.getMessage());
                }
            }, "test-certificates-removal"));
            instance = new TestCertificates(directory.path());
        }
        return instance;
    }

    /** @return the stores' password */
    public String password() {
        return ca.password();
    }

    /**
     * @param party e.g. {@code operator-ops}, {@code agent-ws1}, {@code server}, or {@code none} (no certificate)
     * @return the party's stores
     */
    public TlsStores stores(final String party) {
        return new TlsStores(directory.resolve(party + ".p12"), ca.trustStore(), ca.password());
    }

    /**
     * @return the {@code security:} section granting the test parties their roles, with TLS on any free port
     */
    public String securitySection() {
        return "security:\n"
            + "  plain_iiop: read-only\n"
            + "  tls: { port: 0, keystore: " + directory.resolve("server.p12") + ", truststore: " + ca.trustStore() + " }\n"
            + "  principals:\n"
            + "    - { subject: \"" + LocalCertificateAuthority.subject("operator", "ops") + "\", roles: [operator] }\n"
            + "    - { subject: \"" + LocalCertificateAuthority.subject("planner", "plan") + "\", roles: [planner] }\n"
            + "    - { subject: \"" + LocalCertificateAuthority.subject("agent", "ws1") + "\", roles: [agent], node: ws1 }\n"
            + "    - { subject: \"" + LocalCertificateAuthority.subject("agent", "ws3") + "\", roles: [agent], node: ws3 }\n";
    }

    /**
     * @param party as {@link #stores}
     * @return an ORB whose calls go over TLS with the party's certificate
     */
    public ORB orbFor(final String party) {
        if (NONE.equals(party)) {
            return OrbSupport.init(new String[0], withoutCertificate(OrbSupport.properties("127.0.0.1", 0, 10_000)));
        }
        final Properties properties = OrbSupport.withTlsClient(OrbSupport.properties("127.0.0.1", 0, 10_000), stores(party));
        return OrbSupport.init(new String[0], properties);
    }

    /** The party with no certificate: a TLS caller presenting none. */
    public static final String NONE = "none";

    /**
     * A caller over TLS that presents no certificate, as any outside TLS client may: JacORB's own JSSE socket factories
     * with the CA's trust store and a key store holding no key (the product's clients always present one, so its TLS set-up
     * refuses such a store).
     */
    private Properties withoutCertificate(final Properties properties) {
        properties.setProperty("jacorb.security.support_ssl", "on");
        properties.setProperty("jacorb.ssl.socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLSocketFactory");
        properties.setProperty("jacorb.ssl.server_socket_factory", "org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory");
        properties.setProperty("jacorb.security.keystore", directory.resolve(NONE + ".p12").toAbsolutePath().toString());
        properties.setProperty("jacorb.security.keystore_password", ca.password());
        properties.setProperty("jacorb.security.keystore_type", "JKS");
        properties.setProperty("jacorb.security.truststore", ca.trustStore().toAbsolutePath().toString());
        properties.setProperty("jacorb.security.truststore_password", ca.password());
        properties.setProperty("jacorb.security.truststore_type", "JKS");
        properties.setProperty("jacorb.security.ssl.client.supported_options", "60");
        properties.setProperty("jacorb.security.ssl.client.required_options", "20");
        return properties;
    }
}
