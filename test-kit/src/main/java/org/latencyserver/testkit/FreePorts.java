package org.latencyserver.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A TCP port for a test that must know its port before it starts a listener (a naming service
 * restarted on the same port, a corbaloc written before the server runs). A port from
 * {@code new ServerSocket(0)} is taken from the kernel's ephemeral range, where any outgoing
 * connection of any process may be given it before the test binds it again; this picks a free
 * port below that range instead, where only listeners that ask for it by number go.
 *
 * <p>Stateless and thread-safe.
 */
public final class FreePorts {

    /** Where the ephemeral range is, on Linux; its first number is the end of the range picked from. */
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 20_000;
    private static final int TRIES = 200;

    private FreePorts() {
    }

    /**
     * @return a port on 127.0.0.1 that was free a moment ago, below the ephemeral range
     * @throws UncheckedIOException when none was free in {@value #TRIES} tries
     */
    public static int belowEphemeralRange() {
        return belowEphemeralRange(0);
    }

    /**
     * For a listener that also listens on its port plus an offset (JGroups' FD_SOCK2: the port + 100):
     * the port and that offset both below the ephemeral range, where no outgoing connection takes them.
     *
     * @param headroom how far above the port the range must still be, ports
     * @return a port on 127.0.0.1 that was free a moment ago, at least {@code headroom} below the ephemeral range
     * @throws UncheckedIOException when none was free in {@value #TRIES} tries
     */
    public static int belowEphemeralRange(final int headroom) {
        final int end = ephemeralStart() - headroom;
        for (int i = 0; i < TRIES; i++) {
            final int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new UncheckedIOException(new IOException("no free port between " + LOWEST + " and " + end + " in " + TRIES + " tries"));
    }

    /** @return the first port of the kernel's ephemeral range (32768 when it cannot be read) */
    static int ephemeralStart() {
        try {
            final String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            final int start = Integer.parseInt(range[0]);
            return start > LOWEST + 1000 ? start : 32_768;
        } catch (IOException | RuntimeException unreadable) {
            return 32_768;
        }
    }
}
