package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The agent's warm-up decisions on a made-up monotonic clock: a peer's JIT warm-up time is spent
 * once, never past what a request's deadline leaves for its run.
 */
class WarmupBudgetTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long WARMUP = 15 * SECOND;
    /** 1,200 round trips paced 2 ms apart: estimated at twice 2.4 s. */
    private static final long RUN_ROUND_TRIPS = 1_200;
    private static final long INTERVAL = 2_000_000L;
    private static final long RUN = 2 * RUN_ROUND_TRIPS * INTERVAL;

    private final WarmupBudget budget = new WarmupBudget(WARMUP);

    @Test
    void aPeersFirstRequestWarmsForTheWholeTimeAndANewPathThenGetsOnlyItsRoundTrips() {
        final long now = 1_000 * SECOND;
        final WarmupBudget.Plan first = budget.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, now, now + 60 * SECOND);
        assertTrue(first.warms() && first.spendsPeerTime() && !first.cutShort());
        assertEquals(WarmupBudget.JIT_WARMUP_ROUND_TRIPS, first.roundTrips());
        assertEquals(now + WARMUP, first.untilNanos());
        assertEquals(WARMUP, budget.warmed(first, now + WARMUP + SECOND / 10));

        final long later = now + 30 * SECOND;
        final WarmupBudget.Plan samePath = budget.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, later, later + 60 * SECOND);
        assertFalse(samePath.warms(), "a warm path of a warm peer is measured at once");
        final WarmupBudget.Plan newSize = budget.plan("ws2", 1024, RUN_ROUND_TRIPS, INTERVAL, 0, 0, later, later + 60 * SECOND);
        assertTrue(newSize.warms() && !newSize.spendsPeerTime());
        assertEquals(WarmupBudget.JIT_WARMUP_ROUND_TRIPS, newSize.roundTrips());
        assertEquals(later, newSize.untilNanos(), "the round trips alone, no time");
    }

    @Test
    void aNearDeadlineCutsTheWarmUpShortAndTheNextRequestWarmsTheRest() {
        final long now = 50 * SECOND;
        final long deadline = now + 10 * SECOND;
        final WarmupBudget.Plan cut = budget.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, now, deadline);
        assertTrue(cut.warms() && cut.spendsPeerTime() && cut.cutShort());
        // the run's estimate and the margin are kept free before the deadline
        assertEquals(deadline - RUN - WarmupBudget.DEADLINE_MARGIN_NANOS, cut.untilNanos());
        final long spent = budget.warmed(cut, cut.untilNanos());
        assertEquals(cut.untilNanos() - now, spent);

        final long later = now + 20 * SECOND;
        final WarmupBudget.Plan rest = budget.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, later, later + 60 * SECOND);
        assertTrue(rest.warms() && !rest.cutShort());
        assertEquals(0, rest.roundTrips(), "the path had its round trips");
        assertEquals(later + WARMUP - spent, rest.untilNanos());
        assertEquals(WARMUP, budget.warmed(rest, rest.untilNanos()));
    }

    @Test
    void aDeadlineTooNearForAnyWarmUpLeavesOnlyTheRoundTripsAndSpendsNoTimeBeyondThem() {
        final long now = 7 * SECOND;
        final WarmupBudget.Plan late = budget.plan("ws3", 64, RUN_ROUND_TRIPS, INTERVAL, 0, 0, now, now + 3 * SECOND);
        assertTrue(late.cutShort());
        assertTrue(late.untilNanos() < now, "an instant already past: the runner stops after the round trips");
        assertEquals(WarmupBudget.JIT_WARMUP_ROUND_TRIPS, late.roundTrips());
        // the round trips took 0.4 s: that is what the peer has spent
        assertEquals(4 * SECOND / 10, budget.warmed(late, now + 4 * SECOND / 10));
    }

    @Test
    void unpacedRoundTripsAreEstimatedAtTheShortestRoundTripSoTheRunStillGetsItsTime() {
        final long now = 0;
        final long deadline = 20 * SECOND;
        final WarmupBudget.Plan plan = budget.plan("ws2", 256, 10_000, 0, 0, 0, now, deadline);
        // 10,000 round trips back to back, at least 0.3 ms each, twice over: 6 s
        assertEquals(deadline - 6 * SECOND - WarmupBudget.DEADLINE_MARGIN_NANOS, plan.untilNanos());
    }

    @Test
    void withNoWarmUpTimeANewPathGetsItsRoundTripsAndNothingMore() {
        final WarmupBudget none = new WarmupBudget(0);
        final WarmupBudget.Plan plan = none.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, 5 * SECOND, 65 * SECOND);
        assertTrue(plan.warms() && !plan.spendsPeerTime());
        assertEquals(5 * SECOND, plan.untilNanos());
        assertFalse(none.plan("ws2", 256, RUN_ROUND_TRIPS, INTERVAL, 0, 0, 6 * SECOND, 66 * SECOND).warms());
    }

    @Test
    void aPacedWarmUpRunsNoMoreRoundTripsThanFitItsTime() {
        final WarmupBudget budget = new WarmupBudget(15 * SECOND);
        final long now = 10 * SECOND;
        final WarmupBudget.Plan paced = budget.plan("ws2", 1024, RUN_ROUND_TRIPS, INTERVAL, 9_000_000L, 0, now, now + 60 * SECOND);
        assertEquals(15 * SECOND / 9_000_000L, paced.roundTrips(), "15 s at 9 ms: 1,666, not the 3,000 of an unpaced path");
        final WarmupBudget spent = new WarmupBudget(0);
        assertEquals(1_000_000_000L / 9_000_000L,
            spent.plan("ws2", 1024, RUN_ROUND_TRIPS, INTERVAL, 9_000_000L, 0, now, now + 60 * SECOND).roundTrips(),
            "a new path of a peer whose time is spent: a second's worth");
    }

    @Test
    void aPathPacedAsSlowlyAsItsWarmUpStillWarmsWhenItsRunHasATimeBudget() {
        // 1 KB on a 20 Mbit/s link at a 5 % share split between two measurements: 20.4 ms a round trip, 1020 round trips
        // would take 41.6 s against a 30 s deadline; with a 10 s time budget the run takes 10 s, and the warm-up fits.
        final WarmupBudget budget = new WarmupBudget(15 * SECOND);
        final long now = 10 * SECOND;
        final long paced = 20_400_000L;
        final WarmupBudget.Plan plan = budget.plan("ws2", 1024, 1020, paced, paced, 10 * SECOND, now, now + 30 * SECOND);
        assertTrue(plan.untilNanos() - now > 0, "the warm-up ends in the future");
        assertTrue(plan.roundTrips() > 0, "the new path gets round trips: " + plan.roundTrips());
        final WarmupBudget unbounded = new WarmupBudget(15 * SECOND);
        assertEquals(0, unbounded.plan("ws2", 1024, 1020, paced, paced, 0, now, now + 30 * SECOND).roundTrips(),
            "without a time budget the run alone outlasts the deadline: nothing fits before it");
    }
}
