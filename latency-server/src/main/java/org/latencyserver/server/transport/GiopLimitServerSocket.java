package org.latencyserver.server.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;

/**
 * A server socket whose accepted sockets are {@link GiopLimitSocket}s. Thread-safe as {@link ServerSocket}.
 */
final class GiopLimitServerSocket extends ServerSocket {

    private final long maxMessageBytes;

    GiopLimitServerSocket(final int port, final int backlog, final InetAddress bindAddress, final long maxMessageBytes)
        throws IOException {
        super(port, backlog, bindAddress);
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public Socket accept() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        final GiopLimitSocket socket = new GiopLimitSocket(maxMessageBytes);
        implAccept(socket);
        IiopConnections.accepted();
        return socket;
    }
}
