package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTraffic;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.ServedEstimate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Result intake: a measured result is accepted only with its request's open ticket before its deadline, and only when
 * plausible; it is filed under the load state it ran in — or, when only the CPUs moved on a loaded port while it ran,
 * under none: its round trips join the port state's probes. A result whose state changes by a polled reading within
 * the settle window after it arrived is taken back from the state (SNMP counters lag the load). The thesis's
 * {@code UpdateResponse} (numbers, no round trips) is served as reported.
 *
 * <p>Not thread-safe: owned by the update thread; the counters are volatile for the metrics endpoint.
 */
final class ResultIntake {

    private static final Logger LOG = LoggerFactory.getLogger(ResultIntake.class);

    private final ResultFiling filing;
    /**
     * A result filed under a load state, still within the settle window.
     *
     * @param before        the row before the result was filed
     * @param acceptedNanos when it was accepted, monotonic
     * @param ticket        its ticket, for the log
     */
    private record JustFiled(ConnectionRow before, long acceptedNanos, long ticket) {
    }

    private final EngineSettings settings;
    /** The last accepted measurement of each connection, while the settle window after it runs (update thread only). */
    private final Map<Short, JustFiled> justFiled = new HashMap<>();
    /** Results taken back from a load state that changed within the settle window after them; update thread writes. */
    private volatile long resultsTakenBack;
    /** Results pooled with their port state's probes because the CPU states moved while they ran; update thread writes. */
    private volatile long resultsPooledInBand;

    ResultIntake(final ResultFiling filing, final EngineSettings settings) {
        this.filing = filing;
        this.settings = settings;
    }

    /** @see UpdateEngine#submitMeasurement */
    SubmitOutcome submitMeasurement(final short indexRef, final long ticket, final Measurement measurement, final String agent,
                                    final long nowNanos) {
        final ConnectionRow row = filing.table().row(indexRef);
        if (row == null) {
            return new SubmitOutcome(Refusal.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        final String refusal = checkTicket(row, ticket, nowNanos);
        if (refusal != null) {
            return SubmitOutcome.refused(refusal);
        }
        final Optional<Refusal> implausible =
            filing.plausibility().measurement(row, measurement, filing.serving().profileOf(row));
        if (implausible.isPresent()) {
            return new SubmitOutcome(implausible.get()); // the request stays open for a plausible result
        }
        final ConnectionLoadState issuedIn = row.pending().issuedIn();
        if (issuedIn != null && !issuedIn.equals(row.load())) {
            return poolInBand(row, ticket, measurement, issuedIn, nowNanos);
        }
        final String basis = String.format(Locale.ROOT, "measurement ticket %d by %s, %s", ticket, agent,
            row.load().cpu().thesisLabel());
        final long nowMillis = filing.epochMillis().getAsLong();
        // The measurement's round trips also test the estimate served while they were sent.
        final Learning tested = ServedCalibration.tested(row, measurement.histogram(), measurement.sampleCount(),
            measurement.meanMillis(), false, measuredShape(row));
        filing.settling().taught(indexRef, row.learning(), tested, nowNanos);
        final Learning learning = tested.with(row.load(),
            tested.of(row.load(), row.spec().boundPercent()).withMeasurement(measurement, nowMillis)).withMeasurementReason(null);
        filing.publisher().publish(row,
            filing.serving().measured(row.withMeasurement(measurement, learning), measurement, basis, nowMillis));
        if (settings.settleNanos() > 0) {
            justFiled.put(indexRef, new JustFiled(row, nowNanos, ticket));
        }
        if (row.load().port().isLoaded()) {
            // On a loaded port its round trips also describe the path's port state, for its other connections.
            filing.bandProbes().add(row.spec(), row.load().hops(),
                new BandProbes.Window(measurement.histogram(), measurement.meanMillis(), nowNanos, nowMillis));
            filing.bandListener().bandProbesChanged(row);
        }
        return SubmitOutcome.ACCEPTED;
    }

    /** @return the shape the row's open measurement was asked to reproduce (as its request carries it) */
    private TrafficShape measuredShape(final ConnectionRow row) {
        return ConnectionTraffic.forMeasurement(row.spec(), row.pending().roundTrips(),
            settings.pacing().minIntervalNanos(row.spec().linkNames(), row.spec().messageSizeBytes()),
            settings.pacing().timeBudgetMillis(), settings.pacing().minRoundTrips());
    }

    /**
     * A result whose request stayed open while only the CPUs moved on a loaded port: its load state did not hold
     * throughout, its port state did. It is filed under no load state; its round trips join the port state's probes,
     * which the connection then serves. Counted and logged.
     */
    private SubmitOutcome poolInBand(final ConnectionRow row, final long ticket, final Measurement measurement,
                                     final ConnectionLoadState issuedIn, final long nowNanos) {
        final Learning tested = ServedCalibration.tested(row, measurement.histogram(), measurement.sampleCount(),
            measurement.meanMillis(), false, measuredShape(row));
        filing.settling().taught(row.spec().indexRef(), row.learning(), tested, nowNanos);
        final ConnectionRow answered = row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos())
            .withLearning(tested.withMeasurementReason(null));
        filing.bandProbes().add(row.spec(), row.load().hops(),
            new BandProbes.Window(measurement.histogram(), measurement.meanMillis(), nowNanos, filing.epochMillis().getAsLong()));
        resultsPooledInBand++;
        LOG.info("connection {}: measurement ticket {} ran from {} into {}: filed under neither state, its {} round trips"
                + " join the probes of port {}", row.spec().indexRef(), ticket, ServingPolicy.label(issuedIn),
            ServingPolicy.label(row.load()), measurement.sampleCount(), row.load().port());
        final ConnectionRow probed = filing.serving().fromBandProbes(answered);
        filing.publisher().publish(row, probed != null ? probed : answered);
        filing.bandListener().bandProbesChanged(row);
        return SubmitOutcome.ACCEPTED;
    }

    /** @see UpdateEngine#submitThesisResponse */
    SubmitOutcome submitThesisResponse(final short indexRef, final float latencyAvgMillis, final float latencyBoundMillis,
                                       final float upper, final float lower, final short dataProvided, final long nowNanos) {
        final ConnectionRow row = filing.table().row(indexRef);
        if (row == null) {
            return new SubmitOutcome(Refusal.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        if (row.pending() == null) {
            return SubmitOutcome.refused("no measurement is pending for connection " + indexRef
                + (row.spec().isMeasured() ? "" : " (it is QoS " + row.spec().qos() + ", never measured)"));
        }
        if (nowNanos - row.pending().deadlineNanos() > 0) {
            return SubmitOutcome.refused("the request for connection " + indexRef + " expired; it will be re-issued");
        }
        if (dataProvided != 1) {
            return SubmitOutcome.refused("latency_data_provided is " + dataProvided + ", not 1");
        }
        final boolean bound = row.spec().asQos() == Qos.MEASURED_BOUND;
        final float value = bound ? latencyBoundMillis : latencyAvgMillis;
        final double scale = bound ? 100.0 : 1.0;
        if (!(value > 0) || Float.isInfinite(value) || !(lower <= upper) || !Float.isFinite(lower) || !Float.isFinite(upper)
            || (bound && (lower < 0 || upper > 100))) {
            return SubmitOutcome.implausible(String.format(Locale.ROOT,
                "implausible result for QoS %d: value %s ms, interval [%s, %s]", row.spec().qos(), value, lower, upper));
        }
        final Optional<Refusal> implausible =
            filing.plausibility().thesisResponse(row, value, upper, filing.serving().profileOf(row));
        if (implausible.isPresent()) {
            return new SubmitOutcome(implausible.get());
        }
        final ConfidenceInterval interval = new ConfidenceInterval(lower / scale, upper / scale, Estimate.CONFIDENCE_LEVEL,
            "reported by the client agent (thesis UpdateResponse)");
        final Estimate estimate = new Estimate(row.spec().qos(), bound ? EstimateKind.BOUND : EstimateKind.AVERAGE, value,
            bound ? row.spec().boundPercent() : 0.0, interval, List.of(), "thesis UpdateResponse", List.of(), false);
        // The thesis's agents report numbers, not round trips: served as reported, never corrected.
        filing.publisher().publish(row, row.withMeasurement(row.measurement(), row.learning().withMeasurementReason(null))
            .withServed(estimate, null,
                new ServedEstimate(estimate, null, EstimateSource.MEASUREMENT, filing.epochMillis().getAsLong(), "")));
        return SubmitOutcome.ACCEPTED;
    }

    private static String checkTicket(final ConnectionRow row, final long ticket, final long nowNanos) {
        final short indexRef = row.spec().indexRef();
        if (row.pending() == null) {
            return "no measurement is pending for connection " + indexRef + " (ticket " + ticket + " is not open)";
        }
        if (row.pending().ticket() != ticket) {
            return "ticket " + ticket + " is not the open ticket of connection " + indexRef
                + " (forged, or superseded by a newer request)";
        }
        if (nowNanos - row.pending().deadlineNanos() > 0) {
            return "ticket " + ticket + " of connection " + indexRef + " is late: its deadline passed; the request is re-issued";
        }
        return null;
    }

    /**
     * A result accepted less than the settle window before a polled reading changed its load state may have run
     * partly in the next state: SNMP counters lag the load by up to an agent's refresh, so the change began before
     * it was seen. Such a result is taken back from the state it was filed under — the state's knowledge, the last
     * measurement and the served estimate return to what they were before it — logged and counted. A change to or
     * from UNKNOWN (no answers) says nothing about the load and takes nothing back. So do the probe windows of a
     * loaded port state it left, accepted within the settle window.
     *
     * @param changed    the row in its new state
     * @param filedUnder the state it left
     * @return the row with the result taken back, or {@code changed}
     */
    ConnectionRow takeBackIfJustFiled(final ConnectionRow changed, final ConnectionLoadState filedUnder, final long nowNanos) {
        takeBackBandProbes(changed.spec().indexRef(), filedUnder, changed.load(), nowNanos);
        final JustFiled filed = justFiled.remove(changed.spec().indexRef());
        if (filed == null || nowNanos - filed.acceptedNanos() > settings.settleNanos()
            || !filedUnder.equals(filed.before().load()) || !changed.load().isKnown() || !filedUnder.isKnown()
            || changed.load().port().kind() == PortState.Kind.UNKNOWN || filedUnder.port().kind() == PortState.Kind.UNKNOWN) {
            return changed;
        }
        resultsTakenBack++;
        LOG.info("connection {}: measurement ticket {} taken back from {}: the load state changed to {} {} ms after it"
                + " arrived, within the settle window of {} ms (counters lag the load by up to an agent's refresh)",
            changed.spec().indexRef(), filed.ticket(), ServingPolicy.label(filedUnder), ServingPolicy.label(changed.load()),
            (nowNanos - filed.acceptedNanos()) / 1_000_000, settings.settleNanos() / 1_000_000);
        final ConnectionRow before = filed.before();
        final Learning reverted = changed.learning().with(filedUnder, before.learning().of(filedUnder, changed.spec().boundPercent()));
        return changed.withMeasurement(before.measurement(), reverted)
            .withServed(before.estimate(), before.unavailableReason(), before.served());
    }

    private void takeBackBandProbes(final short indexRef, final ConnectionLoadState before, final ConnectionLoadState now,
                                    final long nowNanos) {
        if (!before.port().isLoaded() || filing.bandProbes().sameProbeState(filing.table().row(indexRef).spec(), before.hops(), now.hops())
            || now.port().kind() == PortState.Kind.UNKNOWN
            || settings.settleNanos() == 0) {
            return;
        }
        filing.bandProbes().takeBackAfter(filing.table().row(indexRef).spec(), before.hops(), nowNanos - settings.settleNanos());
    }

    /** Forgets the results whose settle window has passed. */
    void expireSettled(final long nowNanos) {
        if (!justFiled.isEmpty()) {
            justFiled.values().removeIf(filed -> nowNanos - filed.acceptedNanos() > settings.settleNanos());
        }
    }

    /** @return results taken back from a load state that changed within the settle window (any thread) */
    long resultsTakenBack() {
        return resultsTakenBack;
    }

    /** @return results pooled with their port state's probes because the CPU states moved while they ran (any thread) */
    long resultsPooledInBand() {
        return resultsPooledInBand;
    }
}
