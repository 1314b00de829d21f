package org.latencyserver.client.mirror;

import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;

/**
 * Turns what the server says into mirror records (docs/mirror-layout.md). Pure functions; each
 * returns a new record, so the writer may keep it as "the last written".
 */
final class EstimateRecords {

    private EstimateRecords() {
    }

    /**
     * @param estimate            as served or pushed
     * @param mirroredEpochMillis this host's wall clock now
     * @return the record of a served estimate
     */
    static MirrorRecord served(final Estimate estimate, final long mirroredEpochMillis) {
        return new MirrorRecord()
            .indexRef(estimate.index_ref)
            .qos(estimate.quality)
            .kind(estimate.kind == EstimateKind.BOUND ? MirrorLayout.KIND_BOUND : MirrorLayout.KIND_AVERAGE)
            .hasEstimate(true)
            .updatePending(estimate.update_pending)
            .stale(estimate.stale)
            .staleReason(estimate.stale ? MirrorLayout.STALE_REASON_INPUT_SILENT : MirrorLayout.STALE_REASON_NONE)
            .interpolated(estimate.interpolated)
            .cpuState(estimate.cpu_state)
            .portState(estimate.port_state)
            .valueMillis(estimate.value_ms)
            .intervalLower(estimate.interval.lower)
            .intervalUpper(estimate.interval.upper)
            .boundPercent(estimate.bound_percent)
            .confidenceLevel(estimate.interval.confidence_level)
            .computedEpochMillis(estimate.computed_epoch_millis)
            .mirroredEpochMillis(mirroredEpochMillis);
    }

    /**
     * @param notServed what the server said
     * @param previous  the record written before, or null
     * @return a record without an estimate, stale for "no estimate", with the connection's state
     */
    static MirrorRecord notServed(final MirrorCommand.NotServed notServed, final MirrorRecord previous) {
        final MirrorRecord record = new MirrorRecord()
            .indexRef(notServed.indexRef())
            .qos(notServed.qos() != 0 || previous == null ? notServed.qos() : previous.qos())
            .hasEstimate(false)
            .stale(true)
            .staleReason(MirrorLayout.STALE_REASON_NO_ESTIMATE)
            .cpuState(notServed.cpuState())
            .portState(notServed.portState())
            .mirroredEpochMillis(notServed.epochMillis());
        return record;
    }

    /**
     * @param last                the record as last written
     * @param mirroredEpochMillis this host's wall clock now
     * @return the same values, marked stale because the mirror lost the server
     */
    static MirrorRecord lost(final MirrorRecord last, final long mirroredEpochMillis) {
        return new MirrorRecord().copyFrom(last).stale(true).staleReason(MirrorLayout.STALE_REASON_SERVER_LOST)
            .mirroredEpochMillis(mirroredEpochMillis);
    }
}
