package org.latencyserver.launch.agent;

/**
 * An immutable count of one distinct error, as {@link DistinctErrorLog#snapshot()} gives it.
 *
 * @param key              the distinct error
 * @param count            how often it occurred, at least 1
 * @param firstEpochMillis when it first occurred, epoch milliseconds
 * @param lastEpochMillis  when it last occurred, epoch milliseconds
 */
public record ErrorCount(ErrorKey key, long count, long firstEpochMillis, long lastEpochMillis) {
}
