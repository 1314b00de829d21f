package org.latencyserver.server.table;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * What traffic a connection's estimates are for, and the shape its measurements reproduce: its declared
 * {@code connections[].traffic}, or, with none declared, the default family its probes draw from.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConnectionTraffic {

    /**
     * A measurement's spacing when none is declared and the server sets no pacing, µs: the shortest a shape may have,
     * shorter than any round trip, so the classic run goes back to back as profiles were measured.
     */
    public static final long CLASSIC_SPACING_MICROS = TrafficShape.MIN_SPACING_MICROS;

    /** Share of a measurement's time budget its bursts and pauses may take, percent; the rest is the agent's margin. */
    static final int BUDGET_SHARE_PERCENT = 80;

    private ConnectionTraffic() {
    }

    /**
     * The one place the estimate's {@code traffic} text is built: the declared shape's
     * {@link TrafficShape#label()}, or {@link TrafficFamily#DEFAULT}'s label when none is declared — followed, for a
     * bound read at the level of the worst shape class seen in the current load state, by that class.
     *
     * @param row the connection as served
     * @return e.g. {@code "bursts of 50 round trips 2 ms apart, 1000 ms pause, octets"}
     */
    public static String estimateText(final ConnectionRow row) {
        return estimateText(row, row.learning().pooledLevel(row.spec().boundPercent()));
    }

    /**
     * As {@link #estimateText(ConnectionRow)}, the worst shape judged with the pooled level the bound was served at.
     *
     * @param row    the connection
     * @param pooled the connection-wide level its bound borrowed from (null: none)
     * @return what traffic the estimate is for
     */
    public static String estimateText(final ConnectionRow row,
                                      final org.latencyserver.core.calibration.AdaptiveQuantileLevel pooled) {
        if (row.spec().traffic().isPresent()) {
            return row.spec().traffic().get().label();
        }
        final org.latencyserver.core.calibration.StateKnowledge known = row.currentKnowledge();
        if (known != null && known.level() != null) {
            final org.latencyserver.core.calibration.BorrowedLevel.Served served = org.latencyserver.core.calibration.BorrowedLevel
                .of(known, pooled, null, row.learning().classExcess());
            if (served.shape() != null) {
                return TrafficFamily.DEFAULT.label() + "; bound at the level of the worst shape seen: " + served.shape().label();
            }
        }
        return TrafficFamily.DEFAULT.label();
    }

    /**
     * @param spec a connection
     * @return the class of its declared traffic as its round trips are made (arrays exist for the thesis's sizes only:
     *         at another size the client agent sends octets, and its reports say so), or null when none is declared
     */
    public static org.latencyserver.core.traffic.ShapeClass declaredClass(final ConnectionSpec spec) {
        return spec.traffic().map(shape -> org.latencyserver.core.traffic.ShapeClass.of(madeAt(shape, spec.messageSizeBytes())))
            .orElse(null);
    }

    private static TrafficShape madeAt(final TrafficShape shape, final int messageSizeBytes) {
        final CallKind made = shape.call().madeAt(messageSizeBytes);
        return made == shape.call() ? shape : new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis(), made);
    }

    /**
     * The shape a measurement reproduces: the declared one — its pause shortened, when the declared pause would not let
     * the run's least round trips ({@code minRoundTrips}, or all of them if fewer) fit in
     * {@value #BUDGET_SHARE_PERCENT} % of its time budget, so that a slow application's connection is still measured —
     * or, with none declared, the classic run.
     *
     * @param spec             the connection
     * @param roundTrips       the round trips the measurement records, {@code >= 1}
     * @param minIntervalNanos the request's {@code min_interval_nanos}, 0 for none
     * @param timeBudgetMillis the request's {@code time_budget_millis}, 0 for none
     * @param minRoundTrips    the request's {@code min_round_trips}
     * @return the shape; with none declared, the classic run: one burst of {@code roundTrips} spaced
     *         {@code minIntervalNanos} (rounded up to whole µs, within the shape's range; {@value #CLASSIC_SPACING_MICROS}
     *         µs when 0), no pause, the thesis's arrays
     */
    public static TrafficShape forMeasurement(final ConnectionSpec spec, final int roundTrips, final long minIntervalNanos,
                                              final long timeBudgetMillis, final int minRoundTrips) {
        final TrafficShape shape = forMeasurement(spec, roundTrips, minIntervalNanos);
        if (spec.traffic().isEmpty() || timeBudgetMillis <= 0 || shape.pauseMillis() == 0) {
            return shape;
        }
        final int needed = Math.max(1, Math.min(roundTrips, minRoundTrips));
        final long bursts = (needed + shape.burstRoundTrips() - 1L) / shape.burstRoundTrips();
        if (bursts <= 1) {
            return shape;
        }
        final double spacingMicros = Math.max(shape.spacingMicros(), Math.ceil(minIntervalNanos / 1_000.0));
        final double sendingMicros = bursts * shape.burstRoundTrips() * spacingMicros;
        final double budgetMicros = timeBudgetMillis * 1_000.0 * BUDGET_SHARE_PERCENT / 100.0;
        final long fittingPauseMillis = (long) Math.max(0, Math.floor((budgetMicros - sendingMicros) / (bursts - 1) / 1_000.0));
        return fittingPauseMillis >= shape.pauseMillis() ? shape
            : new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), fittingPauseMillis, shape.call());
    }

    /**
     * As {@link #forMeasurement(ConnectionSpec, int, long, long, int)} without a time budget: the declared shape as
     * declared.
     *
     * @param spec             the connection
     * @param roundTrips       the round trips the measurement records, {@code >= 1}
     * @param minIntervalNanos the request's {@code min_interval_nanos}, 0 for none
     * @return the shape
     */
    public static TrafficShape forMeasurement(final ConnectionSpec spec, final int roundTrips, final long minIntervalNanos) {
        if (spec.traffic().isPresent()) {
            return madeAt(spec.traffic().get(), spec.messageSizeBytes());
        }
        final long spacingMicros = minIntervalNanos <= 0 ? CLASSIC_SPACING_MICROS
            : Math.min(TrafficShape.MAX_SPACING_MICROS, Math.max(TrafficShape.MIN_SPACING_MICROS, (minIntervalNanos + 999) / 1_000));
        final int burst = Math.min(TrafficShape.MAX_BURST_ROUND_TRIPS, Math.max(1, roundTrips));
        return new TrafficShape(spacingMicros, burst, 0, CallKind.ARRAYS.madeAt(spec.messageSizeBytes()));
    }
}
