package org.latencyserver.server.security;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.GeneralSecurityException;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.factory.ServerSocketFactory;
import org.latencyserver.orb.ReloadingKeyManager;
import org.latencyserver.orb.ReloadingSslContexts;
import org.latencyserver.server.transport.ConnectionLimits;
import org.latencyserver.server.transport.GiopLimitSslServerSocket;

/**
 * The server's IIOP/TLS listening sockets, in place of JacORB's
 * {@code org.jacorb.security.ssl.sun_jsse.SSLServerSocketFactory}: one SSL context, made at ORB
 * start as JacORB's is, but with a {@link ReloadingKeyManager} and a {@link CountingTrustManager}
 * over {@link ServerTlsCredentials}, so that new handshakes use re-read stores without a restart.
 * JacORB 3.9 has a hook for the trust manager only ({@code jacorb.security.ssl.server.trust_manager})
 * and builds its key manager once from the key store, hence a factory of our own
 * ({@code jacorb.ssl.server_socket_factory}).
 *
 * <p>Client authentication is asked for ({@code want}) when {@code jacorb.security.ssl.server.supported_options}
 * has EstablishTrustInClient (0x40) and required when {@code required_options} has it, as JacORB's factory does.
 * When the credentials are re-read, the sessions cached so far are ended, so that a revoked client cannot resume one.
 *
 * <p>Its listening sockets check each GIOP message read from a TLS connection, once decrypted, as the
 * plain listener does ({@link GiopLimitSslServerSocket}): the message limit is
 * {@link ConnectionLimits#MAX_MESSAGE_BYTES_PROPERTY} (set by {@link ConnectionLimits#applyTo}; absent,
 * no size limit), and a request with response flags JacORB cannot take is always refused.
 *
 * <p>Thread-safe: the SSL context is.
 */
public final class ReloadingSslServerSocketFactory implements ServerSocketFactory, Configurable {

    /** The ORB property naming the {@link ServerTlsCredentials#register registered} credentials to use. */
    public static final String CREDENTIALS_PROPERTY = "latencyserver.tls.credentials";
    private static final String FACTORY_PROPERTY = "jacorb.ssl.server_socket_factory";
    private static final int ESTABLISH_TRUST_IN_CLIENT = 0x40;

    private SSLContext context;
    private boolean wantClientAuth;
    private boolean needClientAuth;
    private long maxMessageBytes = Long.MAX_VALUE;

    /** Made by JacORB; {@link #configure} then builds the SSL context. */
    public ReloadingSslServerSocketFactory() {
    }

    /**
     * Makes an ORB's TLS listener use these credentials, after {@code OrbSupport.withTlsServer}.
     *
     * @param orbProperties the ORB's properties; changed in place
     * @param credentials   the server's TLS files (registered here for JacORB to find)
     * @return {@code orbProperties}
     */
    public static Properties installIn(final Properties orbProperties, final ServerTlsCredentials credentials) {
        orbProperties.setProperty(FACTORY_PROPERTY, ReloadingSslServerSocketFactory.class.getName());
        orbProperties.setProperty(CREDENTIALS_PROPERTY, credentials.register());
        return orbProperties;
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        final ServerTlsCredentials credentials;
        try {
            credentials = ServerTlsCredentials.registered(configuration.getAttribute(CREDENTIALS_PROPERTY, ""));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(CREDENTIALS_PROPERTY + ": " + e.getMessage(), e);
        }
        final int supported = configuration.getAttributeAsInteger("jacorb.security.ssl.server.supported_options", 0x20, 16);
        final int required = configuration.getAttributeAsInteger("jacorb.security.ssl.server.required_options", 0, 16);
        needClientAuth = (required & ESTABLISH_TRUST_IN_CLIENT) != 0;
        wantClientAuth = needClientAuth || (supported & ESTABLISH_TRUST_IN_CLIENT) != 0;
        final String limit = configuration.getAttribute(ConnectionLimits.MAX_MESSAGE_BYTES_PROPERTY, "").strip();
        try {
            maxMessageBytes = limit.isEmpty() ? Long.MAX_VALUE : Long.parseLong(limit);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(ConnectionLimits.MAX_MESSAGE_BYTES_PROPERTY + " must be a whole number of bytes, was '"
                + limit + "'");
        }
        try {
            context = SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[] {new ReloadingKeyManager(() -> credentials.current().keyManager())},
                new javax.net.ssl.TrustManager[] {new CountingTrustManager(credentials)}, null);
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException("cannot make the TLS server's SSL context: " + e.getMessage(), e);
        }
        credentials.onReload(() -> ReloadingSslContexts.endCachedSessions(context.getServerSessionContext()));
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

    private ServerSocket configured(final ServerSocket socket) throws IOException {
        final SSLServerSocket tls = (SSLServerSocket) socket;
        if (needClientAuth) {
            tls.setNeedClientAuth(true);
        } else {
            tls.setWantClientAuth(wantClientAuth);
        }
        return GiopLimitSslServerSocket.checking(tls, maxMessageBytes);
    }
}
