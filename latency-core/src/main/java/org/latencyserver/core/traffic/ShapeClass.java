package org.latencyserver.core.traffic;

import java.util.Locale;

/**
 * The class of a traffic shape that calibration is kept for: its spacing and burst length each in
 * one of a few ranges, and its call. Shapes of one class are taken to see the same latencies; a
 * bound served for "any shape of the family" is the one that holds for the worst class seen.
 *
 * <p>Spacing ranges, µs: below 500, [500, 1000), [1000, 2500), [2500, 5000), [5000, 10000], above
 * 10000. Burst ranges, round trips: 1, 2–9, 10–49, 50–100, above 100.
 *
 * <p>Immutable and thread-safe; equal classes are equal records (usable as map keys).
 *
 * @param spacingRange index of the spacing range above, 0..5
 * @param burstRange   index of the burst range above, 0..4
 * @param call         the call
 */
public record ShapeClass(int spacingRange, int burstRange, CallKind call) {

    private static final long[] SPACING_UPPER_MICROS = {499, 999, 2_499, 4_999, 10_000, Long.MAX_VALUE};
    private static final String[] SPACING_WORDS = {"< 0.5 ms", "0.5–1 ms", "1–2.5 ms", "2.5–5 ms", "5–10 ms", "> 10 ms"};
    private static final int[] BURST_UPPER = {1, 9, 49, 100, Integer.MAX_VALUE};
    private static final String[] BURST_WORDS = {"1", "2–9", "10–49", "50–100", "> 100"};

    /** Number of spacing ranges. */
    public static final int SPACING_RANGES = SPACING_UPPER_MICROS.length;
    /** Number of burst ranges. */
    public static final int BURST_RANGES = BURST_UPPER.length;

    /**
     * @throws IllegalArgumentException on an index outside its ranges or a missing call
     */
    public ShapeClass {
        if (spacingRange < 0 || spacingRange >= SPACING_RANGES || burstRange < 0 || burstRange >= BURST_RANGES || call == null) {
            throw new IllegalArgumentException("no shape class " + spacingRange + "/" + burstRange + "/" + call);
        }
    }

    /**
     * @param shape a shape
     * @return its class
     */
    public static ShapeClass of(final TrafficShape shape) {
        return new ShapeClass(rangeOf(shape.spacingMicros(), SPACING_UPPER_MICROS), rangeOf(shape.burstRoundTrips(), BURST_UPPER),
            shape.call());
    }

    /** @return a small stable number for the class, {@code 1 + call index·30 + spacing·5 + burst}; never 0 */
    public int wireCode() {
        return 1 + (call.wireCode() - 1) * SPACING_RANGES * BURST_RANGES + spacingRange * BURST_RANGES + burstRange;
    }

    /** @return e.g. {@code "spacing 1–2.5 ms, bursts 10–49, octets"} */
    public String label() {
        return String.format(Locale.ROOT, "spacing %s, bursts %s, %s", SPACING_WORDS[spacingRange], BURST_WORDS[burstRange],
            call.word());
    }

    private static int rangeOf(final long value, final long[] uppers) {
        int range = 0;
        while (value > uppers[range]) {
            range++;
        }
        return range;
    }

    private static int rangeOf(final int value, final int[] uppers) {
        int range = 0;
        while (value > uppers[range]) {
            range++;
        }
        return range;
    }
}
