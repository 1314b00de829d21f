package org.latencyserver.benchmarks.realport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RealPortAnalysisTest {

    static final long T0 = 1_000_000;

    static RunRecord record(final List<RunRecord.Change> changes, final List<RunRecord.Sample> samples,
                            final List<RunRecord.Request> requests, final List<RunRecord.Filed> filed,
                            final List<RunRecord.PortCounter> counters, final List<RunRecord.Metrics> metrics, final long end) {
        return new RunRecord(5, 20, 100, 5100, 100, T0, end, changes, samples, requests, filed, counters, metrics);
    }

    private static RunRecord.Sample qos1(final long at, final int tablePort, final double value, final int estimatePort) {
        return new RunRecord.Sample(at, 1, tablePort, true, value, estimatePort, "profile", 0, at);
    }

    @Test
    void nearestRankPercentiles() {
        assertEquals(3, RealPortAnalysis.percentile(List.of(5L, 1L, 3L, 4L, 2L), 50));
        assertEquals(2, RealPortAnalysis.percentile(List.of(1L, 2L, 3L, 4L), 50));
        assertEquals(4, RealPortAnalysis.percentile(List.of(1L, 2L, 3L, 4L), 100));
        assertEquals(7, RealPortAnalysis.percentile(List.of(7L), 50));
        assertTrue(Double.isNaN(RealPortAnalysis.percentile(List.of(), 50)));
    }

    @Test
    void aLoadShowsItsStateFamily() {
        assertTrue(RealPortAnalysis.shows(0, 0));
        assertFalse(RealPortAnalysis.shows(0, 95));
        assertTrue(RealPortAnalysis.shows(95, 91) && RealPortAnalysis.shows(95, 98) && RealPortAnalysis.shows(95, 100));
        assertTrue(RealPortAnalysis.shows(95, 101), "the agents' traffic on top of 95 % may make the port drop");
        assertFalse(RealPortAnalysis.shows(95, 0));
        assertTrue(RealPortAnalysis.shows(115, 101));
        assertFalse(RealPortAnalysis.shows(115, 100));
    }

    @Test
    void aChangeIsTimedToTheFirstReadOfTheNewStateAndToTheFirstNewEstimateInIt() {
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 0, 95, T0 + 1000), new RunRecord.Change(1, 95, 115, T0 + 10_000),
            new RunRecord.Change(1, 115, 0, T0 + 20_000));
        final List<RunRecord.Sample> samples = new ArrayList<>();
        for (long t = T0; t < T0 + 30_000; t += 100) {
            final long rel = t - T0;
            // the table follows at +2.5 s; the estimate one read later; overload's estimate keeps its value
            final int table = rel < 3500 ? 0 : rel < 12_500 ? 98 : rel < 22_500 ? 101 : 0;
            final int est = rel < 3600 ? 0 : rel < 12_600 ? 98 : rel < 22_600 ? 101 : 0;
            final double value = est == 0 ? 0.3 : 10.0;
            // (98 and 101 serve the same value here: the queue model at the rate)
            samples.add(qos1(t, table, value, est));
        }
        final RunRecord run = record(changes, samples, List.of(), List.of(), List.of(), List.of(), T0 + 30_000);
        final List<RealPortAnalysis.Timed> timed = RealPortAnalysis.timeChanges(run, 1);
        assertEquals(2500L, timed.get(0).toStateMillis());
        assertEquals(2600L, timed.get(0).toEstimateMillis());
        assertTrue(timed.get(0).valueChanged());
        assertEquals(2600L, timed.get(1).toEstimateMillis());
        assertFalse(timed.get(1).valueChanged(), "same model value in both states: timed to the first estimate in the new state");
        assertFalse(timed.get(1).alreadyShown());
        assertEquals(RealPortAnalysis.Kind.OVERLOAD_TO_IDLE, timed.get(2).kind());
        final List<RealPortAnalysis.KindSummary> summary = RealPortAnalysis.summarise(timed);
        assertEquals(3, summary.size());
        assertEquals(1, summary.get(1).valueUnchanged());
        assertEquals(2600, summary.get(2).estimateMaxMillis());
        assertEquals(Map.of(98, 1), summary.get(0).firstStates());
    }

    @Test
    void aChangeWhoseStateWasAlreadyShownIsLeftOutOfTheTimings() {
        // 95 % plus the agents' traffic already SATURATED before the overload began
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 0, 95, T0 + 1000), new RunRecord.Change(1, 95, 115, T0 + 10_000));
        final List<RunRecord.Sample> samples = new ArrayList<>();
        for (long t = T0; t < T0 + 20_000; t += 100) {
            final int state = t - T0 < 4000 ? 0 : 101;
            samples.add(qos1(t, state, state == 0 ? 0.3 : 10.0, state));
        }
        final List<RealPortAnalysis.KindSummary> summary = RealPortAnalysis.summarise(RealPortAnalysis.timeChanges(record(changes, samples,
            List.of(), List.of(), List.of(), List.of(), T0 + 20_000), 1));
        assertEquals(0, summary.get(0).alreadyShown());
        assertEquals(3000, summary.get(0).stateP50Millis());
        assertEquals(Map.of(101, 1), summary.get(0).firstStates());
        assertEquals(1, summary.get(1).alreadyShown());
        assertEquals(0, summary.get(1).timed());
        assertTrue(Double.isNaN(summary.get(1).stateP50Millis()));
    }

    @Test
    void aChangeNotShownWithinItsStepIsNotReached() {
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 0, 95, T0 + 1000), new RunRecord.Change(1, 95, 0, T0 + 3000));
        final List<RunRecord.Sample> samples = new ArrayList<>();
        for (long t = T0; t < T0 + 6000; t += 100) {
            samples.add(qos1(t, 0, 0.3, 0));
        }
        final List<RealPortAnalysis.Timed> timed = RealPortAnalysis.timeChanges(record(changes, samples, List.of(), List.of(), List.of(),
            List.of(), T0 + 6000), 1);
        assertNull(timed.get(0).toStateMillis());
        assertNull(timed.get(0).toEstimateMillis());
        assertEquals(0, RealPortAnalysis.summarise(timed).get(0).stateReached());
    }

    @Test
    void aResultIsTakenBackWhenItsStateRevertsAndStillFiledOnesAreCheckedAgainstTheTimeline() {
        // load: idle until +20 s, then 95 %
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 0, 95, T0 + 20_000));
        final List<RunRecord.Request> requests = List.of(
            new RunRecord.Request(3, T0 + 1000, T0 + 1000, T0 + 5000, "start", 2_848_000, 10_000, 256),
            new RunRecord.Request(3, T0 + 14_000, T0 + 14_000, T0 + 21_000, "drift", 2_848_000, 10_000, 256),
            new RunRecord.Request(4, T0 + 15_000, T0 + 15_000, T0 + 22_000, "drift", 8_992_000, 10_000, 1024));
        final List<RunRecord.Filed> filed = List.of(
            new RunRecord.Filed(T0 + 5100, 3, 11, 0, 1, T0 + 5050),      // accepted at +5.05 s, no change in it: fine
            new RunRecord.Filed(T0 + 21_100, 3, 11, 0, 2, T0 + 21_050),  // accepted at +21.05 s, spans the change at +20 s ...
            new RunRecord.Filed(T0 + 23_000, 3, 11, 0, 1, T0 + 5050),    // ... and taken back at +23 s
            new RunRecord.Filed(T0 + 22_100, 4, 11, 0, 1, T0 + 22_050)); // accepted at +22.05 s, spans it, never taken back
        final List<RunRecord.Metrics> metrics = List.of(new RunRecord.Metrics(T0, 2, Map.of("sw1-ws2", 3.0)),
            new RunRecord.Metrics(T0 + 30_000, 3, Map.of("sw1-ws2", 3.0)));
        final RunRecord run = record(changes, List.of(), requests, filed, List.of(), metrics, T0 + 30_000);
        final List<RealPortAnalysis.Result> results = RealPortAnalysis.results(run);
        assertEquals(3, results.size());
        assertEquals(T0 + 23_000, results.get(1).takenBackMillis());
        final RealPortAnalysis.FiledCheck check = RealPortAnalysis.checkFiled(run);
        assertEquals(3, check.accepted());
        assertEquals(2, check.stillFiled());
        assertEquals(1, check.takenBack());
        assertEquals(1, check.takenBackSpanning());
        assertEquals(1.0, check.metricTakenBack());
        assertEquals(1, check.spanningRun(), "connection 4's result ran across the change");
        assertEquals(1, check.spanningWide());
        assertEquals(T0 + 22_050, check.offenders().get(0).acceptedMillis());
        assertEquals(3.0, RealPortAnalysis.refreshSeconds(run, "sw1-ws2"));
    }

    @Test
    void aResultWhoseRunIsBoundedByItsBudgetDoesNotSpanAChangeBeforeIt() {
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 95, 0, T0 + 2000));
        final List<RunRecord.Request> requests = List.of(new RunRecord.Request(3, T0 + 1000, T0 + 1000, T0 + 14_000, "x", 0, 10_000, 256));
        final List<RunRecord.Filed> filed = List.of(new RunRecord.Filed(T0 + 14_100, 3, 11, 0, 1, T0 + 14_000));
        final RealPortAnalysis.FiledCheck check = RealPortAnalysis.checkFiled(record(changes, List.of(), requests, filed, List.of(), List.of(),
            T0 + 20_000));
        assertEquals(0, check.spanningRun(), "its recorded run began at +3.5 s at the earliest, after the change");
        assertEquals(1, check.spanningWide(), "but its request was issued before it");
        assertEquals(0, check.filedUnderOtherState());
        assertTrue(Double.isNaN(check.metricTakenBack()));
    }

    @Test
    void theMetricsNeededAreReadFromTheExposition() {
        final RunRecord.Metrics m = PortRun.metricsOf(5, String.join("\n", "# HELP x", "latency_server_measurements_taken_back_total 4.0",
            "latency_server_snmp_counter_refresh_seconds{source=\"sw1-ws2\"} 3.01",
            "latency_server_snmp_counter_refresh_seconds{source=\"ws1\"} 5.0", ""));
        assertEquals(4.0, m.takenBack());
        assertEquals(3.01, m.refreshSeconds().get("sw1-ws2"));
        assertEquals(5.0, m.refreshSeconds().get("ws1"));
    }
}
