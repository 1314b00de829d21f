package org.latencyserver.server.engine;

/**
 * The update engine's and its loop's counters since start, read at one moment: an immutable
 * snapshot for metrics and tests. Each counter only grows.
 *
 * @param commandErrors       update commands that threw (the table kept its last good state)
 * @param probeRoundTrips     probe round trips accepted and tested against the served estimates
 * @param polledJitterKept    polled readings not published as tick-counter noise
 * @param resultsTakenBack    measurement results taken back from a load state that changed within the settle window
 * @param resultsPooledInBand measurement results pooled with their port state's probes because the CPU states moved
 *                            while they ran
 * @param shapeTrainsTakenBack trains (probe windows, results) whose teaching of the shape models was taken back because
 *                            the ports moved between idle and loaded within the settle window after them
 */
public record EngineCounters(long commandErrors, long probeRoundTrips, long polledJitterKept, long resultsTakenBack,
                             long resultsPooledInBand, long shapeTrainsTakenBack) {
}
