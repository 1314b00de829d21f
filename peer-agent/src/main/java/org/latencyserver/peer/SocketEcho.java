package org.latencyserver.peer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plain TCP and UDP echo endpoints beside the CORBA one, so that one run can show what the ORB
 * adds to a round trip of the same size (the thesis's CORBA-vs-TCP decomposition, §3.4).
 *
 * <p>TCP: each connection is served by its own daemon thread, echoing bytes as they arrive
 * (TCP_NODELAY, so a small message is not held back by Nagle). UDP: one daemon thread echoes
 * each datagram to its sender. Both stop on {@link #close()}.
 */
public final class SocketEcho implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SocketEcho.class);
    private static final int MAX_DATAGRAM_BYTES = 65_507;

    private final ServerSocket tcp;
    private final DatagramSocket udp;

    private SocketEcho(final ServerSocket tcp, final DatagramSocket udp) {
        this.tcp = tcp;
        this.udp = udp;
    }

    /**
     * @param host    address to bind
     * @param tcpPort TCP port, 0 for any free one, negative for no TCP endpoint
     * @param udpPort UDP port, 0 for any free one, negative for no UDP endpoint
     * @return the running endpoints
     * @throws IOException when a port cannot be bound
     */
    public static SocketEcho start(final String host, final int tcpPort, final int udpPort) throws IOException {
        final InetAddress address = InetAddress.getByName(host);
        final ServerSocket tcp = tcpPort < 0 ? null : new ServerSocket(tcpPort, 50, address);
        final DatagramSocket udp = udpPort < 0 ? null : new DatagramSocket(new InetSocketAddress(address, udpPort));
        final SocketEcho echo = new SocketEcho(tcp, udp);
        if (tcp != null) {
            daemon("tcp-echo-accept", echo::acceptLoop).start();
        }
        if (udp != null) {
            daemon("udp-echo", echo::udpLoop).start();
        }
        return echo;
    }

    /** @return the bound TCP port, or -1 when there is no TCP endpoint */
    public int tcpPort() {
        return tcp == null ? -1 : tcp.getLocalPort();
    }

    /** @return the bound UDP port, or -1 when there is no UDP endpoint */
    public int udpPort() {
        return udp == null ? -1 : udp.getLocalPort();
    }

    private void acceptLoop() {
        while (!tcp.isClosed()) {
            try {
                final Socket socket = tcp.accept();
                socket.setTcpNoDelay(true);
                daemon("tcp-echo-" + socket.getPort(), () -> echoStream(socket)).start();
            } catch (IOException e) {
                if (!tcp.isClosed()) {
                    LOG.warn("TCP echo: accept failed: {}", e.getMessage());
                }
            }
        }
    }

    private static void echoStream(final Socket socket) {
        final byte[] buffer = new byte[64 * 1024];
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                out.write(buffer, 0, read);
            }
        } catch (IOException e) {
            LOG.debug("TCP echo connection from {} ended: {}", socket.getRemoteSocketAddress(), e.getMessage());
        }
    }

    private void udpLoop() {
        final byte[] buffer = new byte[MAX_DATAGRAM_BYTES];
        final DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        while (!udp.isClosed()) {
            try {
                packet.setLength(buffer.length);
                udp.receive(packet);
                udp.send(packet); // the packet still carries the sender's address
            } catch (SocketException e) {
                if (!udp.isClosed()) {
                    LOG.warn("UDP echo: {}", e.getMessage());
                }
            } catch (IOException e) {
                LOG.warn("UDP echo: {}", e.getMessage());
            }
        }
    }

    private static Thread daemon(final String name, final Runnable body) {
        final Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() throws IOException {
        if (tcp != null) {
            tcp.close();
        }
        if (udp != null) {
            udp.close();
        }
    }
}
