package org.latencyserver.testbed;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An IPv4 address with its prefix length, as an interface carries it ({@code 198.18.0.2/24}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param address      the address as an unsigned 32-bit value
 * @param prefixLength the network's prefix length, 0..32
 */
public record Ipv4Prefix(long address, int prefixLength) {

    /** The benchmarking range (RFC 2544), 198.18.0.0/15: the only addresses a testbed uses. */
    public static final Ipv4Prefix BENCHMARKING_RANGE = new Ipv4Prefix(0xC612_0000L, 15);

    private static final Pattern FORM = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");

    /**
     * @param address      the address, 0..2^32 − 1
     * @param prefixLength 0..32
     * @throws IllegalArgumentException when either is out of range
     */
    public Ipv4Prefix {
        if (address < 0 || address > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("an IPv4 address is 0..2^32-1, was " + address);
        }
        if (prefixLength < 0 || prefixLength > 32) {
            throw new IllegalArgumentException("a prefix length is 0..32, was " + prefixLength);
        }
    }

    /**
     * @param text e.g. {@code 198.18.0.2/24}
     * @return the prefix
     * @throws IllegalArgumentException naming the text when it is not of that form
     */
    public static Ipv4Prefix parse(final String text) {
        final Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected an IPv4 address with its prefix length, e.g. 198.18.0.2/24, was '"
                + text + "'");
        }
        long address = 0;
        for (int i = 1; i <= 4; i++) {
            final int octet = Integer.parseInt(m.group(i));
            if (octet > 255) {
                throw new IllegalArgumentException("an address's parts are 0..255, was '" + text + "'");
            }
            address = (address << 8) | octet;
        }
        final int length = Integer.parseInt(m.group(5));
        if (length > 32) {
            throw new IllegalArgumentException("a prefix length is 0..32, was '" + text + "'");
        }
        return new Ipv4Prefix(address, length);
    }

    /** @return whether this address lies in {@code other}'s network (this prefix length aside) */
    public boolean addressWithin(final Ipv4Prefix other) {
        final long mask = other.mask();
        return (address & mask) == (other.address & mask);
    }

    /** @return whether this network lies wholly in {@code other}'s */
    public boolean networkWithin(final Ipv4Prefix other) {
        return prefixLength >= other.prefixLength && addressWithin(other);
    }

    /** @return whether the address is this network's own address or its broadcast address (prefixes up to /30) */
    public boolean isNetworkOrBroadcast() {
        if (prefixLength > 30) {
            return false;
        }
        final long host = address & ~mask() & 0xFFFF_FFFFL;
        return host == 0 || host == (~mask() & 0xFFFF_FFFFL);
    }

    /** @return the address alone, e.g. {@code 198.18.0.2} */
    public String addressText() {
        return ((address >> 24) & 0xFF) + "." + ((address >> 16) & 0xFF) + "." + ((address >> 8) & 0xFF) + "." + (address & 0xFF);
    }

    private long mask() {
        return prefixLength == 0 ? 0 : (0xFFFF_FFFFL << (32 - prefixLength)) & 0xFFFF_FFFFL;
    }

    /** @return e.g. {@code 198.18.0.2/24}, as {@code ip address add} takes it */
    @Override
    public String toString() {
        return addressText() + "/" + prefixLength;
    }
}
