package org.latencyserver.benchmarks.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PendingMeasurement;
import org.latencyserver.server.table.ServedEstimate;
import org.latencyserver.server.table.StaleInputs;

/**
 * A connection table as a large server publishes it, for the scrape harness: QoS 1 to 4 in turn
 * (averages and 96 % bounds), every one with an estimate, its thesis value and one load state's
 * calibration; every 10th stale (client CPU unknown), every 5th measured connection with an
 * open request. Deterministic.
 */
final class ScrapeTable {

    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);
    private static final CpuState[] CPU = {CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH};

    private ScrapeTable() {
    }

    /**
     * @param connections how many, at most {@value Short#MAX_VALUE}
     * @param nowNanos    the engine's clock; open requests were issued a second before
     * @return the table
     */
    static ConnectionTable of(final int connections, final long nowNanos) {
        final List<ConnectionRow> rows = new ArrayList<>(connections);
        for (int indexRef = 1; indexRef <= connections; indexRef++) {
            rows.add(row((short) indexRef, nowNanos));
        }
        return new ConnectionTable(rows);
    }

    private static ConnectionRow row(final short indexRef, final long nowNanos) {
        final int qos = 1 + (indexRef - 1) % 4;
        final boolean bound = qos == 2 || qos == 4;
        final ConnectionSpec spec = new ConnectionSpec(indexRef, "ws" + indexRef % 1000, (short) 1, TYPE, "ws" + (indexRef + 7) % 1000,
            (short) 2, TYPE, "port" + indexRef % 50, 256, qos, bound ? 96 : 0, "measured-loopback-jacorb", CalibrationMode.ADAPTIVE,
            0.0);
        final ConnectionLoadState load = new ConnectionLoadState(new CpuStatePair(CPU[indexRef % 3], CPU[indexRef / 3 % 3]),
            indexRef % 7 == 0 ? PortState.loaded(95) : PortState.NORMAL);
        final boolean stale = indexRef % 10 == 0;
        final MibReading reading = new MibReading((short) (stale ? -1 : 20), (short) 50, (short) 10);
        final double millis = 0.2 + indexRef % 100 * 0.01;
        final Estimate estimate = bound
            ? new Estimate(qos, EstimateKind.BOUND, millis, 96, new ConfidenceInterval(0.95, 0.97, 0.95, "wilson"), List.of(),
                "measurement", List.of(), false)
            : new Estimate(qos, EstimateKind.AVERAGE, millis, 0, new ConfidenceInterval(millis * 0.9, millis * 1.1, 0.95, "t"),
                List.of(), "measurement", List.of(), false);
        final StateKnowledge known = bound ? StateKnowledge.fresh(96).observeBound(100, 96, true, false)
            : StateKnowledge.fresh(0).observeMean(millis, millis, millis * 0.9, millis * 1.1, millis * 1.05, 100, true, false);
        ConnectionRow row = ConnectionRow.initial(spec, 0).withMib(reading, load, 0)
            .withServed(estimate, null, new ServedEstimate(estimate, null, EstimateSource.MEASUREMENT, 0, ""))
            .withLearning(new Learning(Map.of(load, known), 0, null));
        if (stale) {
            row = row.withStaleInputs(StaleInputs.of(StaleInputs.Input.CLIENT_CPU));
        }
        if (qos >= 3 && indexRef % 5 == 0) {
            row = row.withMeasurementRequest(new PendingMeasurement(indexRef, 100, nowNanos - 1_000_000_000L, nowNanos + 60_000_000_000L,
                0, 60_000, 1, "load state", load), ConnectionRow.NOT_DUE, nowNanos - 1_000_000_000L);
        }
        return row;
    }
}
