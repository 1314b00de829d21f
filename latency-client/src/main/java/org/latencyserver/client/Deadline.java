package org.latencyserver.client;

import java.time.Duration;
import java.util.Objects;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.mirror.MirrorRecord;

/**
 * A deadline for one call, derived from a served estimate: how long the call may take before the
 * application stops waiting for it.
 *
 * <p>Which served number it starts from depends on what the connection serves:
 * <ul>
 *   <li><b>a bound</b> (QoS 2 and 4, {@link Kind#BOUND}): the bound itself, {@code value_ms} — the
 *       latency the configured share of messages stays at or below;</li>
 *   <li><b>an average</b> (QoS 1 and 3, {@link Kind#AVERAGE}): the upper end of the served
 *       interval in ms, {@code interval.upper} (mean + interval), never less than the mean. A mean
 *       alone would be missed by about half of the calls.</li>
 * </ul>
 * The {@link DeadlineMargin} then multiplies and adds: {@code deadlineNanos = ceil(servedMillis ×
 * 1e6 × factor) + extraNanos}.
 *
 * <p>An estimate that is stale or awaits a measurement is not refused: the deadline is derived and
 * {@link #stale()} and {@link #updatePending()} say so, for the application to decide (a larger
 * margin, or no deadline at all). A served number that is not finite or not positive is refused
 * with an {@link IllegalArgumentException} saying which; the server never serves one, so it means
 * the estimate was not read from it.
 *
 * <p>All factories are pure functions: no ORB, no clock, no state.
 *
 * @param deadlineNanos the deadline in nanoseconds, {@code >= 1}
 * @param servedMillis  the served number it was derived from, in ms (the bound, or the interval's
 *                      upper end)
 * @param kind          whether {@code servedMillis} is a bound or the upper end of an average's
 *                      interval
 * @param margin        the margin applied
 * @param stale         the estimate said an input stopped answering ({@code Estimate.stale})
 * @param updatePending the estimate said a measurement is awaited ({@code update_pending},
 *                      {@code update_required_flag = 1})
 */
public record Deadline(long deadlineNanos, double servedMillis, Kind kind, DeadlineMargin margin,
                       boolean stale, boolean updatePending) {

    /** What a served latency is: the thesis's two kinds of estimate. */
    public enum Kind {
        /** QoS 1 and 3: a mean with its interval in ms; the code {@code 0} (as {@code EstimateKind}). */
        AVERAGE,
        /** QoS 2 and 4: an x % latency bound in ms; the code {@code 1} (as {@code EstimateKind}). */
        BOUND;

        /**
         * @param code {@code 0} AVERAGE or {@code 1} BOUND, the encoding of the IDL's
         *             {@code EstimateKind} and of the host-local mirror's record
         * @return the kind
         * @throws IllegalArgumentException for any other code
         */
        public static Kind ofCode(final int code) {
            return switch (code) {
                case 0 -> AVERAGE;
                case 1 -> BOUND;
                default -> throw new IllegalArgumentException("an estimate kind is 0 (AVERAGE) or 1 (BOUND), was " + code);
            };
        }

        /**
         * @param quality a connection's QoS level, 1..4
         * @return AVERAGE for QoS 1 and 3, BOUND for QoS 2 and 4
         * @throws IllegalArgumentException for any other level
         */
        public static Kind ofQuality(final int quality) {
            return switch (quality) {
                case 1, 3 -> AVERAGE;
                case 2, 4 -> BOUND;
                default -> throw new IllegalArgumentException("a QoS level is 1..4, was " + quality);
            };
        }
    }

    /**
     * @throws IllegalArgumentException when {@code deadlineNanos < 1}
     * @throws NullPointerException     when {@code kind} or {@code margin} is null
     */
    public Deadline {
        if (deadlineNanos < 1) {
            throw new IllegalArgumentException("a deadline is at least 1 ns, was " + deadlineNanos);
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(margin, "margin");
    }

    /**
     * The deadline from an estimate of the extended interface ({@code current_estimate},
     * {@code estimate_at_percentile}, {@code estimate_for_size}, or one pushed to a listener).
     *
     * @param estimate the served estimate
     * @param margin   the margin to apply
     * @return the deadline, with the estimate's {@code stale} and {@code update_pending} flags
     * @throws IllegalArgumentException when the served number is not finite or not positive, or an
     *                                  average's interval is not in ms
     */
    public static Deadline ofEstimate(final Estimate estimate, final DeadlineMargin margin) {
        Objects.requireNonNull(estimate, "estimate");
        if (estimate.kind == null) {
            throw new IllegalArgumentException("the estimate of connection " + estimate.index_ref + " has no kind");
        }
        final Kind kind = Kind.ofCode(estimate.kind.value());
        double upper = Double.NaN;
        if (kind == Kind.AVERAGE) {
            final ConfidenceInterval interval = estimate.interval;
            if (interval == null) {
                throw new IllegalArgumentException("the average of connection " + estimate.index_ref + " has no interval");
            }
            if (interval.unit != null && !interval.unit.isEmpty() && !"ms".equals(interval.unit)) {
                throw new IllegalArgumentException("the interval of an average must be in ms, connection "
                    + estimate.index_ref + "'s is in '" + interval.unit + "'");
            }
            upper = interval.upper;
        }
        return derive(kind, estimate.value_ms, upper, margin, estimate.stale, estimate.update_pending,
            "connection " + estimate.index_ref);
    }

    /**
     * The deadline from plain values, for applications without CORBA types, such as one reading
     * the host-local mirror's record (its kind, value in ms and interval upper end). The result's
     * {@code stale} and {@code updatePending} are false: check the source's own flags.
     *
     * @param kindCode            {@code 0} AVERAGE or {@code 1} BOUND (the IDL's and the mirror's encoding)
     * @param valueMillis         the served value in ms: a mean or a bound
     * @param intervalUpperMillis for an average, the upper end of its interval in ms; ignored for a
     *                            bound (whose interval is in percent), may then be NaN
     * @param margin              the margin to apply
     * @return the deadline
     * @throws IllegalArgumentException for an unknown kind, or a served number that is not finite
     *                                  or not positive
     */
    public static Deadline ofValues(final int kindCode, final double valueMillis, final double intervalUpperMillis,
                                    final DeadlineMargin margin) {
        return ofValues(Kind.ofCode(kindCode), valueMillis, intervalUpperMillis, margin);
    }

    /**
     * As {@link #ofValues(int, double, double, DeadlineMargin)}, with the kind as an enum.
     *
     * @param kind                AVERAGE or BOUND
     * @param valueMillis         the served value in ms: a mean or a bound
     * @param intervalUpperMillis for an average, the upper end of its interval in ms; ignored for a bound
     * @param margin              the margin to apply
     * @return the deadline, not stale and not pending
     * @throws IllegalArgumentException for a served number that is not finite or not positive
     */
    public static Deadline ofValues(final Kind kind, final double valueMillis, final double intervalUpperMillis,
                                    final DeadlineMargin margin) {
        Objects.requireNonNull(kind, "kind");
        return derive(kind, valueMillis, intervalUpperMillis, margin, false, false, "the given values");
    }

    /**
     * The deadline from a record of the host-local estimate mirror (module {@code latency-mirror}):
     * its kind, value and interval upper end, with its {@code stale} and {@code updatePending}
     * flags. No CORBA call is made.
     *
     * @param record a record read from the mirror
     * @param margin the margin to apply
     * @return the deadline
     * @throws IllegalArgumentException when the record holds no estimate ({@code hasEstimate()} is
     *                                  false), its kind is unknown, or its served number is not
     *                                  finite or not positive
     */
    public static Deadline ofMirrorRecord(final MirrorRecord record, final DeadlineMargin margin) {
        Objects.requireNonNull(record, "record");
        if (!record.hasEstimate()) {
            throw new IllegalArgumentException("the mirror record of connection " + record.indexRef()
                + " holds no estimate to derive a deadline from");
        }
        return derive(Kind.ofCode(record.kind()), record.valueMillis(), record.intervalUpper(), margin,
            record.stale(), record.updatePending(), "the mirror record of connection " + record.indexRef());
    }

    /**
     * The deadline from the thesis's {@code Latserv.RequestStatus}: QoS 1/3 (from
     * {@code status.quality}) use {@code upper_bound_estimate} (the interval of the mean, ms), QoS
     * 2/4 use {@code latency_estimate} (the bound, ms; their upper/lower are percent and are not
     * read). {@code update_required_flag = 1} becomes {@link #updatePending()}; the thesis
     * interface has no stale flag.
     *
     * @param status what {@code RequestStatus} returned
     * @param margin the margin to apply
     * @return the deadline
     * @throws IllegalArgumentException when the server did not acknowledge the connection
     *                                  ({@code server_acknowledges_client = 0}: no estimate), the
     *                                  quality is not 1..4, or the served number is not finite or
     *                                  not positive
     */
    public static Deadline ofStatus(final IdlStatusToClient status, final DeadlineMargin margin) {
        Objects.requireNonNull(status, "status");
        if (status.server_acknowledges_client != 1) {
            throw new IllegalArgumentException("connection " + status.index_ref
                + " is not served (server_acknowledges_client = " + status.server_acknowledges_client
                + "): there is no estimate to derive a deadline from");
        }
        return derive(Kind.ofQuality(status.quality), status.latency_estimate, status.upper_bound_estimate, margin,
            false, status.update_required_flag == 1, "connection " + status.index_ref);
    }

    /** @return the deadline as a {@link Duration} */
    public Duration toDuration() {
        return Duration.ofNanos(deadlineNanos);
    }

    /** @return the deadline in milliseconds, for messages and logs */
    public double deadlineMillis() {
        return deadlineNanos / 1_000_000.0;
    }

    private static Deadline derive(final Kind kind, final double valueMillis, final double intervalUpperMillis,
                                   final DeadlineMargin margin, final boolean stale, final boolean updatePending,
                                   final String what) {
        Objects.requireNonNull(margin, "margin");
        requirePositive(valueMillis, kind == Kind.BOUND ? "bound" : "mean", what);
        final double servedMillis;
        if (kind == Kind.BOUND) {
            servedMillis = valueMillis;
        } else {
            requirePositive(intervalUpperMillis, "interval's upper end", what);
            servedMillis = Math.max(valueMillis, intervalUpperMillis);
        }
        return new Deadline(margin.applyToMillis(servedMillis), servedMillis, kind, margin, stale, updatePending);
    }

    private static void requirePositive(final double millis, final String name, final String what) {
        if (!Double.isFinite(millis) || millis <= 0.0) {
            throw new IllegalArgumentException("no deadline from " + what + ": its " + name
                + " must be a finite number of ms > 0, was " + millis);
        }
    }
}
