package org.latencyserver.server.table;

import java.util.Arrays;

/**
 * The utilisation of each switch port (hop) of a connection's path, in path order: whole percents, −1 where no value
 * has arrived, 101 ({@link org.latencyserver.core.state.PortState#SATURATED_CODE}) where the poller saw the port carry
 * its rate and drop. A path with no observed port, and the thesis's connection, have one hop.
 *
 * <p>Immutable and thread-safe; one-hop values are shared instances, so a poll of a one-hop connection allocates none.
 */
public final class PortPercents {

    private static final PortPercents[] SINGLE = new PortPercents[103];

    static {
        for (int percent = -1; percent <= 101; percent++) {
            SINGLE[percent + 1] = new PortPercents(new short[] {(short) percent});
        }
    }

    /** One hop with no value. */
    public static final PortPercents UNKNOWN = single((short) -1);

    private final short[] percents;

    private PortPercents(final short[] percents) {
        this.percents = percents;
    }

    /**
     * @param percent −1..101
     * @return one hop at that utilisation
     * @throws IllegalArgumentException when the value is outside −1..101
     */
    public static PortPercents single(final short percent) {
        check(0, percent);
        return SINGLE[percent + 1];
    }

    /**
     * @param percents each hop's utilisation in path order, −1..101; at least one (copied)
     * @return the hops
     * @throws IllegalArgumentException naming the hop whose value is outside −1..101, or when there is none
     */
    public static PortPercents of(final short... percents) {
        if (percents == null || percents.length == 0) {
            throw new IllegalArgumentException("a path has at least one port");
        }
        if (percents.length == 1) {
            return single(percents[0]);
        }
        for (int i = 0; i < percents.length; i++) {
            check(i, percents[i]);
        }
        return new PortPercents(percents.clone());
    }

    /**
     * @param hops how many hops
     * @return that many hops with no value
     */
    public static PortPercents unknown(final int hops) {
        final short[] percents = new short[hops];
        Arrays.fill(percents, (short) -1);
        return of(percents);
    }

    private static void check(final int hop, final short percent) {
        if (percent < -1 || percent > 101) {
            throw new IllegalArgumentException("port utilisation of hop " + (hop + 1) + " must be 0..100 % (101 saturated,"
                + " -1 unknown), was " + percent);
        }
    }

    /** @return how many hops, {@code >= 1} */
    public int count() {
        return percents.length;
    }

    /**
     * @param hop 0-based, in path order
     * @return that hop's utilisation; −1 for a hop beyond {@link #count()} (not observed yet)
     */
    public short at(final int hop) {
        return hop < percents.length ? percents[hop] : -1;
    }

    /**
     * @return the path's worst hop as the thesis's one port value: −1 when any hop is unknown, else the highest
     *         utilisation (101 for a saturated hop)
     */
    public short worst() {
        short worst = percents[0];
        for (final short percent : percents) {
            if (percent < 0) {
                return -1;
            }
            worst = (short) Math.max(worst, percent);
        }
        return worst;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof PortPercents p && Arrays.equals(p.percents, percents);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(percents);
    }

    /** @return e.g. {@code "[97, 12]"} */
    @Override
    public String toString() {
        return Arrays.toString(percents);
    }
}
