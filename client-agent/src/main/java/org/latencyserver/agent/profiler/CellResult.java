package org.latencyserver.agent.profiler;

/**
 * One measured profile cell as the partial-progress file keeps it (so an interrupted run resumes
 * where it stopped): the CPU state pair (canonical, e.g. "LOW/HIGH"), the size, the statistics,
 * the histogram bins (ns) and the utilisation each side achieved.
 *
 * @param pair                 canonical CPU state pair, client state first
 * @param messageSizeBytes     message size
 * @param sampleCount          round trips recorded
 * @param meanMillis           exact mean, ms
 * @param stdDevMillis         sample standard deviation, ms
 * @param maxMillis            longest, ms
 * @param upperEdgesNanos      histogram bin upper edges, ns
 * @param counts               histogram counts
 * @param clientPercent        the client core's achieved utilisation while the pair was measured
 * @param peerPercent          the peer core's
 * @param gcPauseOverlapNanos  the profiler JVM's own GC time during the run
 */
record CellResult(String pair, int messageSizeBytes, long sampleCount, double meanMillis, double stdDevMillis,
                  double maxMillis, long[] upperEdgesNanos, long[] counts, double clientPercent, double peerPercent,
                  long gcPauseOverlapNanos) {
}
