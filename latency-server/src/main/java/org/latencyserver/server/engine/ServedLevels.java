package org.latencyserver.server.engine;

import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The connection-wide level a served bound borrowed from, for those who show or explain what was served (the
 * extended interface's level and traffic text): the connection's pooled level, or on a loaded path of several
 * ports the level of the states with the same hops loaded, as the serving policy chose it. Stateless.
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
}
