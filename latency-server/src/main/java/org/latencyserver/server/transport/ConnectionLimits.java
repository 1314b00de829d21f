package org.latencyserver.server.transport;

import java.util.Properties;

/**
 * The configuration's transport limits ({@code limits.max_giop_message_bytes},
 * {@code limits.idle_connection_timeout_millis}, {@code limits.max_connections}) and the ORB
 * properties that enforce them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxGiopMessageBytes         the largest GIOP message (header included) the server reads, bytes;
 *                                    a larger one closes its connection before its body is read
 * @param idleConnectionTimeoutMillis how long a server connection may be idle (no call in progress, nothing
 *                                    arriving) before the server closes it, ms; 0 = never
 * @param maxConnections              the most plain and TLS IIOP connections the server keeps at once; one more
 *                                    is closed when it is accepted
 */
public record ConnectionLimits(long maxGiopMessageBytes, long idleConnectionTimeoutMillis, int maxConnections) {

    /** The GIOP header: magic, version, flags, type and the body's size. */
    public static final int GIOP_HEADER_BYTES = 12;

    /**
     * What a legitimate call carries beside its histogram or profile text: GIOP and request headers,
     * service contexts (code sets, the caller's TLS context), the object key, the operation's name and
     * the result's other fields and strings (an agent's name is at most 200 characters, 800 bytes in UTF-8).
     * Measured JacORB requests carry under 1 KiB of it; 64 KiB leaves room.
     */
    public static final long CALL_OVERHEAD_BYTES = 64 * 1024;

    /**
     * The bytes per bin of the largest result: {@code submit_measurement}'s histogram sends an upper edge and a
     * count (two {@code long long}) per bin, and its {@code batch_means_ms} may hold as many {@code double}s.
     */
    public static final long RESULT_BYTES_PER_BIN = 3 * Long.BYTES;

    /** The default idle time-out: a minute; agents and mirrors reconnect transparently on their next call. */
    public static final long DEFAULT_IDLE_CONNECTION_TIMEOUT_MILLIS = 60_000;

    /** The default connection cap. */
    public static final int DEFAULT_MAX_CONNECTIONS = 1_000;

    /** The ORB property the plain and the TLS server socket factories read the message limit from. */
    public static final String MAX_MESSAGE_BYTES_PROPERTY = "latencyserver.giop.max_message_bytes";

    /**
     * @throws IllegalArgumentException naming the value out of range
     */
    public ConnectionLimits {
        if (maxGiopMessageBytes < GIOP_HEADER_BYTES || idleConnectionTimeoutMillis < 0
            || idleConnectionTimeoutMillis > Integer.MAX_VALUE || maxConnections < 1) {
            throw new IllegalArgumentException("bad connection limits: " + maxGiopMessageBytes + " message bytes, idle time-out "
                + idleConnectionTimeoutMillis + " ms, " + maxConnections + " connections");
        }
    }

    /**
     * The largest GIOP message a legitimate caller sends: the larger of a {@code submit_measurement} whose
     * histogram and batch means have {@code maxHistogramBins} values each ({@value #RESULT_BYTES_PER_BIN}
     * bytes per bin) and a {@code load_profile} of {@code maxProfileBytes}, plus {@value #CALL_OVERHEAD_BYTES}
     * bytes of headers and other fields. With the defaults (20,000 bins, 64 MiB) the profile decides:
     * 67,174,400 bytes; without profiles over CORBA, 20,000 bins need 545,536.
     *
     * @param maxHistogramBins {@code limits.max_histogram_bins}
     * @param maxProfileBytes  {@code limits.max_profile_bytes}
     * @return bytes, header included
     */
    public static long largestLegitimateCallBytes(final int maxHistogramBins, final long maxProfileBytes) {
        return Math.max(RESULT_BYTES_PER_BIN * maxHistogramBins, maxProfileBytes) + CALL_OVERHEAD_BYTES;
    }

    /**
     * @param maxHistogramBins {@code limits.max_histogram_bins}
     * @param maxProfileBytes  {@code limits.max_profile_bytes}
     * @return the default limits for them: the message limit at {@link #largestLegitimateCallBytes}
     */
    public static ConnectionLimits defaultsFor(final int maxHistogramBins, final long maxProfileBytes) {
        return new ConnectionLimits(largestLegitimateCallBytes(maxHistogramBins, maxProfileBytes),
            DEFAULT_IDLE_CONNECTION_TIMEOUT_MILLIS, DEFAULT_MAX_CONNECTIONS);
    }

    /**
     * Sets the server ORB's properties: this package's server socket factory for plain IIOP
     * ({@code jacorb.net.server_socket_factory}) with the message limit (which the server's TLS
     * socket factory reads as well), JacORB's idle time-out of server connections
     * ({@code jacorb.connection.server.timeout}) and its connection cap
     * ({@code jacorb.connection.max_server_connections}, which with no selection strategy closes a
     * connection accepted beyond the cap); JacORB applies the last two to plain and TLS connections alike.
     *
     * @param orbProperties the server ORB's properties; changed in place
     * @return {@code orbProperties}
     */
    public Properties applyTo(final Properties orbProperties) {
        orbProperties.setProperty("jacorb.net.server_socket_factory", GiopLimitServerSocketFactory.class.getName());
        orbProperties.setProperty(MAX_MESSAGE_BYTES_PROPERTY, Long.toString(maxGiopMessageBytes));
        orbProperties.setProperty("jacorb.connection.server.timeout", Long.toString(idleConnectionTimeoutMillis));
        orbProperties.setProperty("jacorb.connection.max_server_connections", Integer.toString(maxConnections));
        return orbProperties;
    }
}
