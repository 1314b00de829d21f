package org.latencyserver.benchmarks.accuracy;

import java.util.List;
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

    /** @return these options as the player's command line takes them */
    public List<String> asArguments() {
        final List<String> arguments = new java.util.ArrayList<>(List.of("--gap-mean-millis", Double.toString(gapMeanMillis),
            "--spacing-micros", Long.toString(spacingMicros), "--warmup-seconds", Long.toString(warmupSeconds), "--round-trip",
            roundTrip, "--seed", Long.toString(seed)));
        if (!playConnections.isEmpty()) {
            arguments.addAll(List.of("--play-connections",
                playConnections.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
        }
        return List.copyOf(arguments);
    }
}
