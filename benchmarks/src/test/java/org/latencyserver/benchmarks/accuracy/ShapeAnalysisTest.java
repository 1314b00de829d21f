package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.benchmarks.accuracy.ShapeAnalysis.ShapeAccuracy;
import org.latencyserver.benchmarks.accuracy.ShapeTargets.Verdict;

/** The figures per application shape, from synthetic bursts whose answers are known. */
class ShapeAnalysisTest {

    private static final int LOW_LOW = 11;
    private static final int HIGH_HIGH = 33;

    /** A QoS 2 burst at 96 %: {@code below} round trips of 1 ms and the rest of 5 ms, against a bound of 1 ms. */
    private static BurstRecord boundBurst(final String shape, final int cpuState, final int roundTrips, final int below,
                                          final double boundMs, final long oneRttNanos) {
        final long[] nanos = new long[roundTrips];
        for (int i = 0; i < roundTrips; i++) {
            nanos[i] = i < below ? oneRttNanos : 5_000_000L;
        }
        return new BurstRecord(1, 2, 2, "ws1", "ws2", 256, cpuState, 0, cpuState, 0, true, "", "BOUND", boundMs, boundMs, 96, 95, 97,
            "percent", "profile", "", false, false, 0, nanos).withShape(shape, 2_000, "arrays");
    }

    /** A QoS 3 burst: served mean {@code servedMs} with interval [lower, upper] ms, round trips of the given µs. */
    static BurstRecord meanBurst(final String shape, final int cpuState, final double servedMs, final double lowerMs,
                                 final double upperMs, final long... rttMicros) {
        final long[] nanos = java.util.Arrays.stream(rttMicros).map(micros -> micros * 1_000).toArray();
        return new BurstRecord(1, 3, 3, "ws1", "ws2", 256, cpuState, 0, cpuState, 0, true, "", "AVERAGE", servedMs, servedMs, 0, lowerMs,
            upperMs, "ms", "measurement", "", false, false, 0, nanos).withShape(shape, 500, "octets");
    }

    private static StateAccuracy state(final ShapeAccuracy shape, final int indexRef, final String label) {
        return shape.connections().stream().filter(connection -> connection.indexRef() == indexRef).findFirst().orElseThrow()
            .states().stream().filter(state -> state.state().label().equals(label)).findFirst().orElseThrow();
    }

    @Test
    void eachBoundIsCountedUnderWhatItWasReadAtFromItsCorrection() {
        final List<BurstRecord> records = new ArrayList<>();
        for (final String correction : List.of("shape model from 20 trains: the state's bound 1.0000 ms × 1.500 for bursts",
            "adaptive conformal: read at 97.00 %; level for the shape: spacing 5–10 ms (the class's own level in this state)",
            "adaptive conformal: read at 98.00 %; level for the worst shape seen: x (the level of the worst shape class seen)",
            "shape model from 21 trains: the state's bound 1.0000 ms × 0.700 for bursts")) {
            final BurstRecord burst = boundBurst("random", LOW_LOW, 10, 10, 1.0, 1_000_000L);
            records.add(new BurstRecord(burst.epochMillis(), burst.indexRef(), burst.quality(), burst.clientNode(), burst.peerNode(),
                burst.messageSizeBytes(), burst.cpuState(), burst.portState(), burst.cpuStateAfter(), burst.portStateAfter(), true, "",
                "BOUND", 1.0, 1.0, 96, 95, 97, "percent", "profile", correction, false, false, 0, burst.rttNanos())
                .withShape("random", 2_000, "arrays"));
        }
        assertEquals("bounds read at: shape model 2, the class's own level 1, the class's excess 0, the worst class 1,"
            + " the state's level or the thesis 0", ShapeAnalysis.analyse(records, false).get(0).boundBases());
    }

    @Test
    void eachMeanIsCountedUnderWhatItWasMadeFromAfterTheBounds() {
        final List<BurstRecord> records = new ArrayList<>();
        records.add(boundBurst("slow", LOW_LOW, 10, 10, 1.0, 1_000_000L));
        for (final String correction : List.of("shape mean: thesis mean × 1.412, the shape's mean over its state's thesis mean",
            "learned factor 1.469 from 19 windows", "shape mean: thesis mean × 1.390, the shape's mean over its state's thesis mean")) {
            final BurstRecord burst = meanBurst("slow", LOW_LOW, 1.0, 0.5, 1.5, 1_000, 1_100);
            records.add(new BurstRecord(burst.epochMillis(), burst.indexRef(), burst.quality(), burst.clientNode(), burst.peerNode(),
                burst.messageSizeBytes(), burst.cpuState(), burst.portState(), burst.cpuStateAfter(), burst.portStateAfter(), true, "",
                "AVERAGE", 1.0, 1.0, 0, 0.5, 1.5, "ms", "measurement", correction, false, false, 0, burst.rttNanos())
                .withShape("slow", 10_000, "arrays"));
        }
        assertEquals("means from: the shape mean model 2, the state's served mean 1", ShapeAnalysis.meanBases(records));
        assertEquals("bounds read at: shape model 0, the class's own level 0, the class's excess 0, the worst class 0,"
            + " the state's level or the thesis 1; means from: the shape mean model 2, the state's served mean 1",
            ShapeAnalysis.analyse(records, false).get(0).boundBases());
    }

    @Test
    void eachShapeIsJudgedOnItsOwnBurstsAndItsOwnTruePercentile() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            // "probes": 24 of 25 round trips at 1 ms, under a 1 ms bound: 96 %, and the bound is its own p96
            records.add(boundBurst("probes", LOW_LOW, 25, 24, 1.0, 1_000_000L));
            // "slow": every round trip at 2 ms, over the same 1 ms bound: 0 %
            records.add(boundBurst("slow", LOW_LOW, 25, 25, 1.0, 2_000_000L));
        }
        final List<ShapeAccuracy> shapes = ShapeAnalysis.analyse(records, false);
        assertEquals(List.of("probes", "slow"), shapes.stream().map(ShapeAccuracy::shape).toList(), "in the order first recorded");
        assertEquals("spacing 2000 µs, 25 round trips, arrays", shapes.get(0).played());
        assertEquals("bounds read at: shape model 0, the class's own level 0, the class's excess 0, the worst class 0,"
            + " the state's level or the thesis 50", shapes.get(0).boundBases());
        final ShapeTargets targets = ShapeTargets.loopback(40);

        final StateAccuracy probes = state(shapes.get(0), 2, "LOW/LOW NORMAL");
        assertEquals(50, probes.bursts());
        assertEquals(0.96, probes.bound().served().share(), 1e-9);
        assertEquals(1.0, probes.bound().percentileMs(), 1e-9, "the p96 of this shape's round trips, not of every shape's");
        assertEquals(1.0, probes.bound().servedRatio(), 1e-9);
        assertEquals(Verdict.PASS, targets.statePoint(probes));
        assertEquals(Verdict.PASS, targets.stateInterval(probes));
        assertEquals(Verdict.PASS, targets.boundRatio(probes));
        assertEquals(Verdict.PASS, targets.pooledCoverage(state(shapes.get(0), 2, "all states")));

        final StateAccuracy slow = state(shapes.get(1), 2, "LOW/LOW NORMAL");
        assertEquals(0.0, slow.bound().served().share(), 1e-9);
        assertEquals(2.0, slow.bound().percentileMs(), 1e-9);
        assertEquals(0.5, slow.bound().servedRatio(), 1e-9);
        assertEquals(Verdict.MISS, targets.statePoint(slow));
        assertEquals(Verdict.MISS, targets.stateInterval(slow));
        assertEquals(Verdict.PASS, targets.boundRatio(slow), "a bound below the truth is not too loose");
        assertEquals(Verdict.MISS, targets.pooledCoverage(state(shapes.get(1), 2, "all states")));
    }

    @Test
    void aStateIsJudgedOnItsPointAndItsIntervalSeparatelyAndOnlyWithEnoughBursts() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            // 93 or 94 of 100 under the bound: 93.5 %, within 96 ± 2.5, with an interval far too narrow to reach 94.5
            records.add(boundBurst("fast-bursty", LOW_LOW, 100, i % 2 == 0 ? 93 : 94, 1.0, 1_000_000L));
        }
        for (int i = 0; i < 39; i++) {
            records.add(boundBurst("fast-bursty", HIGH_HIGH, 100, 50, 1.0, 1_000_000L));
        }
        final ShapeAccuracy shape = ShapeAnalysis.analyse(records, false).get(0);
        final ShapeTargets targets = ShapeTargets.loopback(40);
        final StateAccuracy narrow = state(shape, 2, "LOW/LOW NORMAL");
        assertEquals(0.935, narrow.bound().served().share(), 1e-9);
        assertTrue(narrow.bound().served().upper() < 0.945, "interval " + narrow.bound().served());
        assertEquals(Verdict.PASS, targets.statePoint(narrow));
        assertEquals(Verdict.MISS, targets.stateInterval(narrow));
        final StateAccuracy few = state(shape, 2, "HIGH/HIGH NORMAL");
        assertEquals(39, few.bursts());
        assertEquals(Verdict.FEW_DATA, targets.statePoint(few), "50 % coverage, but 39 bursts are not judged");
        assertEquals(Verdict.FEW_DATA, targets.stateInterval(few));
        assertEquals(Verdict.PASS, ShapeTargets.loopback(39).statePoint(narrow));
        assertEquals(Verdict.MISS, ShapeTargets.loopback(39).statePoint(few), "with the minimum lowered it is judged");
    }

    @Test
    void aServedMeanIsComparedWithThePooledMeanOfEverythingThatFollowedIt() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            // served 1 ms; its bursts alternate 0.5 ms and 1.5 ms: each burst is far off, all of them together 0 %
            records.add(meanBurst("mixed", LOW_LOW, 1.0, 0.9, 1.1, 500, 500));
            records.add(meanBurst("mixed", LOW_LOW, 1.0, 0.9, 1.1, 1_500, 1_500));
        }
        // two more served means, one burst each: 9 % and 50 % above what followed
        records.add(meanBurst("mixed", LOW_LOW, 1.09, 0.9, 1.2, 1_000, 1_000));
        records.add(meanBurst("mixed", LOW_LOW, 1.5, 0.9, 1.6, 1_000, 1_000));
        final StateAccuracy state = state(ShapeAnalysis.analyse(records, false).get(0), 3, "LOW/LOW NORMAL");
        final ServedMeans served = state.mean().servedMeans();
        assertEquals(3, served.servedMeans());
        assertEquals(0.09, served.medianError(), 1e-9, "median over served means of 0 %, 9 %, 50 %, not over bursts");
        // per burst, against each burst's own mean: 100 % (0.5 ms bursts), 33 % (1.5 ms), 9 %, 50 %
        assertEquals((1.0 / 3 + 0.5) / 2, state.mean().servedMedianRelativeError(), 1e-9, "per burst the error is far larger");
        assertEquals(0.0, served.hindsightFloor(), 1e-9, "1 ms followed every served mean: a constant 1 ms is exact");
        assertEquals(2.0 / 52, state.mean().insideIntervalShare(), 1e-9, "only the two 1 ms bursts fell inside their interval");
        final ShapeTargets targets = ShapeTargets.loopback(40);
        assertEquals(Verdict.PASS, targets.servedMean(state), "within 10 %");
        assertEquals(Verdict.MISS, targets.inside(state));
        assertEquals(Verdict.MISS, new ShapeTargets(40, 0.015, 0.025, 0.015, 1.3, 0.08, 0.9).servedMean(state));
    }

    @Test
    void servedMeansOfDifferentStatesAreNotPooledTogether() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            // the same served value in two states: followed by 1 ms in one and 2 ms in the other
            records.add(meanBurst("random", LOW_LOW, 1.0, 0.5, 1.5, 1_000));
            records.add(meanBurst("random", HIGH_HIGH, 1.0, 0.5, 1.5, 2_000));
        }
        final ServedMeans pooled = state(ShapeAnalysis.analyse(records, false).get(0), 3, "all states").mean().servedMeans();
        assertEquals(2, pooled.servedMeans());
        assertEquals(0.25, pooled.medianError(), 1e-9, "errors 0 and 50 %: their median");
        assertEquals(0.0, pooled.hindsightFloor(), 1e-9, "one constant per state");
    }

    @Test
    void theReportWritesACsvPerShapeWithItsVerdictsAndTheCost(@TempDir final Path directory) throws Exception {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            records.add(boundBurst("probes", LOW_LOW, 25, 24, 1.0, 1_000_000L));
            records.add(boundBurst("slow", LOW_LOW, 25, 25, 1.0, 2_000_000L));
        }
        final ProbeCost cost = new ProbeCost(150, Map.of(ProbeCounter.ALL_CONNECTIONS, 30.0), 2.5);
        final ShapeReport report = new ShapeReport(ShapeAnalysis.analyse(records, false), cost, ShapeTargets.loopback(40));
        final List<Path> files = report.writeCsv(directory);
        assertEquals(List.of(directory.resolve("accuracy-probes.csv"), directory.resolve("accuracy-slow.csv")), files);
        final List<String> slow = Files.readAllLines(files.get(1));
        assertEquals(ShapeReport.CSV_HEADER, slow.get(0));
        assertEquals(3, slow.size(), "the state and the pooled row");
        final List<String> cells = List.of(slow.get(1).split(",", -1));
        final List<String> header = List.of(ShapeReport.CSV_HEADER.split(","));
        assertEquals(header.size(), cells.size());
        assertEquals("slow", cells.get(header.indexOf("shape")));
        assertEquals("MISS", cells.get(header.indexOf("coverage_verdict")));
        assertEquals("PASS", cells.get(header.indexOf("bound_verdict")));
        assertEquals("30.0000", cells.get(header.indexOf("probe_round_trips_per_second")));
        assertEquals("2.50000", cells.get(header.indexOf("client_agent_cpu_percent_of_core")));
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        report.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        final String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("30.0 probe round trips/s"), printed);
        assertTrue(printed.contains("client agent CPU 2.5 % of one core"), printed);
        assertTrue(printed.contains("MISS connection 2 LOW/LOW NORMAL coverage point"), printed);
        assertTrue(printed.matches("(?s).*probes\\s+5 PASS,\\s+0 MISS.*"), printed);
    }

    @Test
    void onTheRealNetworkEachShapeHasItsPortBandRowsToo() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            records.add(portBurst("probes", LOW_LOW, 98, 1_000_000L));
            records.add(portBurst("probes", HIGH_HIGH, 98, 1_000_000L));
            records.add(portBurst("slow", LOW_LOW, 98, 3_000_000L));
        }
        final List<ShapeAccuracy> shapes = ShapeAnalysis.analyse(records, true);
        final StateAccuracy probesBand = state(shapes.get(0), 2, "port LOADED 98");
        assertEquals(40, probesBand.bursts(), "both CPU states of this shape, not the other shape's bursts");
        assertEquals(1.0, probesBand.bound().served().share(), 1e-9);
        final StateAccuracy slowBand = state(shapes.get(1), 2, "port LOADED 98");
        assertEquals(20, slowBand.bursts());
        assertEquals(0.0, slowBand.bound().served().share(), 1e-9);
        assertEquals(Verdict.MISS, ShapeTargets.realNetwork(40).statePoint(probesBand), "100 % is not 96 ± 3");
        assertEquals(Verdict.FEW_DATA, ShapeTargets.realNetwork(40).statePoint(slowBand));
    }

    private static BurstRecord portBurst(final String shape, final int cpuState, final int portState, final long rttNanos) {
        final long[] nanos = new long[25];
        java.util.Arrays.fill(nanos, rttNanos);
        return new BurstRecord(1, 2, 2, "ws1", "ws2", 256, cpuState, portState, cpuState, portState, true, "", "BOUND", 2.0, 2.0, 96, 95,
            97, "percent", "profile", "", false, false, 0, nanos).withShape(shape, 2_000, "arrays");
    }
}
