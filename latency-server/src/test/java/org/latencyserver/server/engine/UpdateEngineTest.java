package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.StaleInputs;

/** The engine on its own, with a controlled clock: no threads, no CORBA. */
class UpdateEngineTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);

    private UpdateEngine engine;
    private final AtomicLong tickets = new AtomicLong(1000);
    private final List<ConnectionRow> requested = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        final Profile tac4 = ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
        final List<ConnectionRow> rows = List.of(
            ConnectionRow.initial(spec(1, 1, 0, "thesis-tac4-corba"), 0),
            ConnectionRow.initial(spec(2, 2, 96, "thesis-tac4-corba"), 0),
            ConnectionRow.initial(spec(3, 3, 0, null), 0),
            ConnectionRow.initial(spec(4, 4, 96, null), 0));
        engine = new UpdateEngine(new ConnectionTable(rows), Map.of(tac4.name(), tac4),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 5 * SECOND, 2, 20, 20_000),
            tickets::incrementAndGet, () -> 42L);
        engine.addListener(new EngineListener() {
            @Override
            public void measurementRequested(final ConnectionRow row) {
                requested.add(row);
            }
        });
    }

    private static ConnectionSpec spec(final int indexRef, final int qos, final double bound, final String profile) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4, "port-a",
            256, qos, bound, profile);
    }

    /** A connection from another client workstation (ws3 to ws4). */
    private static ConnectionSpec otherClient(final int indexRef, final int qos, final double bound) {
        return new ConnectionSpec((short) indexRef, "ws3", (short) 3, WorkstationType.TAC_4, "ws4", (short) 4, WorkstationType.TAC_4,
            "port-b", 256, qos, bound, null);
    }

    @Test
    void aClientWorkstationHasOneRequestOpenAtATimeAndTheNextOpensWhenItCloses() throws Exception {
        final UpdateEngine twoSlots = limitedEngine(2, 20_000, spec(3, 3, 0, null), spec(4, 4, 96, null), otherClient(5, 3, 0));
        twoSlots.applyMib((short) 3, mib(10, 10, 10), 0);
        twoSlots.applyMib((short) 4, mib(10, 10, 10), 0);
        twoSlots.applyMib((short) 5, mib(10, 10, 10), 0);
        assertNotNull(twoSlots.table().row((short) 3).pending());
        assertNull(twoSlots.table().row((short) 4).pending(), "ws1's agent is busy with connection 3: 4 waits, due");
        assertTrue(twoSlots.table().row((short) 4).updateRequired());
        assertNotNull(twoSlots.table().row((short) 5).pending(), "ws3's agent is free: the second slot is its");
        assertEquals(0, twoSlots.tick(SECOND));
        final long ticket = twoSlots.table().row((short) 3).pending().ticket();
        assertTrue(twoSlots.submitMeasurement((short) 3, ticket, measurement(1000, 1.46, 1.6), "test", 2 * SECOND)
            .accepted());
        assertEquals(1, twoSlots.tick(2 * SECOND));
        assertNotNull(twoSlots.table().row((short) 4).pending(), "opened once ws1's agent is free");
    }

    private static MibReading mib(final int client, final int peer, final int port) {
        return new MibReading((short) client, (short) peer, (short) port);
    }

    /**
     * An engine over the given connections with the TAC-4 thesis profile loaded, no minimum interval
     * between measurements, and the given limits on open requests and round trips.
     *
     * @param concurrentMeasurements how many requests may be open at once
     * @param roundTripsPerSecond    the round-trip budget that refills each second
     */
    private UpdateEngine limitedEngine(final int concurrentMeasurements, final long roundTripsPerSecond,
                                       final ConnectionSpec... specs) throws Exception {
        final Profile tac4 = ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
        return new UpdateEngine(new ConnectionTable(Arrays.stream(specs).map(spec -> ConnectionRow.initial(spec, 0)).toList()),
            Map.of(tac4.name(), tac4), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, concurrentMeasurements, 20,
                roundTripsPerSecond), tickets::incrementAndGet, () -> 42L);
    }

    private ConnectionRow row(final int indexRef) {
        return engine.table().row((short) indexRef);
    }

    @Test
    void qos1RecomputesFromTheProfileOnEachStateChangeAndKeepsPreviousValues() {
        assertTrue(engine.applyMib((short) 1, mib(10, 80, 50), 0));
        ConnectionRow row = row(1);
        assertEquals(2.386, row.estimate().valueMillis(), 1e-12, "Appendix A TAC-4 256 B 0-33/67-100");
        assertEquals((float) (2.386 + Z * 0.05), row.upperBoundEstimate(), 1e-6);
        assertEquals(13, row.load().cpu().code());
        assertEquals(0, row.load().port().code());
        assertFalse(row.updateRequired());
        engine.applyMib((short) 1, mib(10, 80, 95), SECOND);
        row = row(1);
        assertEquals(2.386 + 1.0 / (1 - 0.4), row.estimate().valueMillis(), 1e-9, "port at 95 % adds 1.667 ms");
        assertEquals(95, row.load().port().code());
        assertEquals(mib(10, 80, 50), row.previous());
        assertEquals(mib(10, 80, 95), row.latest());
    }

    @Test
    void withLoadedBandsAPortJitteringNearItsRateIsOneStateAndItsMeasurementIsNotSuperseded() {
        final UpdateEngine banded = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec(3, 3, 0, null), 0))),
            Map.of(), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0,
                PortBands.of(List.of(95, 98)), 0, MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 42L);
        banded.applyMib((short) 3, mib(10, 10, 100), 0);
        final ConnectionRow first = banded.table().row((short) 3);
        assertEquals(100, first.load().port().code(), "the 99-100 % band is named by its upper edge");
        final long ticket = first.pending().ticket();
        long now = 0;
        for (final int reading : new int[] {98, 99, 100, 98, 100, 99}) {
            now += SECOND;
            banded.applyMib((short) 3, mib(10, 10, reading), now);
            final ConnectionRow row = banded.table().row((short) 3);
            assertEquals(100, row.load().port().code(), "at " + reading + " %");
            assertEquals(ticket, row.pending().ticket(), "the measurement of the band stays open at " + reading + " %");
        }
        banded.applyMib((short) 3, mib(10, 10, 93), now + SECOND);
        assertEquals(95, banded.table().row((short) 3).load().port().code(), "a clear step down is a new state at once");
        assertNotEquals(ticket, banded.table().row((short) 3).pending().ticket());
    }

    @Test
    void withTheThesisStatesEveryLoadedPercentIsANewState() {
        engine.applyMib((short) 3, mib(10, 10, 100), 0);
        engine.applyMib((short) 3, mib(10, 10, 98), SECOND);
        assertEquals(98, row(3).load().port().code());
        engine.applyMib((short) 3, mib(10, 10, 99), 2 * SECOND);
        assertEquals(99, row(3).load().port().code());
    }

    @Test
    void qos2OnAProfileWithoutHistogramsServesNothingAndSaysWhy() {
        engine.applyMib((short) 2, mib(10, 10, 10), 0);
        assertFalse(row(2).acknowledged());
        assertTrue(row(2).unavailableReason().contains("no latency histograms"), row(2).unavailableReason());
    }

    @Test
    void unknownInputKeepsTheLastEstimateButMarksItStale() {
        engine.applyMib((short) 1, mib(10, 10, 10), 0);
        final double served = row(1).estimate().valueMillis();
        engine.applyMib((short) 1, mib(-1, 10, 10), SECOND);
        assertEquals(served, row(1).estimate().valueMillis());
        assertEquals(CpuState.UNKNOWN, row(1).load().cpu().client());
        assertEquals("client workstation CPU utilisation unknown", row(1).staleInputs().reason());
        engine.applyMib((short) 1, mib(12, 10, 10), 2 * SECOND);
        assertEquals(StaleInputs.NONE, row(1).staleInputs(), "recovers by itself");
    }

    @Test
    void qos3RaisesTheFlagAndAcceptsOnlyTheOpenTicket() {
        engine.applyMib((short) 3, mib(50, 50, 10), 0);
        ConnectionRow row = row(3);
        assertTrue(row.updateRequired());
        assertNotNull(row.pending());
        assertEquals(1, requested.size());
        final long ticket = row.pending().ticket();
        final Measurement measurement = measurement(1000, 1.46, 1.6);
        final SubmitOutcome forged = engine.submitMeasurement((short) 3, ticket + 1, measurement, "test", SECOND);
        assertFalse(forged.accepted());
        assertTrue(forged.reason().contains("not the open ticket"), forged.reason());
        assertTrue(row(3).updateRequired(), "a forged result changes nothing");
        assertTrue(engine.submitMeasurement((short) 3, ticket, measurement, "test", SECOND).accepted());
        row = row(3);
        assertFalse(row.updateRequired());
        assertEquals(EstimateKind.AVERAGE, row.estimate().kind());
        assertEquals(1.46, row.estimate().valueMillis());
        assertEquals(1.46 - Z * 1.6 / Math.sqrt(1000), row.estimate().interval().lower(), 1e-12);
        final SubmitOutcome again = engine.submitMeasurement((short) 3, ticket, measurement, "test", 2 * SECOND);
        assertFalse(again.accepted(), "a ticket is good once");
    }

    @Test
    void lateResultIsRefusedAndTheTimedOutRequestIsReissuedWithANewTicket() {
        engine.applyMib((short) 4, mib(80, 80, 10), 0);
        final long first = row(4).pending().ticket();
        assertEquals(0, engine.tick(29 * SECOND));
        final SubmitOutcome late = engine.submitMeasurement((short) 4, first, measurement(100, 2, 1), "test", 31 * SECOND);
        assertTrue(late.reason().contains("late"), late.reason());
        assertEquals(1, engine.tick(31 * SECOND));
        final long second = row(4).pending().ticket();
        assertNotEquals(first, second);
        assertEquals(2, row(4).pending().attempt());
        assertTrue(row(4).updateRequired());
        assertEquals(2, requested.size());
        assertTrue(engine.submitMeasurement((short) 4, second, measurement(100, 2, 1), "test", 32 * SECOND).accepted());
        assertEquals(EstimateKind.BOUND, row(4).estimate().kind());
        assertEquals(96.0, row(4).estimate().boundPercent());
    }

    @Test
    void aMeasurementDueTooSoonIsCoalescedNotDropped() {
        engine.applyMib((short) 3, mib(10, 10, 10), 0);
        final long ticket = row(3).pending().ticket();
        engine.submitMeasurement((short) 3, ticket, measurement(1000, 1.2, 0.3), "test", SECOND);
        // Three changes within the 5 s minimum interval: one deferred request.
        engine.applyMib((short) 3, mib(50, 10, 10), 2 * SECOND);
        engine.applyMib((short) 3, mib(80, 10, 10), 3 * SECOND);
        engine.applyMib((short) 3, mib(50, 50, 10), 4 * SECOND);
        assertNull(row(3).pending());
        assertTrue(row(3).updateRequired(), "still flagged: a measurement is due");
        assertEquals(0, engine.tick(4_900 * MS));
        assertEquals(1, engine.tick(5 * SECOND));
        assertNotNull(row(3).pending());
        assertEquals(2, requested.size(), "one request for the first state, one for the last");
    }

    @Test
    void thesisUpdateResponseIsAcceptedOnlyWhileAMeasurementIsPending() {
        final SubmitOutcome notPending = engine.submitThesisResponse((short) 3, 1.5f, 0f, 1.6f, 1.4f, (short) 1, 0);
        assertTrue(notPending.reason().contains("no measurement is pending"), notPending.reason());
        engine.applyMib((short) 3, mib(10, 10, 10), 0);
        assertTrue(engine.submitThesisResponse((short) 3, 1.46f, 0f, 1.56f, 1.36f, (short) 1, SECOND).accepted());
        assertEquals(1.46f, row(3).latencyEstimateMillis());
        assertEquals(1.36f, row(3).lowerBoundEstimate(), 1e-6);
        assertFalse(row(3).updateRequired());
        engine.applyMib((short) 4, mib(10, 10, 10), 0);
        final SubmitOutcome nonsense = engine.submitThesisResponse((short) 4, 0f, -5f, 98f, 97f, (short) 1, SECOND);
        assertFalse(nonsense.accepted());
        assertEquals(Refusal.Kind.UNKNOWN_CONNECTION,
            engine.submitThesisResponse((short) 99, 1f, 1f, 1f, 1f, (short) 1, 0).kind());
    }

    @Test
    void eachMeasurementTestsTheEstimateServedBeforeIt() {
        engine.applyMib((short) 3, mib(10, 10, 10), 0);
        engine.submitMeasurement((short) 3, row(3).pending().ticket(), measurement(1000, 1.5, 0.3), "test", SECOND);
        engine.applyMib((short) 3, mib(80, 10, 10), 10 * SECOND);
        engine.submitMeasurement((short) 3, row(3).pending().ticket(), measurement(1000, 2.0, 0.3), "test", 11 * SECOND);
        // The second measurement (HIGH/LOW) tested the 1.5 ms still served from LOW/LOW: 25 % off.
        final var tested = row(3).currentKnowledge().meanErrors();
        assertEquals(1, tested.windows());
        assertEquals(0.25, tested.medianRelativeError(), 1e-12, "|1.5 - 2.0| / 2.0");
        assertEquals(0, tested.insideInterval(), "2.0 ms lies far outside the 1.5 ms mean's interval");
    }

    @Test
    void aRequestBeyondTheConcurrencyBudgetWaitsForASlotAndIsNotDropped() throws Exception {
        final UpdateEngine oneAtATime = limitedEngine(1, 20_000, spec(3, 3, 0, null), spec(4, 4, 96, null));
        oneAtATime.applyMib((short) 3, mib(10, 10, 10), 0);
        oneAtATime.applyMib((short) 4, mib(10, 10, 10), 0);
        final ConnectionRow three = oneAtATime.table().row((short) 3);
        assertNotNull(three.pending());
        assertNull(oneAtATime.table().row((short) 4).pending(), "the budget of one is taken");
        assertTrue(oneAtATime.table().row((short) 4).updateRequired(), "but the request is due, not dropped");
        assertEquals(0, oneAtATime.tick(SECOND), "no slot while connection 3 is measured");
        assertTrue(oneAtATime.submitMeasurement((short) 3, three.pending().ticket(), measurement(1000, 1.2, 0.3), "test",
            2 * SECOND).accepted());
        assertEquals(1, oneAtATime.tick(2 * SECOND));
        assertNotNull(oneAtATime.table().row((short) 4).pending());
    }

    @Test
    void requestsBeyondTheRoundTripBudgetPerSecondWaitForTheBudgetToRefill() throws Exception {
        // 1000 round trips per request, 1500 per second: the first request fits, the second must
        // wait until 500 more have accrued (1/3 s), however many slots are free.
        final UpdateEngine budgeted = limitedEngine(2, 1_500, spec(3, 3, 0, null), otherClient(4, 4, 96));
        budgeted.applyMib((short) 3, mib(10, 10, 10), 0);
        budgeted.applyMib((short) 4, mib(10, 10, 10), 0);
        assertNotNull(budgeted.table().row((short) 3).pending());
        assertNull(budgeted.table().row((short) 4).pending(), "1500 - 1000 leaves too little for a second request");
        assertTrue(budgeted.table().row((short) 4).updateRequired(), "it waits, it is not dropped");
        assertEquals(0, budgeted.tick(300 * MS), "450 accrued by 0.3 s: still short of 500");
        assertEquals(1, budgeted.tick(340 * MS), "510 accrued by 0.34 s");
        assertNotNull(budgeted.table().row((short) 4).pending());
    }

    @Test
    void anUnknownPortMarksTheEstimateStaleWithItsReasonAndAKnownOneClearsIt() {
        engine.applyMib((short) 1, mib(10, 10, 50), 0);
        assertEquals(StaleInputs.NONE, row(1).staleInputs());
        engine.applyMib((short) 1, mib(10, 10, -1), 0);
        assertEquals("switch port utilisation unknown", row(1).staleInputs().reason());
        assertEquals(1.365, row(1).estimate().valueMillis(), 1e-12, "the last good estimate is kept");
        engine.applyMib((short) 1, mib(10, -1, -1), 0);
        assertEquals("peer workstation CPU utilisation unknown; switch port utilisation unknown", row(1).staleInputs().reason());
        engine.applyMib((short) 1, mib(10, 10, 50), 0);
        assertEquals(StaleInputs.NONE, row(1).staleInputs());
    }

    @Test
    void aStateChangeReplacesTheConnectionsOwnOpenRequestWithoutWaitingForItsSlot() throws Exception {
        final UpdateEngine oneAtATime = limitedEngine(1, 20_000, spec(3, 3, 0, null));
        oneAtATime.applyMib((short) 3, mib(10, 10, 10), 0);
        final long first = oneAtATime.table().row((short) 3).pending().ticket();
        oneAtATime.applyMib((short) 3, mib(80, 10, 10), SECOND);
        final ConnectionRow row = oneAtATime.table().row((short) 3);
        assertNotNull(row.pending(), "the new state's request opens at once in the slot the old one held");
        assertTrue(row.pending().ticket() != first, "with a new ticket: a result for the old state is refused");
    }

    /** n round trips in 1 ms bins, all within 0..3 ms; mean and sd as given. */
    private static Measurement measurement(final int n, final double meanMillis, final double stdDevMillis) {
        final long[] counts = {n / 2, n - n / 2 - n / 10, n / 10};
        return new Measurement(LatencyHistogram.uniform(MS, counts, 0), n, meanMillis, stdDevMillis, 2.9);
    }

    @Test
    void aPolledPointOfJitterWithinTheLoadStateIsNotPublishedButTwoPointsOrUnknownAre() {
        assertTrue(engine.applyPolledMib((short) 1, mib(90, 10, 10), 0));
        final long published = row(1).version();
        engine.applyPolledMib((short) 1, mib(91, 10, 10), SECOND);
        engine.applyPolledMib((short) 1, mib(89, 10, 10), 2 * SECOND);
        assertEquals(published, row(1).version(), "89 and 91 after 90, all HIGH: tick noise, not a change");
        assertEquals(mib(90, 10, 10), row(1).latest(), "the row keeps the value it had");
        assertEquals(2, engine.polledJitterKept());
        engine.applyPolledMib((short) 1, mib(92, 10, 10), 3 * SECOND);
        assertEquals(mib(92, 10, 10), row(1).latest(), "two points from the kept value: published");
        engine.applyPolledMib((short) 1, mib(-1, 10, 10), 4 * SECOND);
        assertEquals(CpuState.UNKNOWN, row(1).load().cpu().client(), "an end turning UNKNOWN is published");
        assertTrue(row(1).staleInputs().isStale());
        engine.applyPolledMib((short) 1, mib(92, 10, 10), 5 * SECOND);
        assertEquals(CpuState.HIGH, row(1).load().cpu().client(), "and so is its return");
        final long beforePush = row(1).version();
        assertTrue(engine.applyMib((short) 1, mib(93, 10, 10), 6 * SECOND));
        assertEquals(beforePush + 1, row(1).version(), "a pushed value (PutMibUpdates) is always published");
        assertEquals(mib(93, 10, 10), row(1).latest());
        assertFalse(engine.applyPolledMib((short) 99, mib(10, 10, 10), 7 * SECOND), "no such connection");
    }

    @Test
    void aPolledOnePointStepThatChangesTheLoadStateIsPublished() {
        engine.applyPolledMib((short) 1, mib(30, 10, 10), 0);
        int changes = 0;
        for (int percent = 31; percent <= 45; percent++) {
            final ConnectionRow before = row(1);
            engine.applyPolledMib((short) 1, mib(percent, 10, 10), percent * SECOND);
            final CpuState reached = CpuStateClassifier.withDefaults().classify(percent, before.load().cpu().client());
            if (reached != before.load().cpu().client()) {
                changes++;
                assertEquals(reached, row(1).load().cpu().client(), "at " + percent + " %");
                assertEquals(before.version() + 1, row(1).version(), "the change at " + percent + " % is published");
                assertNotEquals(before.estimate(), row(1).estimate(), "with the profile's estimate for the new state");
            }
        }
        assertEquals(1, changes, "LOW -> MEDIUM once on the way from 30 % to 45 %");
        assertEquals(CpuState.MEDIUM, row(1).load().cpu().client());
    }

    @Test
    void qos1ConnectionsEnteringTheSameStateShareOneProfileEstimate() throws Exception {
        final ConnectionSpec other = new ConnectionSpec((short) 5, "ws3", (short) 3, WorkstationType.TAC_4, "ws4", (short) 4,
            WorkstationType.TAC_4, "port-b", 256, 1, 0, "thesis-tac4-corba");
        final UpdateEngine two = limitedEngine(1, 1000, spec(1, 1, 0, "thesis-tac4-corba"), other);
        two.applyMib((short) 1, mib(10, 80, 50), 0);
        two.applyMib((short) 5, mib(12, 85, 40), 0);
        assertSame(two.table().row((short) 1).estimate(), two.table().row((short) 5).estimate(), "0-33/67-100, 256 B: one estimate");
        two.applyMib((short) 5, mib(50, 85, 40), SECOND);
        assertNotEquals(two.table().row((short) 1).estimate(), two.table().row((short) 5).estimate(), "34-66/67-100: another");
    }
}
