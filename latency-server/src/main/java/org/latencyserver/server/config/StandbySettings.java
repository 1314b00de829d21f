package org.latencyserver.server.config;

import java.util.Objects;

/**
 * The {@code server.standby:} block: this server is one of a primary/standby pair. Both servers of
 * the pair have the same configuration but for this block, where each names its own replication
 * address and the other's.
 *
 * <p>Immutable and thread-safe.
 *
 * @param listenHost         {@code server.standby.listen}'s host: the address this server's replication channel binds
 * @param listenPort         {@code server.standby.listen}'s port, 1..65535
 * @param peerHost           {@code server.standby.peer}'s host
 * @param peerPort           {@code server.standby.peer}'s port, 1..65535
 * @param ackTimeoutMillis   {@code server.standby.ack_timeout_millis}, ms: how long a write waits for the standby
 * @param leaseMillis        {@code server.standby.lease_millis}, ms: how long a primary serves after it last confirmed
 *                           its name in the naming service
 */
public record StandbySettings(String listenHost, int listenPort, String peerHost, int peerPort, long ackTimeoutMillis,
                              long leaseMillis) {

    /** Default lease (the options table's). */
    public static final long DEFAULT_LEASE_MILLIS = ServerOption.SERVER_STANDBY_LEASE_MILLIS.defaultWhole();

    /** Default wait for the standby's acknowledgement (the options table's). */
    public static final long DEFAULT_ACK_TIMEOUT_MILLIS = ServerOption.SERVER_STANDBY_ACK_TIMEOUT_MILLIS.defaultWhole();

    /**
     * @throws IllegalArgumentException when a host is blank, a port outside 1..65535, or the peer is this server itself
     */
    public StandbySettings {
        Objects.requireNonNull(listenHost, "listenHost");
        Objects.requireNonNull(peerHost, "peerHost");
        checkPort("server.standby.listen", listenPort);
        checkPort("server.standby.peer", peerPort);
        ServerOption.SERVER_STANDBY_ACK_TIMEOUT_MILLIS.checked(ackTimeoutMillis);
        ServerOption.SERVER_STANDBY_LEASE_MILLIS.checked(leaseMillis);
        if (listenHost.equals(peerHost) && listenPort == peerPort) {
            throw new IllegalArgumentException("server.standby.peer names this server's own address " + listenHost + ":"
                + listenPort + "; it must name the other server's server.standby.listen");
        }
    }

    /** The pair with the default lease, {@code server.standby.lease_millis}'s default. */
    public StandbySettings(final String listenHost, final int listenPort, final String peerHost, final int peerPort,
                           final long ackTimeoutMillis) {
        this(listenHost, listenPort, peerHost, peerPort, ackTimeoutMillis, DEFAULT_LEASE_MILLIS);
    }

    private static void checkPort(final String key, final int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(key + ": port must be 1..65535, was " + port);
        }
    }

    /**
     * @param text what the configuration says, {@code host:port}
     * @return the host, or null when the text is not {@code host:port}
     */
    static String hostOf(final String text) {
        final int colon = text.lastIndexOf(':');
        return colon <= 0 || text.chars().anyMatch(Character::isWhitespace) ? null : text.substring(0, colon);
    }

    /**
     * @return the port 1..65535, or -1 when the text does not end in one
     */
    static int portOf(final String text) {
        final int colon = text.lastIndexOf(':');
        try {
            final int port = Integer.parseInt(text.substring(colon + 1));
            return port >= 1 && port <= 65_535 ? port : -1;
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return -1;
        }
    }
}
