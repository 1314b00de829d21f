package org.latencyserver.testbed;

import java.util.List;

/**
 * A bottleneck on a switch port: a token bucket filter ({@code tc qdisc ... tbf}) on the port's
 * egress, i.e. on the traffic the switch sends out of that port (toward the host or the other
 * switch). Packets beyond the rate queue for up to {@code latencyMillis}, then are dropped.
 *
 * <p>Immutable; thread-safe.
 *
 * @param rateMbitPerSecond the rate, Mbit/s (10^6 bit/s) of whole Ethernet frames, > 0
 * @param burstKbytes       the bucket's depth, KiB (tc's {@code kb}), > 0
 * @param latencyMillis     the longest a packet may wait in the queue, ms, > 0
 */
public record Bottleneck(double rateMbitPerSecond, long burstKbytes, long latencyMillis) {

    /** Default bucket depth, KiB: enough for a few full frames at tens of Mbit/s. */
    public static final long DEFAULT_BURST_KBYTES = 10;
    /** Default queue limit, ms. */
    public static final long DEFAULT_LATENCY_MILLIS = 25;

    /**
     * @throws IllegalArgumentException when a value is not positive
     */
    public Bottleneck {
        if (!(rateMbitPerSecond > 0) || burstKbytes <= 0 || latencyMillis <= 0) {
            throw new IllegalArgumentException("a bottleneck's rate, burst and latency must be > 0, were "
                + rateMbitPerSecond + " Mbit/s, " + burstKbytes + " KiB, " + latencyMillis + " ms");
        }
    }

    /** @return the rate in kbit/s (tc's {@code kbit}), rounded */
    public long rateKbitPerSecond() {
        return Math.round(rateMbitPerSecond * 1000);
    }

    /** @return the rate as the server's {@code speed_mbps} takes it: whole Mbit/s, at least 1 */
    public long speedMbps() {
        return Math.max(1, Math.round(rateMbitPerSecond));
    }

    /** @return tc's arguments after {@code tbf}: {@code rate Rkbit burst Bkb latency Lms} */
    public List<String> tbfArguments() {
        return List.of("rate", rateKbitPerSecond() + "kbit", "burst", burstKbytes + "kb", "latency", latencyMillis + "ms");
    }
}
