package org.latencyserver.server.snmp;

/**
 * The increase of an SNMP counter between two readings, allowing for one wrap past its maximum
 * (RFC 2578 §7.1.6 and §7.1.10: Counter32 wraps at 2^32, Counter64 at 2^64).
 *
 * <p>Stateless; thread-safe.
 */
public final class CounterDelta {

    private CounterDelta() {
    }

    /**
     * @param previous the earlier reading, as the counter's unsigned value held in a long (for
     *                 Counter64 the bit pattern of the unsigned value)
     * @param current  the later reading, same form
     * @param bits     the counter's width, 32 or 64
     * @return the increase, as an unsigned value held in a long; a reading lower than the previous
     *         one counts as exactly one wrap (the poll is far shorter than a wrap period)
     * @throws IllegalArgumentException when {@code bits} is neither 32 nor 64
     */
    public static long of(final long previous, final long current, final int bits) {
        if (bits == 64) {
            // Two's-complement subtraction is subtraction modulo 2^64.
            return current - previous;
        }
        if (bits == 32) {
            return (current - previous) & 0xFFFF_FFFFL;
        }
        throw new IllegalArgumentException("a counter has 32 or 64 bits, not " + bits);
    }
}
