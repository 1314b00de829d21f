package org.latencyserver.server.transport;

import java.io.IOException;
import java.io.InputStream;
import javax.net.ssl.SSLSocket;

/**
 * An accepted IIOP/TLS connection whose decrypted input is read through a {@link GiopFraming}, as
 * {@link GiopLimitSocket} reads a plain one: a message declaring more than the limit, or a request
 * JacORB cannot take, closes it before JacORB reads the body. Refusals are counted with the plain
 * listener's ({@link IiopConnections}); the connection itself is not counted among the plain ones.
 *
 * <p>Thread-safe: the input stream is made once, under this object's lock.
 */
final class GiopLimitSslSocket extends DelegatingSslSocket {

    private final long maxMessageBytes;
    private InputStream framed;

    GiopLimitSslSocket(final SSLSocket accepted, final long maxMessageBytes) {
        super(accepted);
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
        if (framed == null) {
            framed = new GiopFraming(delegate.getInputStream(), maxMessageBytes, this::refuse, this::refuseResponseFlags);
        }
        return framed;
    }

    private String peer() {
        return getRemoteSocketAddress() + " over TLS";
    }

    private void refuse(final long declaredBytes) {
        IiopConnections.refused(peer(), declaredBytes, maxMessageBytes);
        closeQuietly();
    }

    private void refuseResponseFlags() {
        IiopConnections.refusedResponseFlags(peer());
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // Already closed: nothing more to free.
        }
    }
}
