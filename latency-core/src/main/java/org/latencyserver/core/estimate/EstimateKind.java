package org.latencyserver.core.estimate;

/** What an estimate's value is: a mean (QoS 1, 3) or a bound at a percentage (QoS 2, 4). Immutable and thread-safe. */
public enum EstimateKind {
    /** A mean round trip; its interval is in ms around the mean. */
    AVERAGE,
    /** A latency bound; its interval is the share (0..1) of latencies at or below the bound. */
    BOUND
}
