package org.latencyserver.core.state;

import java.util.ArrayList;
import java.util.List;

/**
 * How a loaded switch port's utilisation is divided into load states.
 *
 * <p>{@link #THESIS}: every whole percent above 90 is a state of its own (thesis section 4.2.4),
 * so a port moving from 98 to 99 % is a state change. A real port near its rate moves by a point
 * every few polls, which makes each poll a new state; {@link #of} divides the loaded range into
 * a few bands instead, each one state. A band is named by its upper edge: with upper edges
 * {@code [95, 98]} the bands are 91–95, 96–98 and 99–100 %, and a port at 93 % is in the state
 * {@code LOADED 95 %} (the IDL's {@code port_state} 95).
 *
 * <p>Immutable and thread-safe.
 */
public final class PortBands {

    /** The thesis's states: one per whole percent, 91..100. */
    public static final PortBands THESIS = new PortBands(List.of(), true);

    /** The default bands for a real port: 91–95, 96–98, 99–100 %. */
    public static final PortBands DEFAULT_BANDS = of(List.of(95, 98));

    private final List<Integer> upperPercents;
    private final boolean everyPercent;

    private PortBands(final List<Integer> upperPercents, final boolean everyPercent) {
        this.upperPercents = upperPercents;
        this.everyPercent = everyPercent;
    }

    /**
     * @param upperPercentsBelow100 the bands' upper edges below 100, ascending, each 91..99 (100 closes the
     *                              last band); empty gives one band 91–100
     * @return the bands
     * @throws IllegalArgumentException naming the first edge out of range or out of order
     */
    public static PortBands of(final List<Integer> upperPercentsBelow100) {
        final List<Integer> edges = new ArrayList<>();
        int previous = PortStateClassifier.LOADED_ABOVE_PERCENT;
        for (int i = 0; i < upperPercentsBelow100.size(); i++) {
            final Integer edge = upperPercentsBelow100.get(i);
            if (edge == null || edge <= previous || edge > 99) {
                throw new IllegalArgumentException("band upper edge [" + i + "] must be a whole percent above " + previous
                    + " and at most 99 (100 closes the last band), was " + edge);
            }
            edges.add(edge);
            previous = edge;
        }
        edges.add(100);
        return new PortBands(List.copyOf(edges), false);
    }

    /** @return true for the thesis's states, one per whole percent */
    public boolean isEveryPercent() {
        return everyPercent;
    }

    /** @return the bands' upper edges, ascending, the last 100; empty for {@link #THESIS} */
    public List<Integer> upperPercents() {
        return upperPercents;
    }

    /**
     * @param wholePercent a loaded utilisation, 91..100
     * @return the upper edge of its band (the percent itself for {@link #THESIS})
     */
    public int bandOf(final int wholePercent) {
        if (everyPercent) {
            return wholePercent;
        }
        for (final int edge : upperPercents) {
            if (wholePercent <= edge) {
                return edge;
            }
        }
        return 100;
    }

    /**
     * @param upperPercent a band's upper edge
     * @return the band's lowest whole percent (91 for the first band)
     */
    public int lowerPercentOf(final int upperPercent) {
        if (everyPercent) {
            return upperPercent;
        }
        int lower = PortStateClassifier.LOADED_ABOVE_PERCENT + 1;
        for (final int edge : upperPercents) {
            if (edge == upperPercent) {
                return lower;
            }
            lower = edge + 1;
        }
        throw new IllegalArgumentException(upperPercent + " % is not a band's upper edge of " + this);
    }

    /**
     * @param state a port state
     * @return how an operator reads it: {@code "LOADED 91–95 %"} for a band, the state itself otherwise
     */
    public String describe(final PortState state) {
        if (everyPercent || !state.isLoaded() || !upperPercents.contains(state.utilisationPercent())
            || lowerPercentOf(state.utilisationPercent()) == state.utilisationPercent()) {
            return state.toString();
        }
        return "LOADED " + lowerPercentOf(state.utilisationPercent()) + "–" + state.utilisationPercent() + " %";
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof PortBands bands && bands.everyPercent == everyPercent && bands.upperPercents.equals(upperPercents);
    }

    @Override
    public int hashCode() {
        return everyPercent ? 1 : upperPercents.hashCode();
    }

    /** @return {@code "thesis"} or the bands' upper edges, e.g. {@code "bands [95, 98, 100]"} */
    @Override
    public String toString() {
        return everyPercent ? "thesis" : "bands " + upperPercents;
    }
}
