package org.latencyserver.launch.agent;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Backs off over consecutive idle rounds: first {@code maxSpins} busy spins, then {@code maxYields}
 * yields, then parks that start at {@code minPark} and double up to {@code maxPark}. A round with
 * work starts the back-off over. For an agent that wants a short reaction time while busy and little
 * CPU while quiet.
 *
 * <p>Not thread-safe: one runner's thread only.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    /** Where in its back-off the strategy is. */
    enum Phase { SPINNING, YIELDING, PARKING }

    private final long maxSpins;
    private final long maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private final Parker parker;
    private long spins;
    private long yields;
    private long parkNanos;

    /** How the strategy parks and yields; a seam for tests. */
    interface Parker {
        void park(long nanos);

        void yieldNow();
    }

    /**
     * @param maxSpins  busy spins before the first yield; 0 or more
     * @param maxYields yields before the first park; 0 or more
     * @param minPark   the first park; positive
     * @param maxPark   the longest park; at least {@code minPark}
     */
    public BackoffIdleStrategy(final long maxSpins, final long maxYields, final Duration minPark, final Duration maxPark) {
        this(maxSpins, maxYields, minPark, maxPark, new Parker() {
            @Override
            public void park(final long nanos) {
                LockSupport.parkNanos(nanos);
            }

            @Override
            public void yieldNow() {
                Thread.yield();
            }
        });
    }

    BackoffIdleStrategy(final long maxSpins, final long maxYields, final Duration minPark, final Duration maxPark,
                        final Parker parker) {
        if (maxSpins < 0 || maxYields < 0 || minPark.isNegative() || minPark.isZero() || maxPark.compareTo(minPark) < 0) {
            throw new IllegalArgumentException("bad back-off: spins " + maxSpins + ", yields " + maxYields
                    + ", park " + minPark + ".." + maxPark);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minPark.toNanos();
        this.maxParkNanos = maxPark.toNanos();
        this.parker = parker;
        reset();
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            reset();
            return;
        }
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            parker.yieldNow();
        } else {
            parker.park(parkNanos);
            parkNanos = Math.min(parkNanos * 2, maxParkNanos);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }

    /** @return the phase the next idle round is in */
    Phase phase() {
        if (spins < maxSpins) {
            return Phase.SPINNING;
        }
        return yields < maxYields ? Phase.YIELDING : Phase.PARKING;
    }
}
