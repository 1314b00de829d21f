package org.latencyserver.server.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;

/**
 * An accepted plain IIOP connection whose input is read through a {@link GiopFraming}: a message
 * declaring more than the limit, or a request JacORB cannot take, closes it. Counted open until it is closed.
 *
 * <p>Thread-safe: the input stream is made once, under the socket's lock.
 */
final class GiopLimitSocket extends Socket {

    private final long maxMessageBytes;
    private InputStream framed;
    private boolean counted = true;

    GiopLimitSocket(final long maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
        if (framed == null) {
            framed = new GiopFraming(super.getInputStream(), maxMessageBytes, this::refuse, this::refuseResponseFlags);
        }
        return framed;
    }

    private void refuse(final long declaredBytes) {
        IiopConnections.refused(String.valueOf(getRemoteSocketAddress()), declaredBytes, maxMessageBytes);
        closeQuietly();
    }

    private void refuseResponseFlags() {
        IiopConnections.refusedResponseFlags(String.valueOf(getRemoteSocketAddress()));
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // Already closed: nothing more to free.
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (counted) {
                counted = false;
                IiopConnections.closed();
            }
        }
        super.close();
    }
}
