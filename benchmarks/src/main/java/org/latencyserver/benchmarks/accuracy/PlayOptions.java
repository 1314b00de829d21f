package org.latencyserver.benchmarks.accuracy;

import java.util.List;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import picocli.CommandLine.Option;

/**
 * How the application plays, shared by the harness (which passes them on) and the player: one
 * declaration of each option, its default and its meaning.
 *
 * <p>Not thread-safe: filled by picocli once, then read.
 */
public final class PlayOptions {

    @Option(names = "--gap-mean-millis", description = "Mean exponential gap between one connection's bursts (default: ${DEFAULT-VALUE}).")
    double gapMeanMillis = 1_000;

    @Option(names = "--spacing-micros", description = "Start-to-start spacing of a burst's round trips (default: ${DEFAULT-VALUE}).")
    long spacingMicros = 1_000;

    @Option(names = "--warmup-seconds", description = "The application's unrecorded round trips first, paced as in a burst, so its"
        + " fresh JVM is warm (default: ${DEFAULT-VALUE}).")
    long warmupSeconds = 15;

    @Option(names = "--round-trip", description = "echo: EchoPeer.echo with an octet sequence (an application's message); agent: as"
        + " the client agent sends them (fm1 arrays for the thesis sizes). Default: ${DEFAULT-VALUE}.")
    String roundTrip = "echo";

    @Option(names = "--seed", description = "Seed of the application's gaps (default: ${DEFAULT-VALUE}).")
    long seed = 1997;

    @Option(names = "--play-connections", split = ",", paramLabel = "INDEX_REF", description = "Play only these connections"
        + " (index_ref, comma-separated); the others are not read. Default: every connection.")
    List<Integer> playConnections = new java.util.ArrayList<>();

    @Option(names = "--applications", split = ",", paramLabel = "SHAPE", description = "Application shapes played in this one run,"
        + " comma-separated: probes (20 round trips 2 ms apart, fm1 arrays, as the client agent probes), fast-bursty (100, 0.5 ms,"
        + " octets), slow (10, 10 ms, arrays), mixed (50, 2 ms, octets and arrays alternating per burst), random (each burst drawn"
        + " from the default traffic family, seeded by --seed), custom (--spacing-micros, the burst size, --round-trip)."
        + " Default: custom.")
    List<String> applications = new java.util.ArrayList<>();

    @Option(names = "--play", paramLabel = "MODE", description = "How several --applications share the run: sequential (one after"
        + " another, the run's time divided between them) or interleaved (each connection's bursts take the shapes in turn)."
        + " Default: ${DEFAULT-VALUE}.")
    String playMode = "interleaved";

    @Option(names = "--ask-for-shape", description = "Each burst's estimate is asked for that burst's own shape"
        + " (LatencyService.estimate_for_traffic with its spacing, length, pause and call) instead of current_estimate.")
    boolean askForShape;

    /**
     * The shapes to play and how they share the run.
     *
     * @param burstRoundTrips the burst size of the {@code custom} shape
     * @return the plan
     * @throws IllegalArgumentException on an unknown shape or mode, or a custom shape out of range, naming the option
     */
    public ShapePlan plan(final int burstRoundTrips) {
        final CallKind customCall = switch (roundTrip) {
            case "agent" -> CallKind.ARRAYS;
            case "echo" -> CallKind.OCTETS;
            default -> throw new IllegalArgumentException("--round-trip must be echo or agent, was \"" + roundTrip + "\"");
        };
        final TrafficShape custom;
        try {
            custom = new TrafficShape(spacingMicros, burstRoundTrips, 0, customCall);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--spacing-micros / burst size: " + e.getMessage(), e);
        }
        final List<String> names = applications.isEmpty() ? List.of(ApplicationShape.CUSTOM) : applications;
        return new ShapePlan(ShapePlan.Mode.of(playMode), ApplicationShape.named(names, custom));
    }

    /**
     * @param indexRef a connection
     * @return whether it is played: every one unless {@code --play-connections} names some
     */
    public boolean plays(final int indexRef) {
        return playConnections.isEmpty() || playConnections.contains(indexRef);
    }

    /** @return mean gap between one connection's bursts, ms */
    public double gapMeanMillis() {
        return gapMeanMillis;
    }

    /** @return start-to-start spacing of a burst's round trips, µs */
    public long spacingMicros() {
        return spacingMicros;
    }

    /** @return the application's unrecorded warm-up, s */
    public long warmupSeconds() {
        return warmupSeconds;
    }

    /** @return whether each burst's estimate is asked for its own shape ({@code estimate_for_traffic}) */
    public boolean askForShape() {
        return askForShape;
    }

    /** @return these options as the player's command line takes them */
    public List<String> asArguments() {
        final List<String> arguments = new java.util.ArrayList<>(List.of("--gap-mean-millis", Double.toString(gapMeanMillis),
            "--spacing-micros", Long.toString(spacingMicros), "--warmup-seconds", Long.toString(warmupSeconds), "--round-trip",
            roundTrip, "--seed", Long.toString(seed), "--play", playMode));
        if (!applications.isEmpty()) {
            arguments.addAll(List.of("--applications", String.join(",", applications)));
        }
        if (askForShape) {
            arguments.add("--ask-for-shape");
        }
        if (!playConnections.isEmpty()) {
            arguments.addAll(List.of("--play-connections",
                playConnections.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
        }
        return List.copyOf(arguments);
    }
}
