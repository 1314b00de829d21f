package org.latencyserver.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Carries TCP connections from the operator's network namespace into a testbed host's, where a web
 * page listens on that host's loopback, without adding an interface or a route to the operator's
 * namespace: a path-named Unix domain socket lives in the file system, which every namespace shares.
 *
 * <ul>
 *   <li>Inside the host's namespace, this class's {@link #main} (one small JVM, a child of the demo)
 *       listens on {@code SOCKET} and connects each connection to {@code 127.0.0.1:PORT} there.</li>
 *   <li>In the operator's namespace, a {@link Listener} (in the demo's JVM) listens on
 *       {@code 127.0.0.1:PORT} and connects each connection to {@code SOCKET}.</li>
 * </ul>
 * So a browser on the machine opens {@code http://127.0.0.1:8470/} and talks to the console in
 * srv's namespace; the bytes pass only through loopbacks and a socket file.
 *
 * <p>Thread-safety: one accepting thread per socket and two copying threads per connection; a
 * connection's threads share nothing but its two channels.
 */
public final class NamespaceForward {

    private static final int BUFFER_BYTES = 16 * 1024;

    private NamespaceForward() {
    }

    /**
     * The end inside a host's namespace: until killed, forwards each {@code SOCKET=PORT} pair's
     * connections to {@code 127.0.0.1:PORT}. A stale socket file is replaced; the files are deleted
     * on a clean stop.
     *
     * @param args one or more {@code SOCKET=PORT}
     * @throws IOException when a socket cannot be made (the demo sees the process end and quotes its log)
     */
    public static void main(final String[] args) throws IOException, InterruptedException {
        final List<Path> sockets = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        for (final String pair : args) {
            final int at = pair.lastIndexOf('=');
            if (at <= 0) {
                throw new IllegalArgumentException("expected SOCKET=PORT, was '" + pair + "'");
            }
            final Path socket = Path.of(pair.substring(0, at));
            final int port = Integer.parseInt(pair.substring(at + 1));
            Files.deleteIfExists(socket);
            final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            sockets.add(socket);
            threads.add(acceptLoop(server, new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "forward-" + port));
            System.out.println("forwarding " + socket + " to 127.0.0.1:" + port);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> sockets.forEach(NamespaceForward::deleteQuietly), "forward-stop"));
        System.out.flush();
        for (final Thread thread : threads) {
            thread.join();
        }
    }

    /**
     * The end in the operator's namespace: listens on {@code 127.0.0.1:PORT} and carries every
     * connection to a socket file.
     *
     * <p>Thread-safe; {@link #close} is idempotent.
     */
    public static final class Listener implements AutoCloseable {
        private final ServerSocketChannel server;
        private final int port;

        private Listener(final ServerSocketChannel server) throws IOException {
            this.server = server;
            this.port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        /**
         * @param port   the TCP port on 127.0.0.1; 0 for any free port
         * @param socket the socket file the other end listens on
         * @return the listening forward
         * @throws IOException when the port cannot be bound
         */
        public static Listener open(final int port, final Path socket) throws IOException {
            final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET);
            try {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            } catch (IOException e) {
                server.close();
                throw new IOException("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
            }
            final Listener listener = new Listener(server);
            acceptLoop(server, UnixDomainSocketAddress.of(socket), "forward-" + listener.port);
            return listener;
        }

        /** @return the TCP port it listens on */
        public int port() {
            return port;
        }

        /** Stops accepting; connections already carried end when either side closes. */
        @Override
        public void close() {
            try {
                server.close();
            } catch (IOException e) {
                // closing: nothing more to do
            }
        }
    }

    private static Thread acceptLoop(final ServerSocketChannel server, final SocketAddress target, final String name) {
        final AtomicInteger connections = new AtomicInteger();
        final Thread thread = new Thread(() -> {
            while (server.isOpen()) {
                final SocketChannel accepted;
                try {
                    accepted = server.accept();
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException e) {
                    System.err.println(name + ": accept failed: " + e.getMessage());
                    continue;
                }
                carry(accepted, target, name + "-" + connections.incrementAndGet());
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Connects to the target and copies both ways until both directions end; closes both channels then. */
    private static void carry(final SocketChannel accepted, final SocketAddress target, final String name) {
        final SocketChannel outgoing;
        try {
            outgoing = SocketChannel.open(target);
        } catch (IOException e) {
            System.err.println(name + ": cannot reach " + target + ": " + e.getMessage());
            closeQuietly(accepted);
            return;
        }
        final CountDownLatch bothEnded = new CountDownLatch(2);
        copy(accepted, outgoing, name + "-up", bothEnded);
        copy(outgoing, accepted, name + "-down", bothEnded);
        final Thread closer = new Thread(() -> {
            try {
                bothEnded.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeQuietly(accepted);
            closeQuietly(outgoing);
        }, name + "-close");
        closer.setDaemon(true);
        closer.start();
    }

    private static void copy(final SocketChannel from, final SocketChannel to, final String name, final CountDownLatch ended) {
        final Thread thread = new Thread(() -> {
            final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput();
            } catch (IOException e) {
                // one side went away: end both directions
                closeQuietly(from);
                closeQuietly(to);
            } finally {
                ended.countDown();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(final SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // already gone
        }
    }

    private static void deleteQuietly(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // left for the next run, which replaces it
        }
    }
}
