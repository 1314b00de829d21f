package org.latencyserver.core.traffic;

import java.util.Locale;

/**
 * How one application sends on a connection: bursts of {@code burstRoundTrips} round trips, started
 * {@code spacingMicros} apart (start to start), each round trip made with {@code call}; the next burst's first
 * round trip starts one spacing plus {@code pauseMillis} after the start of this burst's last. A steady stream is a burst of one
 * round trip with the pause as its spacing, or one long burst.
 *
 * <p>Immutable and thread-safe.
 *
 * @param spacingMicros   start-to-start spacing of a burst's round trips, µs, in
 *                        [{@value #MIN_SPACING_MICROS}, {@value #MAX_SPACING_MICROS}]
 * @param burstRoundTrips round trips per burst, in [1, {@value #MAX_BURST_ROUND_TRIPS}]
 * @param pauseMillis     added to one spacing between a burst's last start and the next burst's first, ms, in
 *                        [0, {@value #MAX_PAUSE_MILLIS}]
 * @param call            the call each round trip uses
 */
public record TrafficShape(long spacingMicros, int burstRoundTrips, long pauseMillis, CallKind call) {

    /** Shortest spacing a shape may declare, µs. */
    public static final long MIN_SPACING_MICROS = 50;
    /** Longest spacing a shape may declare, µs (one minute). */
    public static final long MAX_SPACING_MICROS = 60_000_000L;
    /** Longest burst a shape may declare, round trips. */
    public static final int MAX_BURST_ROUND_TRIPS = 10_000;
    /** Longest pause a shape may declare, ms (one hour). */
    public static final long MAX_PAUSE_MILLIS = 3_600_000L;

    /**
     * @throws IllegalArgumentException on a value outside the ranges above, naming it
     */
    public TrafficShape {
        if (spacingMicros < MIN_SPACING_MICROS || spacingMicros > MAX_SPACING_MICROS) {
            throw new IllegalArgumentException("spacing must be " + MIN_SPACING_MICROS + ".." + MAX_SPACING_MICROS + " µs, was "
                + spacingMicros);
        }
        if (burstRoundTrips < 1 || burstRoundTrips > MAX_BURST_ROUND_TRIPS) {
            throw new IllegalArgumentException("burst must be 1.." + MAX_BURST_ROUND_TRIPS + " round trips, was " + burstRoundTrips);
        }
        if (pauseMillis < 0 || pauseMillis > MAX_PAUSE_MILLIS) {
            throw new IllegalArgumentException("pause must be 0.." + MAX_PAUSE_MILLIS + " ms, was " + pauseMillis);
        }
        if (call == null) {
            throw new IllegalArgumentException("a traffic shape needs its call (octets or arrays)");
        }
    }

    /** @return how long one burst lasts from its first start to its last start, µs */
    public long burstSpanMicros() {
        return spacingMicros * (burstRoundTrips - 1L);
    }

    /** @return the long-run rate of round trips, per second (a burst plus its pause per cycle) */
    public double meanRoundTripsPerSecond() {
        final double cycleMicros = burstSpanMicros() + spacingMicros + pauseMillis * 1_000.0;
        return burstRoundTrips * 1_000_000.0 / cycleMicros;
    }

    /** @return e.g. {@code "bursts of 50 round trips 2 ms apart, 1000 ms pause, octets"} */
    public String label() {
        return String.format(Locale.ROOT, "bursts of %d round trip%s %s apart, %d ms pause, %s", burstRoundTrips,
            burstRoundTrips == 1 ? "" : "s", millisText(spacingMicros), pauseMillis, call.word());
    }

    private static String millisText(final long micros) {
        return micros % 1_000 == 0 ? (micros / 1_000) + " ms" : String.format(Locale.ROOT, "%.3f ms", micros / 1_000.0);
    }
}
