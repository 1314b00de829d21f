package org.latencyserver.server.standby;

/**
 * The pair as one server sees it, read at one moment: for the metrics.
 *
 * <p>Immutable and thread-safe.
 *
 * @param primary           whether this server serves as the primary (false: standing by, taking over, or stepped down)
 * @param protectedWrites   whether a standby holds every write this primary acknowledged (a primary only)
 * @param members           members of the pair's view now (2: a pair, 1: alone; 0 without {@code server.standby})
 * @param recordsSent       records the standby acknowledged, while this server was primary
 * @param sendsFailed       sends the standby did not acknowledge
 * @param unprotectedWrites writes answered while no standby held them
 * @param recordsApplied    the primary's records applied, while this server stood by
 * @param takeovers         times this server took over as primary
 * @param role              {@code primary}, {@code standing_by}, {@code taking_over} (the name bound, the fence not yet
 *                          over) or {@code stepped_down} (looking for the other server to stand by for)
 * @param leaseRemainingMillis ms left of a serving primary's lease; 0 otherwise (and without a naming service)
 * @param leaseLapses       times this server's lease ran out while it served
 * @param stepDowns         times this server stopped serving as primary (a merge or a lapsed lease)
 * @param rejoins           times it joined the pair again as standby after a step-down, without a restart
 */
public record StandbyCounters(boolean primary, boolean protectedWrites, int members, long recordsSent, long sendsFailed,
                              long unprotectedWrites, long recordsApplied, long takeovers, String role,
                              long leaseRemainingMillis, long leaseLapses, long stepDowns, long rejoins) {

    /** The roles, in the order the metrics list them. */
    public static final java.util.List<String> ROLES = java.util.List.of("primary", "standing_by", "taking_over", "stepped_down");

    /** A server without {@code server.standby}: the only one, primary, its writes on its own disk alone. */
    public static final StandbyCounters WITHOUT_STANDBY = new StandbyCounters(true, false, 0, 0, 0, 0, 0, 0, "primary", 0, 0, 0,
        0);
}
