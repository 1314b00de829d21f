package org.latencyserver.testbed;

/**
 * The iperf3 rate that puts a port at a utilisation. iperf3's {@code -b} counts UDP payload; a
 * port's counters (IF-MIB ifHCOutOctets, the tbf) count whole Ethernet frames, each
 * {@value #FRAME_OVERHEAD_BYTES} bytes more (UDP 8, IPv4 20, Ethernet header 14). So the payload
 * rate is the target rate scaled by payload / frame. Measured here: 95 % asked, 95.0 % on the
 * port's kernel counters; 50 % asked, 50.0 %.
 *
 * <p>Stateless; thread-safe.
 */
public final class LoadRate {

    /** UDP payload per datagram, bytes: one frame each, well under a 1500-byte MTU. */
    public static final int PAYLOAD_BYTES = 1400;
    /** Bytes a frame carries beyond its UDP payload. */
    public static final int FRAME_OVERHEAD_BYTES = 8 + 20 + 14;

    private LoadRate() {
    }

    /**
     * @param percent           the utilisation wanted, percent of the rate (above 100 overloads the port)
     * @param rateMbitPerSecond the port's rate, Mbit/s of frames
     * @return iperf3's {@code -b}, bit/s of payload
     */
    public static long payloadBitsPerSecond(final double percent, final double rateMbitPerSecond) {
        if (!(percent > 0) || !(rateMbitPerSecond > 0)) {
            throw new IllegalArgumentException("percent and rate must be > 0, were " + percent + " and " + rateMbitPerSecond);
        }
        final double frameBitsPerSecond = percent / 100.0 * rateMbitPerSecond * 1e6;
        return Math.round(frameBitsPerSecond * PAYLOAD_BYTES / (PAYLOAD_BYTES + FRAME_OVERHEAD_BYTES));
    }
}
