package org.latencyserver.core.port;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A port model measured on the network, as the thesis's Table 3.6.2-1: round trip against port
 * load for several message sizes. The contribution at utilisation u and size s is
 * {@code rtt(s, u) − rtt(s, 0)}, interpolated linearly in u between the measured loads (with no
 * contribution at 90 %, the thesis's threshold) and linearly in s between the measured sizes.
 * Beyond the highest measured load, or outside the measured sizes, the nearest segment is
 * extended (loads) or the nearest size used (sizes), and the result is flagged extrapolated.
 * Rows between 1 and 90 % are kept (and written back to JSON) but do not enter the model: the
 * thesis treats a port at or below 90 % as adding nothing. A loaded round trip measured faster
 * than the unloaded one adds 0 ms, never a negative amount.
 *
 * <p>Immutable and thread-safe.
 */
public final class MeasuredTablePortModel implements PortModel {

    /**
     * One measurement of the table. Immutable and thread-safe.
     *
     * @param messageSizeBytes   {@code >= 1}
     * @param portLoadPercent    0..100; every size needs a row at 0 % (the unloaded baseline)
     * @param avgRoundTripMicros mean round trip, µs, {@code > 0}
     */
    public record Row(int messageSizeBytes, int portLoadPercent, double avgRoundTripMicros) {
    }

    /** Per size, added latency in ms by load, with 90 % → 0 as the first point. */
    private final TreeMap<Integer, TreeMap<Integer, Double>> addedMillisBySizeAndLoad;
    private final List<Row> rows;

    private MeasuredTablePortModel(final List<Row> rows, final TreeMap<Integer, TreeMap<Integer, Double>> added) {
        this.rows = rows;
        this.addedMillisBySizeAndLoad = added;
    }

    /**
     * Builds a model from a measured table.
     *
     * @param rows the table; each size needs a 0 % row and at least one row above 90 %; no duplicate
     *             (size, load)
     * @return the model
     * @throws IllegalArgumentException naming the row or size at fault
     */
    public static MeasuredTablePortModel of(final List<Row> rows) {
        if (rows == null || rows.isEmpty()) {
            throw new IllegalArgumentException("a measured port table needs rows");
        }
        final TreeMap<Integer, TreeMap<Integer, Double>> rttBySizeAndLoad = new TreeMap<>();
        for (int i = 0; i < rows.size(); i++) {
            final Row row = Objects.requireNonNull(rows.get(i), "row " + i);
            if (row.messageSizeBytes() < 1 || row.portLoadPercent() < 0 || row.portLoadPercent() > 100
                || !(row.avgRoundTripMicros() > 0) || Double.isInfinite(row.avgRoundTripMicros())) {
                throw new IllegalArgumentException("rows[" + i + "]: need size >= 1 B, load 0..100 % and round trip > 0 µs, was " + row);
            }
            final Double previous = rttBySizeAndLoad.computeIfAbsent(row.messageSizeBytes(), s -> new TreeMap<>())
                .put(row.portLoadPercent(), row.avgRoundTripMicros());
            if (previous != null) {
                throw new IllegalArgumentException("rows[" + i + "]: duplicate row for " + row.messageSizeBytes()
                    + " B at " + row.portLoadPercent() + " %");
            }
        }
        final TreeMap<Integer, TreeMap<Integer, Double>> added = new TreeMap<>();
        rttBySizeAndLoad.forEach((size, byLoad) -> {
            final Double baselineMicros = byLoad.get(0);
            if (baselineMicros == null) {
                throw new IllegalArgumentException("size " + size + " B has no 0 % row (the unloaded baseline)");
            }
            final TreeMap<Integer, Double> addedByLoad = new TreeMap<>();
            addedByLoad.put(LOADED_ABOVE_PERCENT, 0.0);
            byLoad.forEach((load, rttMicros) -> {
                if (load > LOADED_ABOVE_PERCENT) {
                    addedByLoad.put(load, Math.max(0.0, (rttMicros - baselineMicros) / 1000.0));
                }
            });
            if (addedByLoad.size() < 2) {
                throw new IllegalArgumentException("size " + size + " B has no row above " + LOADED_ABOVE_PERCENT + " %");
            }
            added.put(size, addedByLoad);
        });
        final List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt(Row::messageSizeBytes).thenComparingInt(Row::portLoadPercent));
        return new MeasuredTablePortModel(List.copyOf(sorted), added);
    }

    /**
     * The thesis's Table 3.6.2-1 ("TCP Loading Latency", section 3.6.2): mean TCP round trip in µs
     * between two TAC-3 workstations whose PVC crosses an intermediate ATM port loaded by an
     * analyser to 0, 95 and 98 % (the instruments could not load it further), for 1, 2, 4 and
     * 8 KB messages. The same rows are in the project's {@code thesis-tcp-port-loading.csv}.
     *
     * @return the model of that table; added latency at 95 % and 1 KB is 1339 − 968 µs = 0.371 ms
     */
    public static MeasuredTablePortModel thesisTable3_6_2_1() {
        return of(List.of(
            // size B, load %, avg round trip µs — Table 3.6.2-1, row by row
            new Row(1024, 0, 968), new Row(1024, 95, 1339), new Row(1024, 98, 3940),
            new Row(2048, 0, 1196), new Row(2048, 95, 2562), new Row(2048, 98, 7616),
            new Row(4096, 0, 1643), new Row(4096, 95, 5161), new Row(4096, 98, 15054),
            new Row(8192, 0, 2688), new Row(8192, 95, 12341), new Row(8192, 98, 37028)));
    }

    /** @return the rows as given, sorted by size then load; unmodifiable */
    public List<Row> rows() {
        return rows;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Above 90 %: the added latency interpolated linearly in load between 90 % (0 ms) and the
     * measured loads, and linearly in size between the measured sizes. Beyond the highest measured
     * load the last segment is extended; below the smallest or above the largest size the nearest
     * size's figures are used; both are flagged {@link PortContribution#extrapolated()}.
     */
    @Override
    public PortContribution contribution(final int portUtilisationPercent, final int messageSizeBytes) {
        PortModel.requireArguments(portUtilisationPercent, messageSizeBytes);
        if (portUtilisationPercent <= LOADED_ABOVE_PERCENT) {
            return PortContribution.NONE;
        }
        final boolean extrapolated;
        final double millis;
        final Integer lowerSize = addedMillisBySizeAndLoad.floorKey(messageSizeBytes);
        final Integer upperSize = addedMillisBySizeAndLoad.ceilingKey(messageSizeBytes);
        if (lowerSize == null || upperSize == null) {
            extrapolated = true;
            final int nearest = lowerSize == null ? upperSize : lowerSize;
            final Interpolated at = atLoad(addedMillisBySizeAndLoad.get(nearest), portUtilisationPercent);
            millis = at.millis;
        } else {
            final Interpolated low = atLoad(addedMillisBySizeAndLoad.get(lowerSize), portUtilisationPercent);
            final Interpolated high = atLoad(addedMillisBySizeAndLoad.get(upperSize), portUtilisationPercent);
            extrapolated = low.extrapolated || high.extrapolated;
            millis = lowerSize.equals(upperSize) ? low.millis
                : low.millis + (high.millis - low.millis) * (messageSizeBytes - lowerSize) / (double) (upperSize - lowerSize);
        }
        return new PortContribution(millis, String.format(Locale.ROOT, "measured port table at %d %%, %d B%s",
            portUtilisationPercent, messageSizeBytes, extrapolated ? ", extrapolated beyond the table" : ""), extrapolated);
    }

    private record Interpolated(double millis, boolean extrapolated) {
    }

    private static Interpolated atLoad(final TreeMap<Integer, Double> addedByLoad, final int load) {
        final Integer below = addedByLoad.floorKey(load);
        final Integer above = addedByLoad.ceilingKey(load);
        if (above != null && below != null) {
            if (above.equals(below)) {
                return new Interpolated(addedByLoad.get(below), false);
            }
            return new Interpolated(linear(below, addedByLoad.get(below), above, addedByLoad.get(above), load), false);
        }
        // Above the highest measured load: extend the last segment.
        final Integer last = addedByLoad.lastKey();
        final Integer beforeLast = addedByLoad.lowerKey(last);
        return new Interpolated(Math.max(0.0, linear(beforeLast, addedByLoad.get(beforeLast), last, addedByLoad.get(last), load)), true);
    }

    private static double linear(final int x0, final double y0, final int x1, final double y1, final int x) {
        return y0 + (y1 - y0) * (x - x0) / (double) (x1 - x0);
    }

    /** @return {@code "measured-table"} */
    @Override
    public String kind() {
        return "measured-table";
    }

    /** @return true for another measured table with the same rows */
    @Override
    public boolean equals(final Object other) {
        return other instanceof MeasuredTablePortModel && ((MeasuredTablePortModel) other).rows.equals(rows);
    }

    /** @return the rows' hash */
    @Override
    public int hashCode() {
        return rows.hashCode();
    }

    /** @return the class name and the rows */
    @Override
    public String toString() {
        return "MeasuredTablePortModel" + rows;
    }
}
