package org.latencyserver.agent.profiler;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The switch port loads a {@code profile measure --port-loads} run drives the port to, and the
 * loaded bands the loads above 90 % stand for.
 *
 * <p>The band rule: sort the loads; each load {@code L} above 90 stands for the whole percents from
 * one above the previous load above 90 (or 91 for the first) up to {@code L}. So {@code 95,98,100}
 * gives 91–95 (from 95), 96–98 (from 98) and 99–100 (from 100): each band is measured at its busiest
 * point, as the server reads a band's cell at the band's upper edge. Loads at or below 90 are a
 * NORMAL port: measured and reported (they show whether the idle cells hold up to 90 %), but no
 * port cell is written for them, since the server serves a NORMAL port from its CPU cells.
 *
 * <p>Immutable and thread-safe.
 *
 * @param percents the loads, ascending and distinct, each 0..100
 */
record PortLoads(List<Integer> percents) {

    /** The lowest percent a loaded port's band may start at (the thesis's LOADED states are 91..100). */
    static final int FIRST_LOADED_PERCENT = 91;

    /**
     * One loaded band and the load that measures it.
     *
     * @param lowestPercent  the band's lowest whole percent, 91..100
     * @param highestPercent its highest, the load it is measured at
     */
    record Band(int lowestPercent, int highestPercent) {
        /** @return e.g. {@code "91-95 %"} */
        String label() {
            return (lowestPercent == highestPercent ? Integer.toString(highestPercent) : lowestPercent + "-" + highestPercent) + " %";
        }
    }

    PortLoads {
        percents = List.copyOf(percents);
    }

    /**
     * @param text the option's value, e.g. {@code 0,50,80,90,95,98,100}
     * @return the loads, sorted
     * @throws IllegalArgumentException naming the bad entry: not a whole number, outside 0..100, repeated, or none
     */
    static PortLoads parse(final String text) {
        final TreeSet<Integer> loads = new TreeSet<>();
        for (final String part : text.split(",", -1)) {
            final String entry = part.trim();
            final int percent;
            try {
                percent = Integer.parseInt(entry);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--port-loads: '" + entry + "' is not a whole percent (e.g. 0,95,98,100)");
            }
            if (percent < 0 || percent > 100) {
                throw new IllegalArgumentException("--port-loads: " + percent + " is outside 0..100 % (a port read through its "
                    + "counters never shows more than 100 %)");
            }
            if (!loads.add(percent)) {
                throw new IllegalArgumentException("--port-loads: " + percent + " is given twice");
            }
        }
        if (loads.stream().noneMatch(p -> p >= FIRST_LOADED_PERCENT)) {
            throw new IllegalArgumentException("--port-loads: none of " + text + " is above 90 %, so no port cell would be written"
                + " (the server's loaded port states are 91..100 %)");
        }
        return new PortLoads(new ArrayList<>(loads));
    }

    /** @return the band a load above 90 stands for (see the class comment) */
    Band bandOf(final int loadPercent) {
        if (loadPercent < FIRST_LOADED_PERCENT || !percents.contains(loadPercent)) {
            throw new IllegalArgumentException("no band for a load of " + loadPercent + " %");
        }
        int lowest = FIRST_LOADED_PERCENT;
        for (final int percent : percents) {
            if (percent >= FIRST_LOADED_PERCENT && percent < loadPercent) {
                lowest = percent + 1;
            }
        }
        return new Band(lowest, loadPercent);
    }

    /** @return the bands of the loads above 90, lowest first */
    List<Band> bands() {
        return percents.stream().filter(p -> p >= FIRST_LOADED_PERCENT).map(this::bandOf).toList();
    }
}
