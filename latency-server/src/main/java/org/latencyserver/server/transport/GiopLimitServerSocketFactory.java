package org.latencyserver.server.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.jacorb.config.Configurable;
import org.jacorb.config.Configuration;
import org.jacorb.config.ConfigurationException;
import org.jacorb.orb.factory.ServerSocketFactory;

/**
 * The server ORB's plain IIOP server socket factory ({@code jacorb.net.server_socket_factory}): its
 * sockets check each GIOP message's declared size against {@link ConnectionLimits#MAX_MESSAGE_BYTES_PROPERTY}
 * before JacORB reads (and allocates) the body. JacORB makes it by name and configures it.
 *
 * <p>Thread-safe: configured once, before the listener asks for a socket.
 */
public final class GiopLimitServerSocketFactory implements ServerSocketFactory, Configurable {

    private volatile long maxMessageBytes = Long.MAX_VALUE;

    /** Made by JacORB; {@link #configure} then reads the limit. */
    public GiopLimitServerSocketFactory() {
    }

    @Override
    public void configure(final Configuration configuration) throws ConfigurationException {
        final String limit = configuration.getAttribute(ConnectionLimits.MAX_MESSAGE_BYTES_PROPERTY, "");
        try {
            maxMessageBytes = Long.parseLong(limit.strip());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(ConnectionLimits.MAX_MESSAGE_BYTES_PROPERTY + " must be a whole number of bytes, was '"
                + limit + "'");
        }
    }

    @Override
    public ServerSocket createServerSocket(final int port) throws IOException {
        return new GiopLimitServerSocket(port, 50, null, maxMessageBytes);
    }

    @Override
    public ServerSocket createServerSocket(final int port, final int backlog) throws IOException {
        return new GiopLimitServerSocket(port, backlog, null, maxMessageBytes);
    }

    @Override
    public ServerSocket createServerSocket(final int port, final int backlog, final InetAddress bindAddress) throws IOException {
        return new GiopLimitServerSocket(port, backlog, bindAddress, maxMessageBytes);
    }
}
