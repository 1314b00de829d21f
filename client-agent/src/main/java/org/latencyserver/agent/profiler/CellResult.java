package org.latencyserver.agent.profiler;

/**
 * One measured profile cell as the partial-progress file keeps it (so an interrupted run resumes
 * where it stopped): the CPU state pair (canonical, e.g. "LOW/HIGH"), the size, the statistics,
 * the histogram bins (ns), the utilisation each side achieved, and, against a peer agent on another
 * host, which one and the state its CPU was asserted in.
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
 * @param peerPercent          the peer core's; NaN against a remote peer (not read from here)
 * @param gcPauseOverlapNanos  the profiler JVM's own GC time during the run
 * @param peerReference        the remote peer agent as given to {@code --peer}; null when the profiler started its own
 * @param peerHost             where that reference pointed ({@code HOST:PORT}); null likewise
 * @param peerStateAsserted    the peer host's CPU state the planner asserted ({@code --peer-state}); null likewise
 */
record CellResult(String pair, int messageSizeBytes, long sampleCount, double meanMillis, double stdDevMillis,
                  double maxMillis, long[] upperEdgesNanos, long[] counts, double clientPercent, double peerPercent,
                  long gcPauseOverlapNanos, String peerReference, String peerHost, String peerStateAsserted) {
}
