package org.latencyserver.server.snmp;

/**
 * Whether an SNMP source (a workstation's or a switch port's agent) is answering: it becomes
 * UNKNOWN after {@code unknownAfterMissedPolls} misses in a row and known again at its next good
 * answer. Each change is reported once, so the caller logs the reason once, not at every poll.
 *
 * <p>Not thread-safe: one poller thread (or a lock) at a time; {@link #unknown()} may be read
 * from any thread.
 */
public final class SourceHealth {

    /** What a poll result changed. */
    public enum Change {
        /** nothing to report */
        NONE,
        /** the source just became UNKNOWN */
        BECAME_UNKNOWN,
        /** the source answered again after being UNKNOWN */
        RECOVERED
    }

    private final int unknownAfterMissedPolls;
    private int missesInARow;
    /** Written by the poller only; volatile so the metrics endpoint reads it from its own thread. */
    private volatile boolean unknown;
    private String lastMissReason = "no answer yet";

    /**
     * @param unknownAfterMissedPolls misses in a row that make the source UNKNOWN, ≥ 1
     */
    public SourceHealth(final int unknownAfterMissedPolls) {
        if (unknownAfterMissedPolls < 1) {
            throw new IllegalArgumentException("unknown_after_missed_polls must be >= 1, was " + unknownAfterMissedPolls);
        }
        this.unknownAfterMissedPolls = unknownAfterMissedPolls;
    }

    /**
     * @param reason why the poll gave no usable value (timeout, noSuchInstance, wrong type…)
     * @return {@link Change#BECAME_UNKNOWN} exactly at the miss that crosses the limit
     */
    public Change miss(final String reason) {
        lastMissReason = reason;
        missesInARow++;
        if (!unknown && missesInARow >= unknownAfterMissedPolls) {
            unknown = true;
            return Change.BECAME_UNKNOWN;
        }
        return Change.NONE;
    }

    /** @return {@link Change#RECOVERED} when the source was UNKNOWN */
    public Change good() {
        missesInARow = 0;
        if (unknown) {
            unknown = false;
            return Change.RECOVERED;
        }
        return Change.NONE;
    }

    /** @return whether the source is UNKNOWN now */
    public boolean unknown() {
        return unknown;
    }

    /** @return the reason of the latest miss */
    public String lastMissReason() {
        return lastMissReason;
    }

    /** @return misses since the last good answer */
    public int missesInARow() {
        return missesInARow;
    }
}
