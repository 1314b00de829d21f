package org.latencyserver.orb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.factory.AbstractSocketFactory;

/**
 * The IIOP/TLS sockets of an ORB's outgoing calls, in place of JacORB's
 * {@code org.jacorb.security.ssl.sun_jsse.SSLSocketFactory}: one SSL context, made at ORB start as JacORB's is, but
 * with a {@link ReloadingKeyManager} over {@link ReloadingTlsStores}, so that new connections present a renewed
 * certificate without a restart. The trust manager is the one JacORB's property
 * {@code jacorb.security.ssl.client.trust_manager} names (a pinning ORB's {@link PinningTrustManager}, which itself
 * follows the reloaded trust store), else a {@link ReloadingTrustManager}. When the stores are re-read, the TLS
 * sessions cached so far are ended, so that a new connection makes a full handshake with the new certificate;
 * connections already open keep the certificate they were made with until they close.
 *
 * <p>JacORB's cipher-suite and protocol properties are not read: the JDK's defaults apply (TLSv1.3 here).
 *
 * <p>Thread-safe: the SSL context is.
 */
public final class ReloadingSslSocketFactory extends AbstractSocketFactory {

    /** The ORB property naming the {@link ReloadingTlsStores#name() shared stores} to use. */
    public static final String STORES_PROPERTY = "latencyserver.tls.client_stores";
    private static final String FACTORY_PROPERTY = "jacorb.ssl.socket_factory";
    private static final String TRUST_MANAGER_PROPERTY = "jacorb.security.ssl.client.trust_manager";

    private SSLContext context;

    /** Made by JacORB; {@link #configure} then builds the SSL context. */
    public ReloadingSslSocketFactory() {
    }

    /**
     * Makes an ORB's outgoing TLS connections use these stores, re-read when they change.
     *
     * @param orbProperties the ORB's properties; changed in place
     * @param stores        the process's stores ({@link ReloadingTlsStores#shared})
     * @return {@code orbProperties}
     */
    static Properties installIn(final Properties orbProperties, final ReloadingTlsStores stores) {
        orbProperties.setProperty(FACTORY_PROPERTY, ReloadingSslSocketFactory.class.getName());
        orbProperties.setProperty(STORES_PROPERTY, stores.name());
        return orbProperties;
    }

    /**
     * @param configuration an ORB's
     * @return the stores its {@value #STORES_PROPERTY} names
     * @throws ConfigurationException when it names none
     */
    static ReloadingTlsStores storesOf(final Configuration configuration) throws ConfigurationException {
        try {
            return ReloadingTlsStores.registered(configuration.getAttribute(STORES_PROPERTY, null));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(STORES_PROPERTY + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        super.configure(configuration);
        final ReloadingTlsStores stores = storesOf(configuration);
        context = ReloadingSslContexts.of(configuration, stores, TRUST_MANAGER_PROPERTY, "client");
        final SSLContext made = context;
        stores.onReload(reading -> ReloadingSslContexts.endCachedSessions(made.getClientSessionContext()));
    }

    @Override
    public Socket createSocket(final String host, final int port) throws IOException {
        return context.getSocketFactory().createSocket(host, port);
    }

    @Override
    protected Socket doCreateSocket(final String host, final int port, final int timeoutMillis) throws IOException {
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress(host, port), timeoutMillis);
        return socket;
    }

    @Override
    public boolean isSSL(final Socket socket) {
        return socket instanceof SSLSocket;
    }
}
