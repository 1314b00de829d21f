package org.latencyserver.server.persistence;

import java.util.List;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

/** Load states, connections and estimates the persistence tests build rows from. */
final class TestRows {

    static final ConnectionLoadState LOW_LOW = new ConnectionLoadState(new CpuStatePair(CpuState.LOW, CpuState.LOW), PortState.NORMAL);
    static final ConnectionLoadState HIGH_LOW = new ConnectionLoadState(new CpuStatePair(CpuState.HIGH, CpuState.LOW), PortState.NORMAL);
    static final ConnectionLoadState UNKNOWN_LOW =
        new ConnectionLoadState(new CpuStatePair(CpuState.UNKNOWN, CpuState.LOW), PortState.NORMAL);

    private TestRows() {
    }

    /** @return connection 4, lab1 → lab2, 1024 B, at the given QoS */
    static ConnectionSpec spec(final int qos, final String profileName, final CalibrationMode calibration) {
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        return new ConnectionSpec((short) 4, "lab1", (short) 5, type, "lab2", (short) 6, type, null, 1024, qos, 0, profileName,
            calibration, 0.0);
    }

    /** @return an average of {@code valueMillis} with a ±10 % interval */
    static Estimate average(final int qos, final double valueMillis, final String basis) {
        final ConfidenceInterval interval = new ConfidenceInterval(valueMillis * 0.9, valueMillis * 1.1, 0.95, "t");
        return new Estimate(qos, EstimateKind.AVERAGE, valueMillis, 0, interval, List.of(), basis, List.of(), false);
    }
}
