package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RealNetworkAnalysisTest {

    private static BurstRecord burst(final long epochMillis, final int cpuState, final int portState, final double servedMs,
                                     final String basis, final long... rttMicros) {
        final long[] nanos = Arrays.stream(rttMicros).map(micros -> micros * 1_000).toArray();
        return new BurstRecord(epochMillis, 3, 3, "ws1", "ws2", 256, cpuState, portState, cpuState, portState, true, "", "AVERAGE",
            servedMs, servedMs, 0, servedMs / 2, servedMs * 2, "ms", "profile", "", false, false, 0, nanos, basis, cpuState, portState);
    }

    @Test
    void portBandRowsPoolTheCpuStatesAndSaturatedIsNamed() {
        final List<BurstRecord> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(burst(i * 1000L, 11, 98, 10.0, "profile p, port 96–98 %, 256 B for LOADED 98 %", 9_000, 11_000));
            records.add(burst(i * 1000L + 1, 22, 98, 10.0, "profile p, port 96–98 %, 256 B for LOADED 98 %", 10_000, 10_000));
            records.add(burst(i * 1000L + 2, 11, 101, 10.0, "profile p, cell 0-33/0-33 256 B", 30_000, 50_000));
        }
        final ConnectionAccuracy connection = AccuracyAnalysis.analyse(records, true).get(0);
        final List<String> labels = connection.states().stream().map(state -> state.state().label()).toList();
        assertEquals(List.of("LOW/LOW LOADED 98", "MEDIUM/MEDIUM LOADED 98", "LOW/LOW SATURATED", "port LOADED 98", "port SATURATED",
            "all states"), labels);
        final StateAccuracy band = connection.states().get(3);
        assertEquals(60, band.bursts());
        assertEquals(0.0, band.mean().servedOverPooled(), 1e-9, "served 10 ms, what followed 10 ms on average");
        assertEquals(0.0, band.otherBandShare(), 1e-9);
        final StateAccuracy saturated = connection.states().get(4);
        assertEquals(-0.75, saturated.mean().servedOverPooled(), 1e-9, "served 10 ms against 40 ms");
        assertEquals(1.0, saturated.otherBandShare(), 1e-9, "an idle port's cell served to a saturated one, every read");
        final AccuracyTargets targets = AccuracyTargets.realNetwork(20);
        assertEquals(AccuracyTargets.Verdict.MET, targets.pooledMean(band, band.mean().servedOverPooled()));
        assertEquals(AccuracyTargets.Verdict.MISSED, targets.pooledMean(saturated, saturated.mean().servedOverPooled()));
        assertEquals(AccuracyTargets.Verdict.MET, targets.otherBand(band));
        assertEquals(AccuracyTargets.Verdict.MISSED, targets.otherBand(saturated));
        assertEquals(AccuracyTargets.Verdict.NONE, targets.meanError(band, 0.5), "per-burst median error is shown, not judged");
        assertEquals(AccuracyTargets.Verdict.NONE, new AccuracyTargets(20).otherBand(band), "not a loopback target");
        final StateAccuracy refusedThroughout = new StateAccuracy(LoadState.port(101), 50, 1.0, 0, 0, 0, 0, Double.NaN, null, null,
            0.0, 0.0, 0.0);
        assertEquals(AccuracyTargets.Verdict.NONE, targets.otherBand(refusedThroughout), "nothing served, nothing to judge");
    }

    @Test
    void realNetworkTargetsAreWiderThanLoopbacks() {
        final AccuracyTargets targets = AccuracyTargets.realNetwork(40);
        assertEquals(0.02, targets.coverageTolerance());
        assertEquals(1.5, targets.maxBoundRatio());
        assertEquals(0.15, targets.maxPooledMeanError());
        assertEquals(0.0, targets.maxOtherBandShare());
    }

    @Test
    void theDemoIsStartedOnItsOwnTestbedWithTheScenarioAndTheMeasuredProfile() {
        assertEquals(List.of("--real-network", "--testbed-name", "acc", "--scenario", "/s.yaml", "--profile", "/p/testbed-ports.json"),
            RealNetworkOptions.demoArguments("acc", Path.of("/s.yaml"), Path.of("/p/testbed-ports.json")));
        assertTrue(!RealNetworkOptions.demoArguments("acc", Path.of("/s.yaml"), null).contains("--profile"));
    }
}
