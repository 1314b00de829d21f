package org.latencyserver.server.standby;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A primary's lease on serving: it holds for {@code leaseMillis} after the start of the newest check that found the
 * server's name in the naming service bound to this server. A check counts from when it was sent, not when it was
 * answered, so the lease never outlives the naming service's word by more than {@code leaseMillis}.
 *
 * <p>The contract the pair builds on: a primary acknowledges a write only while {@link #holds()} (checked just before
 * the answer goes out), and a standby that binds the name serves only {@link #fenceMillis} after its bind returned.
 * Every check of the old primary that the naming service answered after that bind finds the other server's reference
 * and renews nothing; so the old primary's last renewal started before the bind, and its lease ends at most
 * {@code leaseMillis} (its clock) after the bind, before the fence ends (the other's clock) while each clock's rate is
 * within 4.7 % of real time ({@code 0.1 / 2.1}; the proof is in docs/architecture.md).
 *
 * <p>Thread-safety: lock-free; {@link #confirmed} from the checking thread, the rest from any thread.
 */
public final class PrimaryLease {

    /** How much longer than the lease a standby waits after binding the name before it serves, in percent of the lease. */
    public static final int FENCE_MARGIN_PERCENT = 10;

    private static final long NEVER = Long.MIN_VALUE;

    private final long leaseNanos;
    private final LongSupplier nanoClock;
    /** Start of the newest check that found the name bound to this server, monotonic ns; {@link #NEVER} before one. */
    private final AtomicLong confirmedStartNanos = new AtomicLong(NEVER);
    /** Times {@link #lapsed()} was first seen true after a confirmation. */
    private final AtomicLong lapses = new AtomicLong();
    /** The confirmation whose lapse was counted, so each is counted once. */
    private final AtomicLong lapseCountedFor = new AtomicLong(NEVER);

    /**
     * @param leaseMillis how long a confirmation lets the primary serve, {@code > 0}
     * @param nanoClock   monotonic time, ns
     */
    public PrimaryLease(final long leaseMillis, final LongSupplier nanoClock) {
        if (leaseMillis <= 0) {
            throw new IllegalArgumentException("leaseMillis must be > 0, was " + leaseMillis);
        }
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.nanoClock = nanoClock;
    }

    /**
     * @param leaseMillis the lease
     * @return how long a standby that bound the name waits before it serves: the lease and {@value #FENCE_MARGIN_PERCENT} %
     */
    public static long fenceMillis(final long leaseMillis) {
        return leaseMillis + leaseMillis * FENCE_MARGIN_PERCENT / 100;
    }

    /**
     * A check sent at {@code checkStartedNanos} found the name bound to this server (or bound it there).
     *
     * @param checkStartedNanos when the check was sent, on this lease's clock
     */
    public void confirmed(final long checkStartedNanos) {
        confirmedStartNanos.accumulateAndGet(checkStartedNanos, Math::max);
    }

    /** Forgets every confirmation (this server stepped down): the lease holds again only after a new one. */
    public void revoke() {
        confirmedStartNanos.set(NEVER);
    }

    /** @return whether a confirmation less than the lease ago lets this server serve now */
    public boolean holds() {
        final long start = confirmedStartNanos.get();
        return start != NEVER && nanoClock.getAsLong() - start < leaseNanos;
    }

    /** @return whether a lease held and has run out (false before any confirmation and after {@link #revoke}) */
    public boolean lapsed() {
        final long start = confirmedStartNanos.get();
        if (start == NEVER || nanoClock.getAsLong() - start < leaseNanos) {
            return false;
        }
        if (lapseCountedFor.getAndSet(start) != start) {
            lapses.incrementAndGet();
        }
        return true;
    }

    /** @return ms left of the lease now; 0 when it does not hold */
    public long remainingMillis() {
        final long start = confirmedStartNanos.get();
        if (start == NEVER) {
            return 0;
        }
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(leaseNanos - (nanoClock.getAsLong() - start)));
    }

    /** @return how many leases ran out while held (each counted once, when first seen) */
    public long lapses() {
        return lapses.get();
    }
}
