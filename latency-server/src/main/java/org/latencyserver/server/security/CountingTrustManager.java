package org.latencyserver.server.security;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.latencyserver.server.engine.CallerText;

/**
 * The server's TLS trust manager: the JDK's, over the configured trust store, and every client
 * certificate it refuses counted and logged by {@link TlsHandshakeFailures} before the refusal
 * ends the handshake. JacORB makes it by name ({@code jacorb.security.ssl.server.trust_manager})
 * and configures it from the ORB's trust store properties.
 *
 * <p>Thread-safe: the JDK's trust manager is.
 */
public final class CountingTrustManager extends X509ExtendedTrustManager implements Configurable {

    /** The ORB property naming this class. */
    public static final String ORB_PROPERTY = "jacorb.security.ssl.server.trust_manager";

    private volatile X509ExtendedTrustManager trusted;

    /**
     * Makes an ORB's TLS server use this trust manager.
     *
     * @param orbProperties the ORB's properties, with the TLS server's trust store; changed in place
     * @return {@code orbProperties}
     */
    public static java.util.Properties installIn(final java.util.Properties orbProperties) {
        orbProperties.setProperty(ORB_PROPERTY, CountingTrustManager.class.getName());
        return orbProperties;
    }

    /** Made by JacORB; {@link #configure} then opens the trust store. */
    public CountingTrustManager() {
    }

    /**
     * @param trustStore the trust store
     * @param password   its password
     * @param type       its type, e.g. {@code JKS} (which reads PKCS#12 too)
     * @param algorithm  the trust manager's algorithm, e.g. {@code SunX509}
     * @throws IOException              when the store cannot be read
     * @throws GeneralSecurityException when it cannot be opened
     */
    CountingTrustManager(final Path trustStore, final String password, final String type, final String algorithm)
        throws IOException, GeneralSecurityException {
        final KeyStore store = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(trustStore)) {
            store.load(in, password.toCharArray());
        }
        final TrustManagerFactory factory = TrustManagerFactory.getInstance(algorithm);
        factory.init(store);
        for (final TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager x509) {
                trusted = x509;
                return;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager for " + algorithm);
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        try {
            trusted = new CountingTrustManager(Path.of(configuration.getAttribute("jacorb.security.truststore")),
                configuration.getAttribute("jacorb.security.truststore_password"),
                configuration.getAttribute("jacorb.security.truststore_type", "JKS"),
                configuration.getAttribute("jacorb.security.jsse.server.trust_manager_algorithm", "SunX509")).trusted;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException("cannot open the trust store: " + e.getMessage(), e);
        }
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        try {
            trusted.checkClientTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw refused(e, chain, socket == null ? null : String.valueOf(socket.getRemoteSocketAddress()));
        }
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        try {
            trusted.checkClientTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw refused(e, chain, engine == null ? null : engine.getPeerHost() + ":" + engine.getPeerPort());
        }
    }

    @Override
    public void checkClientTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        try {
            trusted.checkClientTrusted(chain, authType);
        } catch (CertificateException e) {
            throw refused(e, chain, null);
        }
    }

    private static CertificateException refused(final CertificateException refusal, final X509Certificate[] chain,
                                                final String peer) {
        final String subject = chain == null || chain.length == 0 ? "none"
            : "certificate '" + CallerText.capped(chain[0].getSubjectX500Principal().getName()) + "'";
        TlsHandshakeFailures.record(HandshakeFailure.of(refusal), peer == null ? "unknown" : peer, subject,
            CallerText.capped(String.valueOf(refusal.getMessage())));
        return refusal;
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
        throws CertificateException {
        trusted.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
        throws CertificateException {
        trusted.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(final X509Certificate[] chain, final String authType) throws CertificateException {
        trusted.checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trusted.getAcceptedIssuers();
    }
}
