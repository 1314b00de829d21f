package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.idl.latency.StateCalibration;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.MeasurementPacing;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.table.ComposedBound;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTraffic;
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
            (short) row.load().port().code(), row.staleInputs().isStale(), row.staleInputs().reason(),
            spec.clientWorkstationType().name(), spec.peerWorkstationType().name(), spec.probeRatePerSecond(),
            spec.calibration().configName(), hops(row), spec.pathBound() == BoundMethod.UNION ? "union" : "independent",
            spec.traffic().isPresent(), spec.traffic().map(IdlConversions::shape).orElseGet(IdlConversions::noShape));
    }

    /** @return the shape as the IDL carries it, its call as its {@link CallKind#wireCode()} */
    static org.latencyserver.idl.latency.TrafficShape shape(final TrafficShape shape) {
        return new org.latencyserver.idl.latency.TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis(),
            (short) shape.call().wireCode());
    }

    /** @return the all-zero shape a connection without a declared shape lists (call 0 is no call) */
    static org.latencyserver.idl.latency.TrafficShape noShape() {
        return new org.latencyserver.idl.latency.TrafficShape(0, 0, 0, (short) 0);
    }

    /**
     * @param shape a shape from the IDL, possibly null
     * @return it as the domain's shape, or the refusal naming the first field outside its range
     */
    static Checked<TrafficShape> shape(final org.latencyserver.idl.latency.TrafficShape shape, final String field) {
        if (shape == null) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, field, "missing", "a traffic shape", field + " is missing"));
        }
        if (shape.spacing_micros < TrafficShape.MIN_SPACING_MICROS || shape.spacing_micros > TrafficShape.MAX_SPACING_MICROS) {
            return badShape(field + ".spacing_micros", shape.spacing_micros,
                TrafficShape.MIN_SPACING_MICROS + ".." + TrafficShape.MAX_SPACING_MICROS + " µs");
        }
        if (shape.burst_round_trips < 1 || shape.burst_round_trips > TrafficShape.MAX_BURST_ROUND_TRIPS) {
            return badShape(field + ".burst_round_trips", shape.burst_round_trips, "1.." + TrafficShape.MAX_BURST_ROUND_TRIPS);
        }
        if (shape.pause_millis < 0 || shape.pause_millis > TrafficShape.MAX_PAUSE_MILLIS) {
            return badShape(field + ".pause_millis", shape.pause_millis, "0.." + TrafficShape.MAX_PAUSE_MILLIS + " ms");
        }
        final CallKind call = CallKind.fromWireCode(shape.call).orElse(null);
        if (call == null) {
            return badShape(field + ".call", shape.call, "1 (octets) or 2 (arrays)");
        }
        return Checked.passed(new TrafficShape(shape.spacing_micros, shape.burst_round_trips, shape.pause_millis, call));
    }

    private static Checked<TrafficShape> badShape(final String field, final long value, final String limit) {
        return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, field, value, limit, field + " must be " + limit + ", was " + value));
    }

    /** @return the row's switch ports in path order with their states and latest values; none without a link */
    static PathHop[] hops(final ConnectionRow row) {
        final List<String> links = row.spec().linkNames();
        final PathHop[] hops = new PathHop[links.size()];
        final boolean known = row.load().hops().size() == links.size();
        for (int i = 0; i < hops.length; i++) {
            hops[i] = new PathHop(links.get(i), (short) (known ? row.load().hops().get(i).code() : -1),
                row.latest().ports().count() == links.size() ? row.latest().ports().at(i) : -1);
        }
        return hops;
    }

    static Estimate estimate(final ConnectionRow row, final org.latencyserver.core.estimate.Estimate estimate,
                             final long epochMillis) {
        final boolean bound = estimate.kind() == EstimateKind.BOUND;
        final ComposedBound composed = estimate == row.estimate() ? row.served().composed() : null;
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
            row.updateRequired(), row.staleInputs().isStale(), row.staleInputs().reason(), estimate.interpolated(),
            estimate.basis(), estimate.notes().toArray(new String[0]), epochMillis,
            // The served estimate carries its thesis value and correction; any other (a percentile, a size) is uncorrected.
            estimate == row.estimate() && row.served().thesis() != null ? row.served().thesis().valueMillis() : estimate.valueMillis(),
            estimate == row.estimate() ? row.served().correction() : "", row.served().source().word(), row.served().dataEpochMillis(),
            (short) row.load().cpu().code(), (short) row.load().port().code(), hops(row),
            composed == null ? "" : composed.served().word(), composed == null ? 0.0 : composed.unionMillis(),
            composed == null ? 0.0 : composed.independentMillis(), ConnectionTraffic.estimateText(row,
                org.latencyserver.server.engine.ServedLevels.priorAsServed(row).level()));
    }

    static org.latencyserver.idl.latency.ConfidenceInterval interval(final ConfidenceInterval interval, final String unit,
                                                                   final double scale) {
        return new org.latencyserver.idl.latency.ConfidenceInterval(interval.lower() * scale, interval.upper() * scale,
            interval.confidenceLevel(), unit, interval.method());
    }

    /**
     * @param row              a row with a pending measurement
     * @param peerReference    how the agent finds the peer
     * @param warmupRoundTrips warm-up round trips to ask for
     * @param pacing           the request's pacing and time bound
     * @param nowEpochMillis   the server's clock now (the one the deadline was set by): remaining_millis
     *                         is the deadline less this, so that agents never compare clocks
     * @return the request as sent or listed now
     */
    static MeasurementRequest request(final ConnectionRow row, final String peerReference, final int warmupRoundTrips,
                                      final MeasurementPacing pacing, final long nowEpochMillis) {
        final PendingMeasurement pending = row.pending();
        final ConnectionSpec spec = row.spec();
        final long minIntervalNanos = pacing.minIntervalNanos(spec.linkNames(), spec.messageSizeBytes());
        return new MeasurementRequest(spec.indexRef(), pending.ticket(), spec.clientNodeName(), spec.peerNodeName(),
            peerReference, spec.messageSizeBytes(), pending.roundTrips(), warmupRoundTrips, pending.issuedEpochMillis(),
            pending.deadlineEpochMillis(), remainingMillis(pending.deadlineEpochMillis(), nowEpochMillis),
            nullToEmpty(pending.reason()), minIntervalNanos, pacing.timeBudgetMillis(),
            Math.min(pending.roundTrips(), pacing.minRoundTrips()),
            shape(ConnectionTraffic.forMeasurement(spec, pending.roundTrips(), minIntervalNanos, pacing.timeBudgetMillis(),
                pacing.minRoundTrips())));
    }

    /** @return the time left until the deadline, ms, never negative */
    static long remainingMillis(final long deadlineEpochMillis, final long nowEpochMillis) {
        return Math.max(0L, deadlineEpochMillis - nowEpochMillis);
    }

    /** @return the request with ticket 0: what a caller who is not the request's agent sees */
    static MeasurementRequest withoutTicket(final MeasurementRequest request) {
        return new MeasurementRequest(request.index_ref, 0, request.client_node_name, request.peer_node_name,
            request.peer_reference, request.message_size_bytes, request.round_trips, request.warmup_round_trips,
            request.issued_epoch_millis, request.deadline_epoch_millis, request.remaining_millis, request.reason,
            request.min_interval_nanos, request.time_budget_millis, request.min_round_trips, request.traffic);
    }

    static ProfileSummary profileSummary(final Profile profile) {
        return new ProfileSummary(profile.name(), profile.workstationType(), profile.layer().name(), profile.cells().size(),
            profile.hasHistograms(), profile.provenance().source());
    }

    static Calibration calibration(final ConnectionRow row) {
        final double nominal = row.spec().isBound() ? row.spec().boundPercent() / 100.0 : 0.0;
        final List<StateCalibration> states = new ArrayList<>();
        CoverageTally pooledCoverage = CoverageTally.EMPTY;
        long windows = 0;
        long inside = 0;
        final List<Double> recentErrors = new ArrayList<>();
        long measurements = 0;
        long lastMeasured = 0;
        long alarms = 0;
        boolean anyBelowNominal = false;
        final List<Map.Entry<ConnectionLoadState, StateKnowledge>> entries = new ArrayList<>(row.learning().byState().entrySet());
        entries.sort(Comparator.comparing(e -> e.getKey().cpu().code() * 1000 + e.getKey().port().code()));
        for (final Map.Entry<ConnectionLoadState, StateKnowledge> entry : entries) {
            final StateKnowledge k = entry.getValue();
            final ConnectionLoadState state = entry.getKey();
            states.add(stateCalibration((short) state.cpu().code(), (short) state.port().code(),
                state.label(), k, nominal, servedLevelPercent(row, state, k)));
            anyBelowNominal |= k.coverageBelowNominal();
            pooledCoverage = pooledCoverage.plus(k.coverage());
            windows += k.meanErrors().windows();
            inside += k.meanErrors().insideInterval();
            for (final double error : k.meanErrors().relativeErrors().toArray()) {
                recentErrors.add(error);
            }
            measurements += k.measurements();
            lastMeasured = Math.max(lastMeasured, k.lastMeasuredEpochMillis());
            alarms += k.driftAlarms();
        }
        final StateKnowledge current = row.currentKnowledge();
        final ConfidenceInterval pooledInterval = pooledCoverage.interval(0.95);
        final StateCalibration pooled = new StateCalibration((short) -1, (short) -1, "all states", pooledCoverage.roundTrips(),
            zeroIfNaN(pooledCoverage.coverage()), coverageInterval(pooledInterval), nominal,
            servedLevelPercent(row, row.load(), current), windows,
            zeroIfNaN(RecentValues.median(recentErrors.stream().mapToDouble(Double::doubleValue).toArray())), windows == 0 ? 0.0 : (double) inside / windows,
            current.meanCorrection().appliedFactor(), measurements, lastMeasured, alarms, anyBelowNominal);
        return new Calibration(row.spec().indexRef(), row.spec().calibration().configName(), pooled,
            states.toArray(new StateCalibration[0]));
    }

    private static StateCalibration stateCalibration(final short cpuState, final short portState, final String label,
                                                     final StateKnowledge k, final double nominal, final double levelPercent) {
        return new StateCalibration(cpuState, portState, label, k.coverage().roundTrips(), zeroIfNaN(k.coverage().coverage()),
            coverageInterval(k.coverage().interval(0.95)), nominal, levelPercent,
            k.meanErrors().windows(), zeroIfNaN(k.meanErrors().medianRelativeError()), zeroIfNaN(k.meanErrors().insideFraction()),
            k.meanCorrection().appliedFactor(), k.measurements(), k.lastMeasuredEpochMillis(), k.driftAlarms(),
            k.coverageBelowNominal());
    }

    /**
     * @return the level a bound is read at in a state: its own level borrowing from its port pattern's, itself borrowing
     *         from the level the current state's bound was corrected with for the current state, from the connection's
     *         pooled level for another ({@code ServedLevels.priorAsServed}); 0 without
     */
    private static double servedLevelPercent(final ConnectionRow row, final ConnectionLoadState state, final StateKnowledge k) {
        return k.level() == null ? 0.0 : org.latencyserver.core.calibration.BorrowedLevel.of(k,
            org.latencyserver.server.engine.ServedLevels.priorAsServed(row, state),
            ConnectionTraffic.declaredClass(row.spec()), row.learning().classExcess()).servedPercent();
    }

    private static org.latencyserver.idl.latency.ConfidenceInterval coverageInterval(final ConfidenceInterval interval) {
        return interval == null ? new org.latencyserver.idl.latency.ConfidenceInterval(0, 0, 0.95, "ratio", "none yet (fewer than 2 blocks)")
            : interval(interval, "ratio", 1.0);
    }

    private static double zeroIfNaN(final double value) {
        return Double.isNaN(value) ? 0.0 : value;
    }

    /**
     * @throws IllegalArgumentException naming what is wrong with the bins
     */
    static HistogramBins bins(final LatencyHistogram histogram) {
        return new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount());
    }

    /**
     * Checked before anything is built from them: a histogram of millions of bins would cost the
     * server its memory and the state file its size.
     *
     * @param bins       a submitted histogram (null is left to {@link #histogram})
     * @param batchMeans its batch means, or null
     * @param limits     the configured limits
     * @return a {@link Refusal.Kind#TOO_LARGE} refusal of the histogram, else of the batch means; empty when within
     */
    static Optional<Refusal> tooLarge(final HistogramBins bins, final double[] batchMeans, final InputLimits limits) {
        final long binCount = bins == null ? 0
            : Math.max(bins.upper_edges_ns == null ? 0 : bins.upper_edges_ns.length, bins.counts == null ? 0 : bins.counts.length);
        return limits.tooMany("histogram", binCount, "bins")
            .or(() -> limits.tooMany("batch_means_ms", batchMeans == null ? 0 : batchMeans.length, "values"));
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
