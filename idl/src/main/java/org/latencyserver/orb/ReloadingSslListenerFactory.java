package org.latencyserver.orb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.factory.ServerSocketFactory;

/**
 * The IIOP/TLS listening sockets of a process other than the server (a peer agent's {@code --tls-port}), in place of
 * JacORB's {@code org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory}: one SSL context with a
 * {@link ReloadingKeyManager} over {@link ReloadingTlsStores}, so that new connections are served with a renewed
 * certificate without a restart. The trust manager is the one {@code jacorb.security.ssl.server.trust_manager} names,
 * else a {@link ReloadingTrustManager}. Client authentication is asked for ({@code want}) when
 * {@code jacorb.security.ssl.server.supported_options} has EstablishTrustInClient (0x40) and required when
 * {@code required_options} has it, as JacORB's factory does. When the stores are re-read, cached sessions are ended.
 * (The server has its own factory, which also re-reads a revoked list and checks GIOP message sizes.)
 *
 * <p>JacORB's cipher-suite and protocol properties are not read: the JDK's defaults apply.
 *
 * <p>Thread-safe: the SSL context is.
 */
public final class ReloadingSslListenerFactory implements ServerSocketFactory, Configurable {

    private static final String FACTORY_PROPERTY = "jacorb.ssl.server_socket_factory";
    private static final String TRUST_MANAGER_PROPERTY = "jacorb.security.ssl.server.trust_manager";
    private static final int ESTABLISH_TRUST_IN_CLIENT = 0x40;

    private SSLContext context;
    private boolean wantClientAuth;
    private boolean needClientAuth;

    /** Made by JacORB; {@link #configure} then builds the SSL context. */
    public ReloadingSslListenerFactory() {
    }

    /**
     * Makes an ORB's TLS listener serve with these stores, re-read when they change.
     *
     * @param orbProperties the ORB's properties; changed in place
     * @param stores        the process's stores ({@link ReloadingTlsStores#shared})
     * @return {@code orbProperties}
     */
    static Properties installIn(final Properties orbProperties, final ReloadingTlsStores stores) {
        orbProperties.setProperty(FACTORY_PROPERTY, ReloadingSslListenerFactory.class.getName());
        orbProperties.setProperty(ReloadingSslSocketFactory.STORES_PROPERTY, stores.name());
        return orbProperties;
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        final ReloadingTlsStores stores = ReloadingSslSocketFactory.storesOf(configuration);
        final int supported = configuration.getAttributeAsInteger("jacorb.security.ssl.server.supported_options", 0x20, 16);
        final int required = configuration.getAttributeAsInteger("jacorb.security.ssl.server.required_options", 0, 16);
        needClientAuth = (required & ESTABLISH_TRUST_IN_CLIENT) != 0;
        wantClientAuth = needClientAuth || (supported & ESTABLISH_TRUST_IN_CLIENT) != 0;
        context = ReloadingSslContexts.of(configuration, stores, TRUST_MANAGER_PROPERTY, "listener");
        final SSLContext made = context;
        stores.onReload(reading -> ReloadingSslContexts.endCachedSessions(made.getServerSessionContext()));
    }

    @Override
    public ServerSocket createServerSocket(final int port) throws IOException {
        return configured(context.getServerSocketFactory().createServerSocket(port));
    }

    @Override
    public ServerSocket createServerSocket(final int port, final int backlog) throws IOException {
        return configured(context.getServerSocketFactory().createServerSocket(port, backlog));
    }

    @Override
    public ServerSocket createServerSocket(final int port, final int backlog, final InetAddress address) throws IOException {
        return configured(context.getServerSocketFactory().createServerSocket(port, backlog, address));
    }

    private ServerSocket configured(final ServerSocket socket) {
        final SSLServerSocket tls = (SSLServerSocket) socket;
        if (needClientAuth) {
            tls.setNeedClientAuth(true);
        } else {
            tls.setWantClientAuth(wantClientAuth);
        }
        return tls;
    }
}
