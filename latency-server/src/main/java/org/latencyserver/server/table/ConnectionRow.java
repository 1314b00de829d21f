package org.latencyserver.server.table;

import java.util.Objects;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.state.ConnectionLoadState;

/**
 * One row of the connection table: everything the server knows about a connection at one
 * instant — the thesis's {@code TableRow} and what the extended interface adds.
 *
 * <p>Rows are immutable snapshots. Only the update thread makes new ones (with the {@code with…}
 * methods) and publishes them in the {@link ConnectionTable}; every other thread reads whichever
 * row is published, without locks, and always sees a consistent whole.
 *
 * @param spec                    the connection's configuration
 * @param latest                  the latest SNMP values
 * @param previous                the values before those
 * @param load                    the classified load state
 * @param estimate                the estimate served, or null when none can be
 * @param unavailableReason       why no estimate (or why the last one could not be refreshed), or null
 * @param staleInputs             the inputs that stopped answering, so that the served estimate may no longer hold;
 *                                {@link StaleInputs#NONE} while every input answers
 * @param pending                 the open measurement request (QoS 3, 4), or null
 * @param measurementDueNanos     when a deferred measurement may open, or {@link #NOT_DUE}
 * @param lastMeasurementStartNanos when the last measurement request opened, or {@link #NOT_DUE}
 * @param measurement             the last accepted measurement, or null
 * @param served                  where the served estimate comes from: the thesis's estimate behind it, its
 *                                source and age, and how it was corrected
 * @param learning                what was learned per load state (memory, calibration, corrections)
 * @param version                 increases by one with every published change
 * @param changedEpochMillis      wall-clock time of the last change
 */
public record ConnectionRow(ConnectionSpec spec, MibReading latest, MibReading previous, ConnectionLoadState load,
                            Estimate estimate, String unavailableReason, StaleInputs staleInputs, PendingMeasurement pending,
                            long measurementDueNanos, long lastMeasurementStartNanos, Measurement measurement,
                            ServedEstimate served, Learning learning, long version, long changedEpochMillis) {

    /** Marks "no time": no measurement due, or none started yet. */
    public static final long NOT_DUE = Long.MIN_VALUE;

    /** @throws NullPointerException when the stale inputs are missing (use {@link StaleInputs#NONE}) */
    public ConnectionRow {
        Objects.requireNonNull(staleInputs, "staleInputs");
    }

    /**
     * @param spec      the connection
     * @param nowMillis wall-clock time of creation
     * @return the row of a connection nothing is known about yet
     */
    public static ConnectionRow initial(final ConnectionSpec spec, final long nowMillis) {
        return new ConnectionRow(spec, MibReading.NONE, MibReading.NONE, ConnectionLoadState.UNKNOWN, null,
            "no load state yet: waiting for the first MIB values", StaleInputs.NONE, null, NOT_DUE, NOT_DUE, null,
            ServedEstimate.NONE, Learning.NONE, 0, nowMillis);
    }

    /** @return true while a QoS 3/4 measurement is awaited: the thesis's {@code update_required_flag} */
    public boolean updateRequired() {
        return spec.isMeasured() && (pending != null || measurementDueNanos != NOT_DUE);
    }

    /** @return true when an estimate is served: the thesis's {@code server_acknowledges_client} */
    public boolean acknowledged() {
        return estimate != null;
    }

    /** @return the estimate in ms as the thesis's float, 0 when none */
    public float latencyEstimateMillis() {
        return estimate == null ? 0f : (float) estimate.valueMillis();
    }

    /** @return upper end of the 95 % interval: ms for a mean, percent for a bound; 0 when none */
    public float upperBoundEstimate() {
        return estimate == null ? 0f : (float) (estimate.interval().upper() * intervalScale());
    }

    /** @return lower end of the 95 % interval: ms for a mean, percent for a bound; 0 when none */
    public float lowerBoundEstimate() {
        return estimate == null ? 0f : (float) (estimate.interval().lower() * intervalScale());
    }

    private double intervalScale() {
        return estimate.kind() == EstimateKind.BOUND ? 100.0 : 1.0;
    }

    /** @return a builder holding this row's fields, to change some and build a new row */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * @param reading   new SNMP values (the current ones become the previous)
     * @param newLoad   their classification
     * @param nowMillis wall-clock time
     * @return the changed row, one version on
     */
    public ConnectionRow withMib(final MibReading reading, final ConnectionLoadState newLoad, final long nowMillis) {
        return toBuilder().latest(reading).previous(latest).load(newLoad).version(version + 1).changedEpochMillis(nowMillis).build();
    }

    /**
     * @param nowMillis wall-clock time of the change
     * @return this row one version on, changed at {@code nowMillis}
     */
    public ConnectionRow withNextVersion(final long nowMillis) {
        return toBuilder().version(version + 1).changedEpochMillis(nowMillis).build();
    }

    /**
     * @param newEstimate the estimate to serve, or null
     * @param reason      why there is none (or why it could not be refreshed), or null
     * @return the changed row
     */
    public ConnectionRow withEstimate(final Estimate newEstimate, final String reason) {
        return toBuilder().estimate(newEstimate).unavailableReason(reason).build();
    }

    /**
     * @param inputs the inputs that stopped answering; {@link StaleInputs#NONE} when every input answers
     * @return the changed row
     */
    public ConnectionRow withStaleInputs(final StaleInputs inputs) {
        return toBuilder().staleInputs(inputs).build();
    }

    /**
     * @param request      the open request, or null
     * @param dueNanos     a deferred request's earliest start, or {@link #NOT_DUE}
     * @param startedNanos when the last request opened, or {@link #NOT_DUE}
     * @return the changed row
     */
    public ConnectionRow withMeasurementRequest(final PendingMeasurement request, final long dueNanos, final long startedNanos) {
        return toBuilder().pending(request).measurementDueNanos(dueNanos).lastMeasurementStartNanos(startedNanos).build();
    }

    /**
     * @param accepted    the accepted measurement
     * @param newLearning the learning including it and its test of the estimate served before
     * @return the changed row, with no request open
     */
    public ConnectionRow withMeasurement(final Measurement accepted, final Learning newLearning) {
        return toBuilder().pending(null).measurementDueNanos(NOT_DUE).measurement(accepted).learning(newLearning).build();
    }

    /**
     * @param newEstimate the estimate to serve (corrected or the thesis's), or null
     * @param reason      why there is none, or null
     * @param newServed   where it comes from
     * @return the changed row
     */
    public ConnectionRow withServed(final Estimate newEstimate, final String reason, final ServedEstimate newServed) {
        return toBuilder().estimate(newEstimate).unavailableReason(reason).served(newServed).build();
    }

    /**
     * @param newLearning what is now known per load state
     * @return the changed row
     */
    public ConnectionRow withLearning(final Learning newLearning) {
        return toBuilder().learning(newLearning).build();
    }

    /** @return the knowledge of the current load state (fresh when never seen) */
    public org.latencyserver.core.calibration.StateKnowledge currentKnowledge() {
        return learning.of(load, spec.boundPercent());
    }

    /**
     * A row under construction: starts as a copy of a row, changes the fields named, and builds a
     * new immutable row. Each setter returns the builder; the field meanings are the row's.
     *
     * <p>Not thread-safe: a local of the update thread, used and dropped in one method.
     */
    public static final class Builder {
        private final ConnectionSpec spec;
        private MibReading latest;
        private MibReading previous;
        private ConnectionLoadState load;
        private Estimate estimate;
        private String unavailableReason;
        private StaleInputs staleInputs;
        private PendingMeasurement pending;
        private long measurementDueNanos;
        private long lastMeasurementStartNanos;
        private Measurement measurement;
        private ServedEstimate served;
        private Learning learning;
        private long version;
        private long changedEpochMillis;

        private Builder(final ConnectionRow row) {
            spec = row.spec;
            latest = row.latest;
            previous = row.previous;
            load = row.load;
            estimate = row.estimate;
            unavailableReason = row.unavailableReason;
            staleInputs = row.staleInputs;
            pending = row.pending;
            measurementDueNanos = row.measurementDueNanos;
            lastMeasurementStartNanos = row.lastMeasurementStartNanos;
            measurement = row.measurement;
            served = row.served;
            learning = row.learning;
            version = row.version;
            changedEpochMillis = row.changedEpochMillis;
        }

        /**
         * @param value the latest SNMP values
         * @return this builder
         */
        public Builder latest(final MibReading value) {
            latest = value;
            return this;
        }

        /**
         * @param value the values before the latest
         * @return this builder
         */
        public Builder previous(final MibReading value) {
            previous = value;
            return this;
        }

        /**
         * @param value the classified load state
         * @return this builder
         */
        public Builder load(final ConnectionLoadState value) {
            load = value;
            return this;
        }

        /**
         * @param value the estimate served, or null
         * @return this builder
         */
        public Builder estimate(final Estimate value) {
            estimate = value;
            return this;
        }

        /**
         * @param value why no estimate, or null
         * @return this builder
         */
        public Builder unavailableReason(final String value) {
            unavailableReason = value;
            return this;
        }

        /**
         * @param value the inputs that stopped answering; {@link StaleInputs#NONE} when every input answers
         * @return this builder
         */
        public Builder staleInputs(final StaleInputs value) {
            staleInputs = value;
            return this;
        }

        /**
         * @param value the open measurement request, or null
         * @return this builder
         */
        public Builder pending(final PendingMeasurement value) {
            pending = value;
            return this;
        }

        /**
         * @param value when a deferred measurement may open (monotonic ns), or {@link #NOT_DUE}
         * @return this builder
         */
        public Builder measurementDueNanos(final long value) {
            measurementDueNanos = value;
            return this;
        }

        /**
         * @param value when the last measurement request opened (monotonic ns), or {@link #NOT_DUE}
         * @return this builder
         */
        public Builder lastMeasurementStartNanos(final long value) {
            lastMeasurementStartNanos = value;
            return this;
        }

        /**
         * @param value the last accepted measurement, or null
         * @return this builder
         */
        public Builder measurement(final Measurement value) {
            measurement = value;
            return this;
        }

        /**
         * @param value where the served estimate comes from
         * @return this builder
         */
        public Builder served(final ServedEstimate value) {
            served = value;
            return this;
        }

        /**
         * @param value what was learned per load state
         * @return this builder
         */
        public Builder learning(final Learning value) {
            learning = value;
            return this;
        }

        /**
         * @param value the row's version
         * @return this builder
         */
        public Builder version(final long value) {
            version = value;
            return this;
        }

        /**
         * @param value wall-clock time of the change, ms since the epoch
         * @return this builder
         */
        public Builder changedEpochMillis(final long value) {
            changedEpochMillis = value;
            return this;
        }

        /** @return the new row */
        public ConnectionRow build() {
            return new ConnectionRow(spec, latest, previous, load, estimate, unavailableReason, staleInputs, pending,
                measurementDueNanos, lastMeasurementStartNanos, measurement, served, learning, version, changedEpochMillis);
        }
    }
}
