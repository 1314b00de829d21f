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

    /** A measurement's spacing when none is declared and the server sets no pacing, µs: the classic run's. */
    public static final long CLASSIC_SPACING_MICROS = 1_000;

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
        if (row.spec().traffic().isPresent()) {
            return row.spec().traffic().get().label();
        }
        final org.latencyserver.core.calibration.StateKnowledge known = row.currentKnowledge();
        if (known != null && known.level() != null) {
            final org.latencyserver.core.calibration.BorrowedLevel.Served served = org.latencyserver.core.calibration.BorrowedLevel
                .of(known, row.learning().pooledLevel(row.spec().boundPercent()), null);
            if (served.shape() != null) {
                return TrafficFamily.DEFAULT.label() + "; bound at the level of the worst shape seen: " + served.shape().label();
            }
        }
        return TrafficFamily.DEFAULT.label();
    }

    /**
     * @param spec             the connection
     * @param roundTrips       the round trips the measurement records, {@code >= 1}
     * @param minIntervalNanos the request's {@code min_interval_nanos}, 0 for none
     * @return the declared shape; with none, the classic run: one burst of {@code roundTrips} spaced
     *         {@code minIntervalNanos} (rounded up to whole µs, within the shape's range; {@value #CLASSIC_SPACING_MICROS}
     *         µs when 0), no pause, the thesis's arrays
     */
    public static TrafficShape forMeasurement(final ConnectionSpec spec, final int roundTrips, final long minIntervalNanos) {
        if (spec.traffic().isPresent()) {
            return spec.traffic().get();
        }
        final long spacingMicros = minIntervalNanos <= 0 ? CLASSIC_SPACING_MICROS
            : Math.min(TrafficShape.MAX_SPACING_MICROS, Math.max(TrafficShape.MIN_SPACING_MICROS, (minIntervalNanos + 999) / 1_000));
        final int burst = Math.min(TrafficShape.MAX_BURST_ROUND_TRIPS, Math.max(1, roundTrips));
        return new TrafficShape(spacingMicros, burst, 0, CallKind.ARRAYS);
    }
}
