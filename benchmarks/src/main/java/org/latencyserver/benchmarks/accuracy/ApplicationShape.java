package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * One named way the harness's application sends: each burst's spacing, length and call. A fixed shape sends the same
 * burst every time; {@code mixed} alternates its calls burst by burst; {@code random} draws every burst from
 * {@link TrafficFamily#DEFAULT} with the player's seeded generator. The pause between bursts is not the shape's: the
 * player starts bursts at exponentially spaced moments ({@code --gap-mean-millis}) whatever the shape.
 *
 * <p>Immutable and thread-safe; {@link #burst} draws from the caller's generator.
 *
 * @param name  the name it is chosen by and reported under
 * @param cycle the bursts it sends in turn (one for a fixed shape); empty for a random shape
 */
public record ApplicationShape(String name, List<TrafficShape> cycle) {

    /** As the demo's client agent probes: trains of 20 round trips 2 ms apart, fm1 arrays. */
    public static final String PROBES = "probes";
    /** Fast bursts: 100 round trips 0.5 ms apart, octets. */
    public static final String FAST_BURSTY = "fast-bursty";
    /** Slow bursts: 10 round trips 10 ms apart, arrays. */
    public static final String SLOW = "slow";
    /** 50 round trips 2 ms apart, octets and arrays alternating burst by burst. */
    public static final String MIXED = "mixed";
    /** Every burst drawn from the default family of shapes. */
    public static final String RANDOM = "random";
    /** The one shape given by the older options (--spacing-micros, the burst size, --round-trip). */
    public static final String CUSTOM = "custom";

    /** The names {@link #named} knows, in the order documented. */
    public static final List<String> NAMES = List.of(PROBES, FAST_BURSTY, SLOW, MIXED, RANDOM, CUSTOM);

    /**
     * The long-run rate a random draw is asked for, round trips per second. It only sets the drawn shape's pause, which
     * the player does not use (its bursts start at exponential gaps); any positive rate draws the same spacing, burst
     * and call.
     */
    static final double RANDOM_DRAW_ROUND_TRIPS_PER_SECOND = 10;

    /** Round trips per train of the harness's {@code probes} shape: the classic probe train, 20 round trips of fm1 arrays. */
    static final int PROBE_TRAIN_ROUND_TRIPS = 20;
    /** Spacing of the client agent's probe trains in the demo ({@code --interval-micros 2000}), µs. */
    static final long PROBE_SPACING_MICROS = 2_000;

    /**
     * @throws IllegalArgumentException on a blank name
     */
    public ApplicationShape {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an application shape needs a name");
        }
        cycle = List.copyOf(cycle);
    }

    /**
     * @param name         one of {@link #NAMES}
     * @param customShape  the shape {@link #CUSTOM} stands for (from the older options)
     * @return the shape of that name
     * @throws IllegalArgumentException naming the unknown name and the known ones
     */
    public static ApplicationShape named(final String name, final TrafficShape customShape) {
        return switch (name) {
            case PROBES -> fixed(name, PROBE_SPACING_MICROS, PROBE_TRAIN_ROUND_TRIPS, CallKind.ARRAYS);
            case FAST_BURSTY -> fixed(name, 500, 100, CallKind.OCTETS);
            case SLOW -> fixed(name, 10_000, 10, CallKind.ARRAYS);
            case MIXED -> new ApplicationShape(name, List.of(new TrafficShape(2_000, 50, 0, CallKind.OCTETS),
                new TrafficShape(2_000, 50, 0, CallKind.ARRAYS)));
            case RANDOM -> new ApplicationShape(name, List.of());
            case CUSTOM -> new ApplicationShape(name, List.of(customShape));
            default -> throw new IllegalArgumentException("--applications: no application shape \"" + name + "\"; known: "
                + String.join(", ", NAMES));
        };
    }

    /**
     * @param names       names of {@link #NAMES}, each at most once
     * @param customShape the shape {@link #CUSTOM} stands for
     * @return the shapes in the order named
     * @throws IllegalArgumentException on an unknown or repeated name, or none
     */
    public static List<ApplicationShape> named(final List<String> names, final TrafficShape customShape) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("--applications: name at least one application shape; known: " + String.join(", ", NAMES));
        }
        final List<ApplicationShape> shapes = new ArrayList<>();
        for (final String name : names) {
            final String trimmed = name.trim().toLowerCase(Locale.ROOT);
            if (shapes.stream().anyMatch(shape -> shape.name().equals(trimmed))) {
                throw new IllegalArgumentException("--applications: \"" + trimmed + "\" is named twice");
            }
            shapes.add(named(trimmed, customShape));
        }
        return List.copyOf(shapes);
    }

    private static ApplicationShape fixed(final String name, final long spacingMicros, final int roundTrips, final CallKind call) {
        return new ApplicationShape(name, List.of(new TrafficShape(spacingMicros, roundTrips, 0, call)));
    }

    /** @return whether every burst is drawn at random */
    public boolean random() {
        return cycle.isEmpty();
    }

    /**
     * @param burstIndex how many bursts of this shape the connection has sent before, {@code >= 0}
     * @param random     the player's seeded generator (drawn from only by a random shape)
     * @return the next burst's shape (its pause is not used)
     */
    public TrafficShape burst(final long burstIndex, final RandomGenerator random) {
        if (cycle.isEmpty()) {
            return TrafficFamily.DEFAULT.draw(random, RANDOM_DRAW_ROUND_TRIPS_PER_SECOND);
        }
        return cycle.get((int) (burstIndex % cycle.size()));
    }

    /** @return the most round trips one burst of this shape may send */
    public int maxRoundTrips() {
        return cycle.isEmpty() ? TrafficFamily.DEFAULT.maxBurstRoundTrips()
            : cycle.stream().mapToInt(TrafficShape::burstRoundTrips).max().orElseThrow();
    }

    /** @return e.g. {@code "slow: 10 round trips 10 ms apart, arrays"} */
    public String label() {
        if (cycle.isEmpty()) {
            return name + ": each burst drawn from " + TrafficFamily.DEFAULT.label();
        }
        final List<String> bursts = cycle.stream().map(shape -> String.format(Locale.ROOT, "%d round trips %s ms apart, %s",
            shape.burstRoundTrips(), millis(shape.spacingMicros()), shape.call().word())).toList();
        return name + ": " + String.join(" / ", bursts) + (cycle.size() > 1 ? " (alternating per burst)" : "");
    }

    private static String millis(final long micros) {
        final double ms = micros / 1_000.0;
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
