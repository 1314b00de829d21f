package org.latencyserver.server.logging;

/**
 * The repeated-warning filter's counts since start, read at one moment. Both only grow.
 *
 * @param poolExhausted how often JacORB's POA reported its thread pool exhausted (counted, not logged)
 * @param suppressed    warnings and errors held back as repeats
 */
public record LogWarningCounts(long poolExhausted, long suppressed) {
}
