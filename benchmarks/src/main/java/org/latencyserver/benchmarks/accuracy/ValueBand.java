package org.latencyserver.benchmarks.accuracy;

import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.orb.EstimateSource;

/**
 * Which port band the data behind a served value describe, judged from outside the server: is a
 * loaded band ever served a value of another band (the idle port's, or a neighbouring band's)?
 *
 * <ul>
 *   <li>A profile's value ({@code source} "profile" or "profile fallback") says in its basis which cell it
 *       comes from: a port cell ({@code "port 96–98 %, 256 B"}) describes that band; a CPU cell alone
 *       ({@code "profile NAME, cell 0-33/0-33 256 B"}) was measured with the port idle, NORMAL — also when the
 *       thesis's queue model is added to it.</li>
 *   <li>A measured value (a measurement, remembered or the previous state's, or the band's probes, whose
 *       {@code data_epoch_millis} is their newest window's) describes the port as it was
 *       while it was measured: the port states the application itself read from the server in the
 *       {@value #WINDOW_MILLIS} ms up to {@code data_epoch_millis} (every play reads it; every connection of
 *       the demo crosses the one port). All one band: that band; several: mixed; no read then: unknown.</li>
 * </ul>
 *
 * <p>Band codes are port states as served: 0 NORMAL, 91..100 LOADED (with {@code port_states: bands}, a band's
 * upper edge), 101 SATURATED. Immutable once built; thread-safe.
 */
public final class ValueBand {

    /** How far before a measured value's data time the port states read count as its port's. */
    public static final long WINDOW_MILLIS = 3_000;

    /** The verdict on one read. */
    public enum Verdict {
        /** the value's data describe the band the estimate was served in */
        SAME,
        /** they describe another band (or the idle port) only */
        OTHER,
        /** the port was read in the served band and in another while the data were measured */
        MIXED,
        /** no basis or no port read to judge by */
        UNKNOWN
    }

    private static final Pattern PORT_CELL = Pattern.compile("port (\\d+)(?:[–-](\\d+))? %, \\d+ B");
    private static final Pattern CPU_CELL = Pattern.compile("profile .+, cell ");

    /** Port state read by the application, by time (epoch ms); the last read at one time wins. */
    private final NavigableMap<Long, Integer> portStates = new TreeMap<>();

    /**
     * @param records every record of a run, any connection: their reads make the port's timeline
     */
    public ValueBand(final List<BurstRecord> records) {
        for (final BurstRecord record : records) {
            if (record.portState() >= 0) {
                portStates.put(record.epochMillis(), record.portState());
            }
        }
    }

    /**
     * @param record a read with an estimate served in a port state
     * @return whether the value's data describe the port state the estimate was served in
     */
    public Verdict judge(final BurstRecord record) {
        final int served = servedPortState(record);
        if (!record.estimateAvailable() || served < 0) {
            return Verdict.UNKNOWN;
        }
        final EstimateSource source = EstimateSource.fromWord(record.source() == null ? "" : record.source()).orElse(null);
        if (source == EstimateSource.PROFILE || source == EstimateSource.PROFILE_FALLBACK) {
            final int[] band = profileBand(record.basis());
            if (band == null) {
                return Verdict.UNKNOWN;
            }
            return served >= band[0] && served <= band[1] ? Verdict.SAME : Verdict.OTHER;
        }
        if (record.dataEpochMillis() <= 0) {
            return Verdict.UNKNOWN;
        }
        final var window = portStates.subMap(record.dataEpochMillis() - WINDOW_MILLIS, true, record.dataEpochMillis(), true).values();
        if (window.isEmpty()) {
            return Verdict.UNKNOWN;
        }
        final boolean same = window.stream().anyMatch(state -> state == served);
        final boolean other = window.stream().anyMatch(state -> state != served);
        return same && other ? Verdict.MIXED : same ? Verdict.SAME : Verdict.OTHER;
    }

    /** The port state the server served the estimate in; the one read before it when the record has none. */
    static int servedPortState(final BurstRecord record) {
        return record.estimatePortState() == BurstRecord.UNRECORDED_STATE ? record.portState() : record.estimatePortState();
    }

    /**
     * @param basis a profile value's basis
     * @return the lowest and highest port state its cell describes ({0, 0}: a CPU cell, the idle port), or null when
     *         the basis names no cell
     */
    static int[] profileBand(final String basis) {
        if (basis == null || basis.isEmpty()) {
            return null;
        }
        final Matcher cell = PORT_CELL.matcher(basis);
        if (cell.find()) {
            final int low = Integer.parseInt(cell.group(1));
            return new int[] {low, cell.group(2) == null ? low : Integer.parseInt(cell.group(2))};
        }
        return CPU_CELL.matcher(basis).find() ? new int[] {0, 0} : null;
    }
}
