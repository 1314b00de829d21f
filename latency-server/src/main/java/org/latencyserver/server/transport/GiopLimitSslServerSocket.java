package org.latencyserver.server.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.util.Set;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * The server's IIOP/TLS listening socket with the GIOP checks of the plain one: it passes every
 * call to a configured {@link SSLServerSocket} and hands out each accepted TLS socket as a
 * {@link GiopLimitSslSocket}, whose decrypted input is framed and checked before JacORB reads it.
 * This object's own socket is never bound.
 *
 * <p>Thread-safe as {@link ServerSocket}: JacORB's TLS acceptor thread accepts, another may close.
 */
public final class GiopLimitSslServerSocket extends ServerSocket {

    private final SSLServerSocket delegate;
    private final long maxMessageBytes;

    private GiopLimitSslServerSocket(final SSLServerSocket delegate, final long maxMessageBytes) throws IOException {
        this.delegate = delegate;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * @param listening       a bound TLS server socket, client authentication set
     * @param maxMessageBytes the largest GIOP message read, header included ({@code limits.max_giop_message_bytes});
     *                        {@link Long#MAX_VALUE} for no limit (the response flags are still checked)
     * @return a server socket whose accepted sockets check their GIOP messages
     * @throws IOException when the wrapper cannot be made
     */
    public static ServerSocket checking(final SSLServerSocket listening, final long maxMessageBytes) throws IOException {
        return new GiopLimitSslServerSocket(listening, maxMessageBytes);
    }

    @Override
    public Socket accept() throws IOException {
        return new GiopLimitSslSocket((SSLSocket) delegate.accept(), maxMessageBytes);
    }

    @Override
    public void bind(final SocketAddress endpoint) throws IOException {
        delegate.bind(endpoint);
    }

    @Override
    public void bind(final SocketAddress endpoint, final int backlog) throws IOException {
        delegate.bind(endpoint, backlog);
    }

    @Override
    public InetAddress getInetAddress() {
        return delegate.getInetAddress();
    }

    @Override
    public int getLocalPort() {
        return delegate.getLocalPort();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return delegate.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    @Override
    public boolean isBound() {
        return delegate.isBound();
    }

    @Override
    public boolean isClosed() {
        return delegate.isClosed();
    }

    @Override
    public void setSoTimeout(final int timeoutMillis) throws SocketException {
        delegate.setSoTimeout(timeoutMillis);
    }

    @Override
    public int getSoTimeout() throws IOException {
        return delegate.getSoTimeout();
    }

    @Override
    public void setReuseAddress(final boolean on) throws SocketException {
        delegate.setReuseAddress(on);
    }

    @Override
    public boolean getReuseAddress() throws SocketException {
        return delegate.getReuseAddress();
    }

    @Override
    public void setReceiveBufferSize(final int bytes) throws SocketException {
        delegate.setReceiveBufferSize(bytes);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return delegate.getReceiveBufferSize();
    }

    @Override
    public void setPerformancePreferences(final int connectionTime, final int latency, final int bandwidth) {
        delegate.setPerformancePreferences(connectionTime, latency, bandwidth);
    }

    @Override
    public <T> ServerSocket setOption(final SocketOption<T> name, final T value) throws IOException {
        delegate.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(final SocketOption<T> name) throws IOException {
        return delegate.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return delegate.supportedOptions();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
