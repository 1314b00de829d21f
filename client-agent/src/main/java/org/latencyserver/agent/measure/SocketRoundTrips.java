package org.latencyserver.agent.measure;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Round trips of the same size over plain TCP and UDP to a peer agent's socket echo, the
 * baseline that shows what the ORB adds (thesis §3.4). The caller closes the returned transport.
 */
public final class SocketRoundTrips {

    private SocketRoundTrips() {
    }

    /** A socket round trip together with the socket it owns. */
    public interface SocketRoundTrip extends RoundTrip, AutoCloseable {
        @Override
        void close() throws IOException;
    }

    /**
     * @param host             the peer agent's host
     * @param port             its TCP echo port
     * @param messageSizeBytes payload size
     * @param timeoutMillis    read timeout; a silent peer fails the round trip
     * @return a connected round trip (TCP_NODELAY)
     * @throws IOException when it cannot connect
     */
    public static SocketRoundTrip tcp(final String host, final int port, final int messageSizeBytes, final int timeoutMillis)
        throws IOException {
        final Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), timeoutMillis);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        final OutputStream out = socket.getOutputStream();
        final InputStream in = socket.getInputStream();
        final byte[] payload = new byte[messageSizeBytes];
        final byte[] answer = new byte[messageSizeBytes];
        return new SocketRoundTrip() {
            @Override
            public void once() throws IOException {
                out.write(payload);
                int read = 0;
                while (read < answer.length) {
                    final int n = in.read(answer, read, answer.length - read);
                    if (n < 0) {
                        throw new EOFException("the TCP echo at " + host + ":" + port + " closed the connection");
                    }
                    read += n;
                }
            }

            @Override
            public void close() throws IOException {
                socket.close();
            }
        };
    }

    /**
     * @param host             the peer agent's host
     * @param port             its UDP echo port
     * @param messageSizeBytes payload size, at most 65,507 B (one datagram)
     * @param timeoutMillis    receive timeout; a lost datagram fails the round trip
     * @return a connected round trip
     * @throws IOException when the socket cannot be opened
     */
    public static SocketRoundTrip udp(final String host, final int port, final int messageSizeBytes, final int timeoutMillis)
        throws IOException {
        final DatagramSocket socket = new DatagramSocket();
        socket.connect(new InetSocketAddress(host, port));
        socket.setSoTimeout(timeoutMillis);
        final DatagramPacket out = new DatagramPacket(new byte[messageSizeBytes], messageSizeBytes);
        final byte[] answer = new byte[messageSizeBytes];
        final DatagramPacket in = new DatagramPacket(answer, answer.length);
        return new SocketRoundTrip() {
            @Override
            public void once() throws IOException {
                socket.send(out);
                in.setLength(answer.length);
                socket.receive(in);
            }

            @Override
            public void close() {
                socket.close();
            }
        };
    }
}
