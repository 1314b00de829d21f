package org.latencyserver.benchmarks.accuracy;

import java.util.List;
import java.util.Locale;

/**
 * Which application shape a connection's next burst plays, when a run plays several.
 * {@link Mode#SEQUENTIAL}: the recording time is cut into equal parts, one per shape in the order given, and a burst
 * plays the shape of the part it starts in. {@link Mode#INTERLEAVED}: each connection's bursts take the shapes in turn
 * (burst 0 the first shape, burst 1 the second, …), so every shape meets every load state alike.
 *
 * <p>Immutable and thread-safe.
 *
 * @param mode   how the shapes share the run
 * @param shapes the shapes, at least one
 */
public record ShapePlan(Mode mode, List<ApplicationShape> shapes) {

    /** How several shapes share one run. */
    public enum Mode {
        /** One after another, the run's time divided between them. */
        SEQUENTIAL("sequential"),
        /** Each burst takes the next shape in turn. */
        INTERLEAVED("interleaved");

        private final String word;

        Mode(final String word) {
            this.word = word;
        }

        /** @return as {@code --play} takes it */
        public String word() {
            return word;
        }

        /**
         * @param word {@code sequential} or {@code interleaved}
         * @return its mode
         * @throws IllegalArgumentException naming the option and the words it takes
         */
        public static Mode of(final String word) {
            for (final Mode mode : values()) {
                if (mode.word.equals(word.trim().toLowerCase(Locale.ROOT))) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("--play must be sequential or interleaved, was \"" + word + "\"");
        }
    }

    /**
     * @throws IllegalArgumentException without shapes
     */
    public ShapePlan {
        if (mode == null || shapes == null || shapes.isEmpty()) {
            throw new IllegalArgumentException("a plan needs its mode and at least one application shape");
        }
        shapes = List.copyOf(shapes);
    }

    /**
     * @param elapsedNanos           time since recording started when the burst starts, {@code >= 0}
     * @param durationNanos          the whole recording time, {@code > 0}
     * @param connectionBurstIndex   how many bursts this connection has played before this one
     * @return the index into {@link #shapes()} of the shape this burst plays
     */
    public int shapeIndex(final long elapsedNanos, final long durationNanos, final long connectionBurstIndex) {
        if (mode == Mode.INTERLEAVED) {
            return (int) (connectionBurstIndex % shapes.size());
        }
        final long part = elapsedNanos <= 0 ? 0 : (long) ((double) elapsedNanos / durationNanos * shapes.size());
        return (int) Math.min(shapes.size() - 1, part);
    }

    /** @return e.g. {@code "sequential: probes, slow (each a half of the run)"} */
    public String label() {
        final String names = String.join(", ", shapes.stream().map(ApplicationShape::name).toList());
        if (shapes.size() == 1) {
            return names;
        }
        return mode.word() + ": " + names + (mode == Mode.SEQUENTIAL ? " (each 1/" + shapes.size() + " of the run)"
            : " (each connection's bursts take them in turn)");
    }
}
