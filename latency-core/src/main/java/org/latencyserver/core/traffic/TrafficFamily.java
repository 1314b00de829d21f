package org.latencyserver.core.traffic;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The family of traffic shapes a connection's estimate is to hold for when its application declares
 * none: spacing from {@code minSpacingMicros} to {@code maxSpacingMicros}, bursts of
 * {@code minBurstRoundTrips} to {@code maxBurstRoundTrips}, any of {@code calls}. Probes then send
 * trains drawn at random from the family ({@link #draw}), calibration is kept per
 * {@link ShapeClass}, and the bound served is the one that holds for the worst class seen.
 *
 * <p>Immutable and thread-safe.
 *
 * @param minSpacingMicros   shortest spacing, µs, {@code >= } {@value TrafficShape#MIN_SPACING_MICROS}
 * @param maxSpacingMicros   longest spacing, µs, {@code >= minSpacingMicros}
 * @param minBurstRoundTrips shortest burst, {@code >= 1}
 * @param maxBurstRoundTrips longest burst, {@code >= minBurstRoundTrips}
 * @param calls              the calls, at least one
 */
public record TrafficFamily(long minSpacingMicros, long maxSpacingMicros, int minBurstRoundTrips, int maxBurstRoundTrips,
                            Set<CallKind> calls) {

    /** The documented default family: spacing 0.5–10 ms, bursts of 1–100 round trips, octets or arrays. */
    public static final TrafficFamily DEFAULT = new TrafficFamily(500, 10_000, 1, 100, EnumSet.allOf(CallKind.class));

    /**
     * @throws IllegalArgumentException on an empty or reversed range, or no call
     */
    public TrafficFamily {
        if (minSpacingMicros < TrafficShape.MIN_SPACING_MICROS || maxSpacingMicros < minSpacingMicros
            || maxSpacingMicros > TrafficShape.MAX_SPACING_MICROS) {
            throw new IllegalArgumentException("spacing range " + minSpacingMicros + ".." + maxSpacingMicros + " µs is not valid");
        }
        if (minBurstRoundTrips < 1 || maxBurstRoundTrips < minBurstRoundTrips || maxBurstRoundTrips > TrafficShape.MAX_BURST_ROUND_TRIPS) {
            throw new IllegalArgumentException("burst range " + minBurstRoundTrips + ".." + maxBurstRoundTrips + " is not valid");
        }
        if (calls == null || calls.isEmpty()) {
            throw new IllegalArgumentException("a traffic family needs at least one call");
        }
        calls = Set.copyOf(calls);
    }

    /**
     * One shape at random: spacing and burst length log-uniform over their ranges (short and long are
     * drawn alike often), the call uniform; the pause chosen so that the shape's long-run rate is
     * {@code roundTripsPerSecond} (0 when a burst alone already takes longer).
     *
     * @param random              the caller's generator
     * @param roundTripsPerSecond the long-run probe budget, {@code > 0}
     * @return a shape of the family
     */
    public TrafficShape draw(final RandomGenerator random, final double roundTripsPerSecond) {
        if (!(roundTripsPerSecond > 0) || Double.isInfinite(roundTripsPerSecond)) {
            throw new IllegalArgumentException("rate must be finite and > 0, was " + roundTripsPerSecond);
        }
        final long spacing = Math.min(maxSpacingMicros, Math.round(logUniform(random, minSpacingMicros, maxSpacingMicros)));
        final int burst = (int) Math.min(maxBurstRoundTrips, Math.floor(logUniform(random, minBurstRoundTrips, maxBurstRoundTrips + 1.0)));
        final CallKind[] choices = calls.stream().sorted().toArray(CallKind[]::new);
        final CallKind call = choices[random.nextInt(choices.length)];
        final double cycleMicros = burst * 1_000_000.0 / roundTripsPerSecond;
        final double pauseMicros = cycleMicros - spacing * (double) burst;
        final long pauseMillis = Math.min(TrafficShape.MAX_PAUSE_MILLIS, Math.max(0, Math.round(pauseMicros / 1_000.0)));
        return new TrafficShape(Math.max(spacing, minSpacingMicros), Math.max(burst, minBurstRoundTrips), pauseMillis, call);
    }

    /**
     * @param shape a shape
     * @return whether its spacing, burst and call are all within the family (its pause is free)
     */
    public boolean contains(final TrafficShape shape) {
        return shape.spacingMicros() >= minSpacingMicros && shape.spacingMicros() <= maxSpacingMicros
            && shape.burstRoundTrips() >= minBurstRoundTrips && shape.burstRoundTrips() <= maxBurstRoundTrips
            && calls.contains(shape.call());
    }

    /** @return e.g. {@code "any traffic: spacing 0.5–10 ms, bursts 1–100, octets or arrays"} */
    public String label() {
        final String callWords = calls.size() == CallKind.values().length ? "octets or arrays"
            : calls.iterator().next().word();
        return String.format(Locale.ROOT, "any traffic: spacing %s–%s ms, bursts %d–%d, %s", millis(minSpacingMicros),
            millis(maxSpacingMicros), minBurstRoundTrips, maxBurstRoundTrips, callWords);
    }

    private static String millis(final long micros) {
        final double ms = micros / 1_000.0;
        return ms == Math.rint(ms) ? Long.toString((long) ms) : String.format(Locale.ROOT, "%s", ms);
    }

    private static double logUniform(final RandomGenerator random, final double low, final double high) {
        if (high <= low) {
            return low;
        }
        return Math.exp(Math.log(low) + random.nextDouble() * (Math.log(high) - Math.log(low)));
    }
}
