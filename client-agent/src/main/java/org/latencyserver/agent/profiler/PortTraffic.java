package org.latencyserver.agent.profiler;

import java.util.Locale;

/**
 * The shape of the cross-traffic that drives a port while its cells are measured: iperf3's {@code -b RATE} (smooth: one
 * datagram per pacing tick while the average is under the rate) or {@code -b RATE/PACKETS} (bursty: PACKETS datagrams
 * back to back, then silence until the average is back at the rate). The average utilisation is the same; how much a
 * shaping queue (a tbf, a switch buffer) holds is not — a smooth sender keeps a token bucket nearly full and the queue
 * empty, a burst longer than the bucket queues, as the production cross-traffic of many senders does.
 *
 * @param bursty       true for bursts, false for iperf3's smooth pacing
 * @param burstPackets datagrams per burst when bursty (1..{@value #MAX_BURST_PACKETS}), 0 when smooth
 */
record PortTraffic(boolean bursty, int burstPackets) {

    /**
     * Datagrams per burst when none is given: 32 × 1442-byte frames is 46 KB, several times a small switch's or a tbf's
     * bucket (10 KiB on the testbed) so that a queue forms, and drained in 18.5 ms at 20 Mbit/s, within a tbf's 25 ms
     * latency limit so that one burst alone is not dropped.
     */
    static final int DEFAULT_BURST_PACKETS = 32;
    /** The most datagrams per burst accepted. */
    static final int MAX_BURST_PACKETS = 1000;
    /** The shape used when {@code --port-traffic} is not given. */
    static final PortTraffic DEFAULT = new PortTraffic(true, DEFAULT_BURST_PACKETS);
    /** The smooth shape. */
    static final PortTraffic SMOOTH = new PortTraffic(false, 0);

    PortTraffic {
        if (bursty ? burstPackets < 1 || burstPackets > MAX_BURST_PACKETS : burstPackets != 0) {
            throw new IllegalArgumentException("--port-traffic: a burst is 1.." + MAX_BURST_PACKETS + " packets, was " + burstPackets);
        }
    }

    /**
     * @param text {@code smooth}, {@code bursty} or {@code bursty:PACKETS}
     * @return the shape
     * @throws IllegalArgumentException naming the option and what is accepted
     */
    static PortTraffic parse(final String text) {
        final String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (value.equals("smooth")) {
            return SMOOTH;
        }
        if (value.equals("bursty")) {
            return DEFAULT;
        }
        if (value.startsWith("bursty:")) {
            final String packets = value.substring("bursty:".length());
            try {
                return new PortTraffic(true, Integer.parseInt(packets));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--port-traffic: '" + packets + "' is not a packet count (bursty:PACKETS, e.g. bursty:"
                    + DEFAULT_BURST_PACKETS + ")");
            }
        }
        throw new IllegalArgumentException("--port-traffic: '" + text + "' is not smooth, bursty or bursty:PACKETS");
    }

    /**
     * @param payloadBitsPerSecond the average UDP payload rate
     * @return iperf3's {@code -b} argument: {@code RATE} or {@code RATE/PACKETS}
     */
    String bitrateArgument(final long payloadBitsPerSecond) {
        return bursty ? payloadBitsPerSecond + "/" + burstPackets : Long.toString(payloadBitsPerSecond);
    }

    /** @return the shape as {@code --port-traffic} takes it: {@code smooth} or {@code bursty:PACKETS} */
    String label() {
        return bursty ? "bursty:" + burstPackets : "smooth";
    }

    /** @return the shape in words, for the profile's provenance */
    String describe() {
        return bursty
            ? String.format(Locale.ROOT, "bursty cross-traffic (--port-traffic %s: iperf3 -b RATE/%d, %d datagrams back to back per"
                + " burst at the average rate)", label(), burstPackets, burstPackets)
            : "smooth cross-traffic (--port-traffic smooth: iperf3 -b RATE, one datagram per 1 ms pacing tick while under the rate)";
    }
}
