package org.latencyserver.agent.probe;

/**
 * What a prober has done since it started, for tests and the log. Each field is exact; a snapshot
 * taken while the prober runs may mix counts of consecutive moments.
 *
 * <p>Immutable and thread-safe.
 *
 * @param sentRoundTrips          probe round trips completed (and recorded)
 * @param unrecordedRoundTrips    round trips run but not recorded: a path's warm-up, the first of each train
 * @param lateSends               of those, sent more than {@link PathProber#LATE_AFTER_NANOS} ns after
 *                                their scheduled time (an earlier reply was slow)
 * @param skippedWhileMeasuring   sends skipped because this agent was measuring (not made up later)
 * @param skippedWhilePeerDown    sends skipped while their peer was backed off after a failure
 * @param failedRoundTrips        round trips that failed (peer unreachable or answering wrongly)
 * @param reportsSubmitted        reports the server accepted
 * @param reportedRoundTrips      round trips in those reports
 * @param droppedRoundTrips       round trips in windows that were refused or could not be sent
 */
public record ProbeTotals(long sentRoundTrips, long unrecordedRoundTrips, long lateSends, long skippedWhileMeasuring, long skippedWhilePeerDown,
                          long failedRoundTrips, long reportsSubmitted, long reportedRoundTrips, long droppedRoundTrips) {
}
