package org.latencyserver.server.engine;

import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The connection-wide level a served bound borrowed from, for those who show or explain what was served (the
 * extended interface's level and traffic text): the connection's pooled level, or on a loaded path of several
 * ports the level of the states with the same hops loaded, as the serving policy chose it, and that level shrunk
 * towards a state's port pattern's level ({@link #priorAsServed}), which the state's own level borrows from; for a
 * state other than the current one, the connection's pooled level shrunk towards the state's pattern's. Stateless.
 */
public final class ServedLevels {

    private ServedLevels() {
    }

    /**
     * @param row a connection, in its current state
     * @return the pooled level its served bound was corrected with; null when it has none
     */
    public static AdaptiveQuantileLevel pooledAsServed(final ConnectionRow row) {
        final AdaptiveQuantileLevel pooled = row.learning().pooledLevel(row.spec().boundPercent());
        if (row.served() == null || row.served().source() == null) {
            return pooled;
        }
        return ServingPolicy.correctingPooled(row, ServedCalibration.fromProfile(row.served().source()), pooled);
    }

    /**
     * @param row a connection, in its current state
     * @return what its current state's level borrowed from: {@link #pooledAsServed} shrunk towards the state's port
     *         pattern's level ({@code BorrowedLevel.Prior})
     */
    public static BorrowedLevel.Prior priorAsServed(final ConnectionRow row) {
        return priorAsServed(row, row.load());
    }

    /**
     * @param row   a connection, in its current state
     * @param state one of its load states
     * @return for the current state, {@link #priorAsServed(ConnectionRow)}; for another, the connection's pooled level
     *         shrunk towards that state's port pattern's level (the current state's base — a loaded path's same-hops
     *         pool, a profile bound's ratio-less level — speaks for the current state only)
     */
    public static BorrowedLevel.Prior priorAsServed(final ConnectionRow row, final ConnectionLoadState state) {
        final AdaptiveQuantileLevel base = state.equals(row.load()) ? pooledAsServed(row)
            : row.learning().pooledLevel(row.spec().boundPercent());
        return BorrowedLevel.Prior.of(base, row.learning().patternLevel(state));
    }
}
