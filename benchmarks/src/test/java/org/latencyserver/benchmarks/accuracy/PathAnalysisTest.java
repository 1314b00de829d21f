package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/** Per loading pattern of a two-hop path: the union, independent and served QoS 2 bounds against what followed. */
class PathAnalysisTest {

    /** 50 round trips of 0.2, 0.4, … 10.0 ms: a bound of B ms covers B / 0.2 of them. */
    private static long[] evenRoundTrips() {
        final long[] rtt = new long[50];
        for (int i = 0; i < rtt.length; i++) {
            rtt[i] = (i + 1) * 200_000L;
        }
        return rtt;
    }

    private static BurstRecord burst(final int[] before, final int[] after, final String source, final double servedMs,
                                     final double thesisMs, final double unionMs, final double independentMs) {
        final int worst = Math.max(before[0], before[1]);
        final int worstAfter = Math.max(after[0], after[1]);
        return new BurstRecord(1, 2, 2, "ws1", "ws2", 256, 11, worst, 11, worstAfter, true, "", "BOUND", servedMs, thesisMs, 96,
            95, 97, "percent", source, "", false, false, 0, evenRoundTrips(), "", 11, worst, before, after,
            unionMs > 0 ? "union bound" : "", unionMs, independentMs);
    }

    private static List<BurstRecord> times(final int count, final BurstRecord record) {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(record);
        }
        return records;
    }

    @Test
    void thePatternNamesTheLoadedHopsAndAnUnknownHopHasNone() {
        assertEquals("idle", PathAnalysis.pattern(new int[] {0, 0}));
        assertEquals("hop 1", PathAnalysis.pattern(new int[] {95, 0}));
        assertEquals("hop 2", PathAnalysis.pattern(new int[] {0, 98}));
        assertEquals("hops 1+2", PathAnalysis.pattern(new int[] {95, 101}));
        assertNull(PathAnalysis.pattern(new int[] {-1, 95}));
    }

    @Test
    void bothLoadedHopsAreJudgedByTheirUnionIndependentAndServedBoundsEach() {
        final int[] both = {95, 95};
        final List<BurstRecord> records = times(10, burst(both, both, "profile", 8.0, 10.0, 10.0, 5.0));
        final PathAnalysis.PatternAccuracy pattern = PathAnalysis.analyse(records).get(2).get(0);
        assertEquals("hops 1+2", pattern.pattern());
        assertEquals(10, pattern.tested());
        assertEquals(1.0, pattern.union().coverage().share(), 1e-9, "10 ms covers every round trip up to 10 ms");
        assertEquals(0.5, pattern.independent().coverage().share(), 1e-9, "5 ms covers 25 of 50");
        assertEquals(0.8, pattern.served().coverage().share(), 1e-9, "8 ms covers 40 of 50");
        assertEquals(1.0, pattern.composedShare(), 1e-9);
        assertTrue(pattern.percentileMs() > 9.0 && pattern.percentileMs() <= 10.0, "p96 of 0.2..10 ms: " + pattern.percentileMs());
        assertEquals(10.0 / pattern.percentileMs(), pattern.union().medianRatio(), 1e-9);
        assertEquals(5.0 / pattern.percentileMs(), pattern.independent().medianRatio(), 1e-9);
        assertEquals(8.0, pattern.served().medianBoundMs(), 1e-9);
    }

    @Test
    void aBurstDuringWhichTheLoadedHopsChangedIsDiscardedButABandChangeWithinAHopIsNot() {
        final List<BurstRecord> records = new ArrayList<>();
        records.add(burst(new int[] {95, 95}, new int[] {95, 0}, "profile", 8, 10, 10, 5));
        records.add(burst(new int[] {95, 95}, new int[] {98, 95}, "profile", 8, 10, 10, 5));
        final PathAnalysis.PatternAccuracy pattern = PathAnalysis.analyse(records).get(2).get(0);
        assertEquals(2, pattern.reads());
        assertEquals(1, pattern.tested());
        assertEquals(1, pattern.discarded());
    }

    @Test
    void withOneLoadedHopBothMethodsAreThePartsOwnProfileBoundAndAnotherSourceHasNone() {
        final int[] hop2 = {0, 95};
        final List<BurstRecord> records = new ArrayList<>(times(4, burst(hop2, hop2, "profile", 9.0, 6.0, 0, 0)));
        records.addAll(times(3, burst(hop2, hop2, "band probes", 9.0, 9.0, 0, 0)));
        final PathAnalysis.PatternAccuracy pattern = PathAnalysis.analyse(records).get(2).get(0);
        assertEquals("hop 2", pattern.pattern());
        assertEquals(7, pattern.tested());
        assertEquals(4, pattern.union().coverage().bursts(), "only the profile's cell is a part's bound");
        assertEquals(0.6, pattern.union().coverage().share(), 1e-9, "the cell's 6 ms covers 30 of 50");
        assertEquals(0.6, pattern.independent().coverage().share(), 1e-9);
        assertEquals(7, pattern.served().coverage().bursts());
        assertEquals(0.9, pattern.served().coverage().share(), 1e-9);
        assertEquals(0.0, pattern.composedShare(), 1e-9);
    }

    @Test
    void aReadThatFoundNoEstimateCountsInItsPatternsNoEstimateShareAndTestsNothing() {
        final int[] saturated = {101, 95};
        final List<BurstRecord> records = new ArrayList<>(times(3, burst(new int[] {95, 95}, new int[] {95, 95}, "profile", 8, 10, 10, 5)));
        records.add(new BurstRecord(1, 2, 2, "ws1", "ws2", 256, 11, 101, 11, 101, false, "profile does not cover SATURATED", "", 0, 0, 0,
            0, 0, "", "", "", false, false, 0, evenRoundTrips(), "", BurstRecord.UNRECORDED_STATE, BurstRecord.UNRECORDED_STATE,
            saturated, saturated, "", 0, 0));
        final PathAnalysis.PatternAccuracy pattern = PathAnalysis.analyse(records).get(2).get(0);
        assertEquals(4, pattern.reads());
        assertEquals(3, pattern.tested());
        assertEquals(0.25, pattern.noEstimateShare(), 1e-9);
    }

    @Test
    void patternsComeIdleFirstThenOneHopThenBothAndAOneHopConnectionIsNotAPath() {
        final List<BurstRecord> records = new ArrayList<>();
        records.add(burst(new int[] {95, 95}, new int[] {95, 95}, "profile", 8, 10, 10, 5));
        records.add(burst(new int[] {0, 95}, new int[] {0, 95}, "profile", 8, 8, 0, 0));
        records.add(burst(new int[] {95, 0}, new int[] {95, 0}, "profile", 8, 8, 0, 0));
        records.add(burst(new int[] {0, 0}, new int[] {0, 0}, "profile", 8, 8, 0, 0));
        records.add(new BurstRecord(1, 4, 4, "ws1", "ws2", 1024, 11, 95, 11, 95, true, "", "BOUND", 1, 1, 96, 95, 97, "percent",
            "measurement", "", false, false, 0, evenRoundTrips(), "", 11, 95, new int[] {95}, new int[] {95}, "", 0, 0));
        final Map<Integer, List<PathAnalysis.PatternAccuracy>> paths = PathAnalysis.analyse(records);
        assertEquals(List.of(2), List.copyOf(paths.keySet()));
        assertEquals(List.of("idle", "hop 1", "hop 2", "hops 1+2"), paths.get(2).stream().map(PathAnalysis.PatternAccuracy::pattern).toList());
    }

    @Test
    void theServedCoverageIsJudgedWithinTwoPointsAndSaysByHowMuchItMissed(@TempDir final Path directory) throws Exception {
        final int[] both = {95, 95};
        final Map<Integer, List<PathAnalysis.PatternAccuracy>> paths = PathAnalysis.analyse(times(40,
            burst(both, both, "profile", 8.0, 10.0, 10.0, 5.0)));
        final PathReport judged = new PathReport(paths, 0.96, 40);
        assertEquals("MISSED by 14.0 points", judged.verdict(paths.get(2).get(0)), "80 % served against 96 ± 2");
        assertEquals("few data", new PathReport(paths, 0.96, 41).verdict(paths.get(2).get(0)));
        final Map<Integer, List<PathAnalysis.PatternAccuracy>> held = PathAnalysis.analyse(times(40,
            burst(both, both, "profile", 9.6, 10.0, 10.0, 5.0)));
        assertEquals("met", new PathReport(held, 0.96, 40).verdict(held.get(2).get(0)), "9.6 ms covers 48 of 50: 96 %");
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        judged.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("hops 1+2"), text.toString(StandardCharsets.UTF_8));
        final Path csv = directory.resolve(PathReport.CSV_FILE);
        judged.writeCsv(csv);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).startsWith("2,hops 1+2,40,0,") && lines.get(1).endsWith("MISSED by 14.0 points,0.0000"), lines.get(1));
    }
}
