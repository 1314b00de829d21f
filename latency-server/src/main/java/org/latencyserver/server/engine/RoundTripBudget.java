package org.latencyserver.server.engine;

/**
 * The global budget of measurement round trips per second (thesis §4.1, third consideration: the
 * measurements must not load the network they measure). A token bucket: it refills at
 * {@code roundTripsPerSecond} and holds at most one second's worth, or one measurement's when
 * that is larger, so a single measurement always fits and an idle period does not bank an
 * unbounded burst. Opening a request takes its round trips from the bucket; a request that does
 * not fit waits for the refill (it is deferred, never dropped).
 *
 * <p>Confined to the update thread; time is passed in (monotonic ns), so it is deterministic.
 */
final class RoundTripBudget {

    private final double roundTripsPerSecond;
    private final double capacity;
    private double available;
    private long lastRefillNanos;
    private boolean started;

    /**
     * @param roundTripsPerSecond      the budget, {@code >= 1}
     * @param roundTripsPerMeasurement what one request takes, {@code >= 1}
     */
    RoundTripBudget(final long roundTripsPerSecond, final int roundTripsPerMeasurement) {
        if (roundTripsPerSecond < 1 || roundTripsPerMeasurement < 1) {
            throw new IllegalArgumentException("budget " + roundTripsPerSecond + " round trips/s and "
                + roundTripsPerMeasurement + " per measurement must both be >= 1");
        }
        this.roundTripsPerSecond = roundTripsPerSecond;
        this.capacity = Math.max(roundTripsPerSecond, roundTripsPerMeasurement);
        this.available = capacity;
    }

    /**
     * @param roundTrips what a request would take
     * @param nowNanos   monotonic time
     * @return true, and the round trips taken, when the bucket holds them; false otherwise
     */
    boolean tryTake(final int roundTrips, final long nowNanos) {
        refill(nowNanos);
        if (available < roundTrips) {
            return false;
        }
        available -= roundTrips;
        return true;
    }

    private void refill(final long nowNanos) {
        if (started) {
            final long elapsedNanos = nowNanos - lastRefillNanos;
            if (elapsedNanos > 0) {
                available = Math.min(capacity, available + elapsedNanos * roundTripsPerSecond / 1e9);
            }
        }
        started = true;
        lastRefillNanos = nowNanos;
    }
}
