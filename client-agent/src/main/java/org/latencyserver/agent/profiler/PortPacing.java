package org.latencyserver.agent.profiler;

/**
 * How far apart the profiler starts its round trips on a measured port, so that its own traffic
 * stays a small share of the port's speed: the agents' round trips are part of the port's load.
 *
 * <p>A CORBA round trip of S bytes puts on the wire, in each direction, about S bytes of message,
 * {@value #GIOP_OVERHEAD_BYTES} of GIOP/IIOP headers (request header, object key, sequence length),
 * {@value #FRAME_OVERHEAD_BYTES} of TCP/IPv4/Ethernet headers per segment of at most
 * {@value #SEGMENT_BYTES} bytes, and one bare acknowledgement frame for the other direction's segment.
 * That is an estimate on the safe side (a reply's header is shorter); the run's load-0 reading
 * shows what it really was.
 *
 * <p>Stateless; thread-safe.
 */
final class PortPacing {

    static final int GIOP_OVERHEAD_BYTES = 128;
    static final int FRAME_OVERHEAD_BYTES = 70;
    static final int SEGMENT_BYTES = 1448;

    private PortPacing() {
    }

    /** @return bytes one round trip of this size puts on the port in its busier direction (see the class comment) */
    static long wireBytesPerRoundTrip(final int messageSizeBytes) {
        final long payload = (long) messageSizeBytes + GIOP_OVERHEAD_BYTES;
        final long segments = (payload + SEGMENT_BYTES - 1) / SEGMENT_BYTES;
        return payload + segments * FRAME_OVERHEAD_BYTES + FRAME_OVERHEAD_BYTES;
    }

    /**
     * @param messageSizeBytes  the round trips' size
     * @param speedMbps         the port's speed, {@code > 0}
     * @param sharePercent      the most of it the round trips may take, {@code (0, 100]}
     * @param minIntervalMicros never closer than this (the profiler's {@code --interval-micros})
     * @return the interval between round-trip starts, µs
     */
    static long intervalMicros(final int messageSizeBytes, final double speedMbps, final double sharePercent,
                               final long minIntervalMicros) {
        if (!(speedMbps > 0) || !(sharePercent > 0) || sharePercent > 100) {
            throw new IllegalArgumentException("speed " + speedMbps + " Mbit/s and share " + sharePercent
                + " % must be > 0 (share at most 100)");
        }
        final double allowedBitsPerSecond = speedMbps * 1e6 * sharePercent / 100.0;
        final long micros = (long) Math.ceil(wireBytesPerRoundTrip(messageSizeBytes) * 8 * 1e6 / allowedBitsPerSecond);
        return Math.max(minIntervalMicros, micros);
    }

    /** @return the share of the port round trips started every {@code intervalMicros} take at most, percent */
    static double sharePercent(final int messageSizeBytes, final double speedMbps, final long intervalMicros) {
        return 100.0 * wireBytesPerRoundTrip(messageSizeBytes) * 8 / (intervalMicros / 1e6) / (speedMbps * 1e6);
    }
}
