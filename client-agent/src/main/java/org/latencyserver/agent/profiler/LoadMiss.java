package org.latencyserver.agent.profiler;

import java.util.Objects;

/**
 * Why a load the profiler drove did not read as asked, so that the cells measured under it are not recorded: of what
 * kind, and what was read, in words for the progress log and the refused list.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind   what missed
 * @param detail what was read against what was asked, e.g. {@code "the port read 97.2 % for a target of 95 % (more than 2
 *               points off)"}
 */
record LoadMiss(Kind kind, String detail) {

    /** What missed. */
    enum Kind {
        /** A workstation's CPU utilisation outside its load state's band. */
        CPU_OUT_OF_BAND,
        /** A host's CPU not idle while port cells, which are measured with both CPUs idle, ran. */
        CPU_NOT_IDLE,
        /** The port's agent could not be read. */
        PORT_UNREAD,
        /** The port's counters did not refresh often enough in the window to read a load. */
        PORT_COUNTERS_STILL,
        /** The port read more than the round trips' own share with no load driven. */
        PORT_BUSY_UNLOADED,
        /** The port read further from the driven load than the tolerance. */
        PORT_OFF_TARGET
    }

    /** @throws NullPointerException when a part is missing */
    LoadMiss {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        return detail;
    }
}
