package org.latencyserver.server.standby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The lease on a clock the test moves: from the check's sending, for the lease, counted once when it runs out. */
class PrimaryLeaseTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong nowNanos = new AtomicLong(1_000 * MS);
    private final PrimaryLease lease = new PrimaryLease(3000, nowNanos::get);

    @Test
    void noLeaseBeforeTheFirstConfirmationAndNoLapseEither() {
        assertFalse(lease.holds());
        assertFalse(lease.lapsed());
        assertEquals(0, lease.remainingMillis());
    }

    @Test
    void aConfirmationHoldsForTheLeaseFromWhenItsCheckWasSentNotWhenItWasAnswered() {
        final long sent = nowNanos.get();
        nowNanos.addAndGet(1500 * MS); // the check took 1.5 s to answer
        lease.confirmed(sent);
        assertTrue(lease.holds());
        assertEquals(1500, lease.remainingMillis());
        nowNanos.addAndGet(1499 * MS);
        assertTrue(lease.holds());
        nowNanos.addAndGet(MS);
        assertFalse(lease.holds(), "3 s after the check was sent");
        assertTrue(lease.lapsed());
        assertTrue(lease.lapsed());
        assertEquals(1, lease.lapses(), "counted once");
    }

    @Test
    void anOlderCheckAnsweredLateDoesNotShortenTheLease() {
        final long older = nowNanos.get();
        nowNanos.addAndGet(1000 * MS);
        lease.confirmed(nowNanos.get());
        lease.confirmed(older);
        nowNanos.addAndGet(2500 * MS);
        assertTrue(lease.holds());
    }

    @Test
    void aRevokedLeaseHoldsAgainOnlyAfterANewConfirmationAndEachLapseCountsOnce() {
        lease.confirmed(nowNanos.get());
        nowNanos.addAndGet(3000 * MS);
        assertTrue(lease.lapsed());
        lease.revoke();
        assertFalse(lease.holds());
        assertFalse(lease.lapsed(), "a revoked lease has not lapsed");
        lease.confirmed(nowNanos.get());
        assertTrue(lease.holds());
        nowNanos.addAndGet(4000 * MS);
        assertTrue(lease.lapsed());
        assertEquals(2, lease.lapses());
    }

    @Test
    void theFenceIsTheLeaseAndATenth() {
        assertEquals(3300, PrimaryLease.fenceMillis(3000));
        assertEquals(550, PrimaryLease.fenceMillis(500));
        assertThrows(IllegalArgumentException.class, () -> new PrimaryLease(0, nowNanos::get));
    }
}
