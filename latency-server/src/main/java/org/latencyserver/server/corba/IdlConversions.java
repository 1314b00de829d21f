package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.PendingMeasurement;

/**
 * Domain values to IDL structs and back, in the units and encodings {@code Latserv.idl} and
 * {@code LatencyService.idl} document. Stateless and thread-safe.
 */
final class IdlConversions {

    private IdlConversions() {
    }

    static IdlStatusToClient status(final ConnectionRow row) {
        return new IdlStatusToClient(row.spec().indexRef(), (short) row.spec().qos(), flag(row.acknowledged()),
            row.latencyEstimateMillis(), row.upperBoundEstimate(), row.lowerBoundEstimate(), flag(row.updateRequired()));
    }

    static IdlStatusToClient unknownStatus(final short clientRef) {
        return new IdlStatusToClient(clientRef, (short) 0, (short) 0, 0f, 0f, 0f, (short) 0);
    }

    static TableRow tableRow(final ConnectionRow row) {
        final ConnectionSpec spec = row.spec();
        final boolean measured = row.measurement() != null;
        final float average = measured ? (float) row.measurement().meanMillis() : 0f;
        float bound = 0f;
        if (measured && spec.isBound()) {
            try {
                bound = (float) row.measurement().histogram().boundAt(spec.boundPercent()).boundMillis();
            } catch (IllegalStateException beyond) {
                bound = 0f;
            }
        }
        return new TableRow(spec.indexRef(), spec.clientWorkstationCode(), spec.peerWorkstationCode(), (short) spec.qos(),
            (short) spec.messageSizeBytes(), spec.clientNodeId(), spec.peerNodeId(), flag(row.acknowledged()),
            row.latencyEstimateMillis(), row.upperBoundEstimate(), row.lowerBoundEstimate(), flag(row.updateRequired()),
            average, bound, flag(measured),
            row.latest().clientCpuPercent(), row.latest().peerCpuPercent(), row.latest().portPercent(),
            row.previous().clientCpuPercent(), row.previous().peerCpuPercent(), row.previous().portPercent(),
            (short) row.load().cpu().code(), (short) row.load().port().code());
    }

    static TableRow unknownTableRow(final short clientRef) {
        final short none = -1;
        return new TableRow(clientRef, (short) 0, (short) 0, (short) 0, (short) 0, (short) 0, (short) 0, (short) 0,
            0f, 0f, 0f, (short) 0, 0f, 0f, (short) 0, none, none, none, none, none, none, (short) 0, (short) -1);
    }

    static ConnectionInfo connectionInfo(final ConnectionRow row) {
        final ConnectionSpec spec = row.spec();
        return new ConnectionInfo(spec.indexRef(), spec.clientNodeName(), spec.peerNodeName(), spec.clientWorkstationCode(),
            spec.peerWorkstationCode(), spec.messageSizeBytes(), (short) spec.qos(), spec.boundPercent(),
            spec.profileName() == null ? "" : spec.profileName(), (short) row.load().cpu().code(),
            (short) row.load().port().code(), row.staleReason() != null, nullToEmpty(row.staleReason()),
            spec.clientWorkstationType().name(), spec.peerWorkstationType().name());
    }

    static Estimate estimate(final ConnectionRow row, final org.latencyserver.core.estimate.Estimate estimate,
                             final long epochMillis) {
        final boolean bound = estimate.kind() == EstimateKind.BOUND;
        final org.latencyserver.idl.latency.ConfidenceInterval[] alternatives =
            new org.latencyserver.idl.latency.ConfidenceInterval[estimate.alternatives().size()];
        for (int i = 0; i < alternatives.length; i++) {
            final ConfidenceInterval alternative = estimate.alternatives().get(i);
            final boolean inMillis = alternative.method().contains("in ms") || !bound;
            alternatives[i] = interval(alternative, inMillis ? "ms" : "percent", inMillis ? 1.0 : 100.0);
        }
        return new Estimate(row.spec().indexRef(), (short) estimate.qos(),
            bound ? org.latencyserver.idl.latency.EstimateKind.BOUND : org.latencyserver.idl.latency.EstimateKind.AVERAGE,
            estimate.valueMillis(), estimate.boundPercent(),
            interval(estimate.interval(), bound ? "percent" : "ms", bound ? 100.0 : 1.0), alternatives,
            row.updateRequired(), row.staleReason() != null, nullToEmpty(row.staleReason()), estimate.interpolated(),
            estimate.basis(), estimate.notes().toArray(new String[0]), epochMillis);
    }

    static org.latencyserver.idl.latency.ConfidenceInterval interval(final ConfidenceInterval interval, final String unit,
                                                                   final double scale) {
        return new org.latencyserver.idl.latency.ConfidenceInterval(interval.lower() * scale, interval.upper() * scale,
            interval.confidenceLevel(), unit, interval.method());
    }

    static MeasurementRequest request(final ConnectionRow row, final String peerReference, final int warmupRoundTrips) {
        final PendingMeasurement pending = row.pending();
        final ConnectionSpec spec = row.spec();
        return new MeasurementRequest(spec.indexRef(), pending.ticket(), spec.clientNodeName(), spec.peerNodeName(),
            peerReference, spec.messageSizeBytes(), pending.roundTrips(), warmupRoundTrips, pending.issuedEpochMillis(),
            pending.deadlineEpochMillis());
    }

    static ProfileSummary profileSummary(final Profile profile) {
        return new ProfileSummary(profile.name(), profile.workstationType(), profile.layer().name(), profile.cells().size(),
            profile.hasHistograms(), profile.provenance().source());
    }

    static Calibration calibration(final ConnectionRow row) {
        final org.latencyserver.server.table.Calibration c = row.calibration();
        return new Calibration(row.spec().indexRef(), c.measurementsChecked(), c.boundHeld(), c.boundHeldFraction(),
            c.meanAbsErrorMillis(), c.meanSignedErrorMillis(), c.lastErrorMillis());
    }

    /**
     * @throws IllegalArgumentException naming what is wrong with the bins
     */
    static HistogramBins bins(final LatencyHistogram histogram) {
        return new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount());
    }

    static LatencyHistogram histogram(final HistogramBins bins) {
        if (bins.upper_edges_ns == null || bins.counts == null) {
            throw new IllegalArgumentException("histogram has no edges or counts");
        }
        return LatencyHistogram.of(bins.upper_edges_ns, bins.counts, bins.overflow);
    }

    /** @return the values as a list; none for a sequence an older agent did not send (null) */
    static List<Double> doubles(final double[] values) {
        final List<Double> list = new ArrayList<>(values == null ? 0 : values.length);
        if (values != null) {
            for (final double value : values) {
                list.add(value);
            }
        }
        return list;
    }


    private static short flag(final boolean value) {
        return value ? (short) 1 : (short) 0;
    }

    private static String nullToEmpty(final String value) {
        return value == null ? "" : value;
    }
}
