package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.benchmarks.accuracy.MeanErrorSources.Row;
import org.latencyserver.benchmarks.accuracy.MeanErrorSources.ShapeSources;

/** Where served means' error comes from, on synthetic bursts whose answers are known. */
class MeanErrorSourcesTest {

    private static final int LOW_LOW = 11;
    private static final int HIGH_HIGH = 33;

    /** A QoS 3 burst of the shape "slow" read at {@code epochMillis}: served {@code servedMs}, thesis {@code thesisMs}. */
    private static BurstRecord burst(final long epochMillis, final int cpuState, final double servedMs, final double thesisMs,
                                     final long... rttMicros) {
        final long[] nanos = java.util.Arrays.stream(rttMicros).map(micros -> micros * 1_000).toArray();
        return new BurstRecord(epochMillis, 3, 3, "lab1", "lab2", 256, cpuState, 0, cpuState, 0, true, "", "AVERAGE", servedMs,
            thesisMs, 0, servedMs / 2, servedMs * 2, "ms", "measurement", "shape mean: thesis mean × 1.0", false, false, 0, nanos)
            .withShape("slow", 10_000, "arrays");
    }

    private static double error(final ShapeSources sources, final String predictor) {
        return sources.rows().stream().filter(row -> row.predictor().equals(predictor)).mapToDouble(Row::medianError).findFirst()
            .orElseThrow();
    }

    /** Two occurrences of LOW/LOW, at 1 ms and then 2 ms, with HIGH/HIGH between; the server serves 1.5 ms in both. */
    private static List<BurstRecord> twoOccurrencesOfOneState(final double[] servedPerBurst) {
        final List<BurstRecord> records = new ArrayList<>();
        long epoch = 1_000;
        int index = 0;
        for (final long rttMicros : new long[] {1_000, 1_000, 1_000, 1_000}) {
            records.add(burst(epoch += 500, LOW_LOW, servedPerBurst[index++], 1.5, rttMicros, rttMicros));
        }
        records.add(burst(epoch += 500, HIGH_HIGH, 5.0, 5.0, 5_000, 5_000));
        for (final long rttMicros : new long[] {2_000, 2_000, 2_000, 2_000}) {
            records.add(burst(epoch += 500, LOW_LOW, servedPerBurst[index++], 1.5, rttMicros, rttMicros));
        }
        return records;
    }

    @Test
    void theServedRowIsServedMeansFigureAndItsFloorBesideIt() {
        final double[] served = {1.1, 1.1, 1.2, 1.2, 1.9, 1.9, 2.3, 2.3};
        final List<BurstRecord> records = twoOccurrencesOfOneState(served);
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        final ServedMeans expected = ServedMeans.of(records);
        assertEquals(expected.medianError(), error(sources, "served"), 1e-12);
        assertEquals(expected.hindsightFloor(), error(sources, "best constant per state (hindsight)"), 1e-12);
        assertEquals(expected.servedMeans(), sources.servedMeans());
    }

    @Test
    void anOracleOfTheOccurrenceIsExactWhereTheStatesLongRunMeanIsStale() {
        // each occurrence served one value: 1.5 ms, the state's long-run level, while the occurrences ran at 1 and 2 ms
        final double[] served = {1.5, 1.5, 1.5, 1.5, 1.49, 1.49, 1.49, 1.49};
        final ShapeSources sources = MeanErrorSources.analyse(twoOccurrencesOfOneState(served)).get(0);
        assertEquals(3, sources.occurrences(), "LOW/LOW, HIGH/HIGH, LOW/LOW again");
        assertEquals(0.0, error(sources, "the occurrence's mean (hindsight)"), 1e-12);
        assertTrue(error(sources, "the state's mean over the run (hindsight)") > 0.2,
            "1.5 ms against 1 and 2 ms: 25-50 % off, had " + error(sources, "the state's mean over the run (hindsight)"));
        assertTrue(error(sources, "served") > 0.2);
    }

    @Test
    void theOccurrencesResidualCarriesTheFirstBurstsLevelToTheServedMeansAfterIt() {
        // served 1.0 ms throughout the second occurrence, whose bursts all run at 2 ms: after its first burst the residual
        // predictor knows the factor 2; one served mean per burst (every value differs)
        final double[] served = {1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07};
        final ShapeSources sources = MeanErrorSources.analyse(twoOccurrencesOfOneState(served)).get(0);
        assertEquals(0.0, error(sources, "served × this occurrence's residual"), 0.03,
            "the first occurrence is served right, the second right after its first burst");
        assertTrue(error(sources, "served") > error(sources, "served × this occurrence's residual"));
        assertTrue(error(sources, "served × this occurrence's residual, shrunk") > error(sources, "served × this occurrence's residual"),
            "shrunk towards the served value after few bursts");
    }

    @Test
    void theStatesEarlierOccurrencesAreUsedOnlyOnceTheStateReturns() {
        final double[] served = {1.5, 1.5, 1.5, 1.5, 1.49, 1.49, 1.49, 1.49};
        final ShapeSources sources = MeanErrorSources.analyse(twoOccurrencesOfOneState(served)).get(0);
        // first occurrence: nothing earlier, the served 1.5 against 1 ms (50 %); second: the first's 1 ms against 2 ms (50 %)
        assertEquals(0.5, error(sources, "the state's earlier occurrences"), 1e-9);
    }

    @Test
    void theStatesResidualCarriesAServedMeansBiasAcrossOccurrences() {
        // LOW/LOW always runs at 2 ms and is always served about 1 ms: every served mean after the first learns the factor 2
        final List<BurstRecord> records = new ArrayList<>();
        long epoch = 1_000;
        double servedMs = 1.0;
        for (int i = 0; i < 4; i++) {
            records.add(burst(epoch += 500, LOW_LOW, servedMs += 0.001, 1.0, 2_000, 2_000));
        }
        records.add(burst(epoch += 500, HIGH_HIGH, 5.0, 5.0, 5_000, 5_000));
        for (int i = 0; i < 4; i++) {
            records.add(burst(epoch += 500, LOW_LOW, servedMs += 0.001, 1.0, 2_000, 2_000));
        }
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        assertTrue(error(sources, "served") > 0.4, "about 1 ms served against 2 ms");
        assertEquals(0.0, error(sources, "served × the state's residual so far"), 0.03);
        assertEquals(0.0, error(sources, "served × the state's residual so far, weighted"), 0.03);
    }

    @Test
    void theOccurrencesOtherBurstsLeaveOutTheServedMeansOwn() {
        // one occurrence: a served mean over bursts of 1 ms, then one over bursts of 3 ms; each knows only the other's level
        final List<BurstRecord> records = new ArrayList<>();
        long epoch = 1_000;
        for (final long rttMicros : new long[] {1_000, 1_000, 3_000, 3_000}) {
            records.add(burst(epoch += 500, LOW_LOW, rttMicros == 1_000 ? 1.0 : 3.0, 2.0, rttMicros, rttMicros));
        }
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        assertEquals(0.0, error(sources, "served"), 1e-12);
        assertEquals((1.0 + 1.0 / 3) / 2, error(sources, "the occurrence's mean (hindsight)"), 1e-12, "2 ms against 1 and 3 ms");
        // 3 ms against 1 ms (200 %), 1 ms against 3 ms (66.7 %): the median of two is their mean
        assertEquals((2.0 + 2.0 / 3) / 2, error(sources, "the occurrence's other bursts (hindsight)"), 1e-12);
    }

    @Test
    void servedMeansAreAlsoJudgedApartByTheMeasurementTheyWereMadeFrom() {
        final List<BurstRecord> records = new ArrayList<>();
        records.add(burst(1_000, LOW_LOW, 1.0, 1.0, 1_000, 1_000));
        final BurstRecord stale = burst(1_500, LOW_LOW, 1.5, 1.5, 1_000, 1_000);
        records.add(new BurstRecord(stale.epochMillis(), 3, 3, "lab1", "lab2", 256, LOW_LOW, 0, LOW_LOW, 0, true, "", "AVERAGE", 1.5,
            1.5, 0, 0.75, 3, "ms", "remembered measurement", "", false, false, 0, stale.rttNanos()).withShape("slow", 10_000, "arrays"));
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        final Row fresh = sources.rows().stream().filter(row -> row.predictor().equals("served, made from a measurement")).findFirst()
            .orElseThrow();
        final Row remembered = sources.rows().stream().filter(row -> row.predictor().equals(
            "served, made from a remembered measurement")).findFirst().orElseThrow();
        assertEquals(1, fresh.servedMeans());
        assertEquals(0.0, fresh.medianError(), 1e-12);
        assertEquals(1, remembered.servedMeans());
        assertEquals(0.5, remembered.medianError(), 1e-12);
    }

    @Test
    void theTargetsOwnNoiseIsHalfTheGapBetweenItsHalvesOverItsMean() {
        // one served mean over bursts of 1, 3, 1, 3 ms: halves of 1 ms and 3 ms, pooled 2 ms: |1 - 3| / (2 * 2) = 0.5
        final List<BurstRecord> records = new ArrayList<>();
        long epoch = 1_000;
        for (final long rttMicros : new long[] {1_000, 3_000, 1_000, 3_000}) {
            records.add(burst(epoch += 500, LOW_LOW, 2.0, 2.0, rttMicros, rttMicros));
        }
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        assertEquals(0.5, sources.targetNoise(), 1e-12);
        assertEquals(0.0, error(sources, "served"), 1e-12, "2 ms served, 2 ms pooled");
    }

    @Test
    void theNoiseOfAServedMeanHeldThroughItsOccurrenceSplitsEveryBurstOfTheOccurrence() {
        // served means of one burst each (no split-half noise), in one occurrence of bursts 1, 3, 1, 3 ms: held, 0.5
        final List<BurstRecord> records = new ArrayList<>();
        long epoch = 1_000;
        double servedMs = 2.0;
        for (final long rttMicros : new long[] {1_000, 3_000, 1_000, 3_000}) {
            records.add(burst(epoch += 500, LOW_LOW, servedMs += 0.01, 2.0, rttMicros, rttMicros));
        }
        final ShapeSources sources = MeanErrorSources.analyse(records).get(0);
        assertTrue(Double.isNaN(sources.targetNoise()));
        assertEquals(0.5, sources.heldNoise(), 1e-12);
    }

    @Test
    void aServedMeanOfOneBurstHasNoSplitHalfNoise() {
        final List<BurstRecord> records = List.of(burst(1_000, LOW_LOW, 2.0, 2.0, 1_000, 3_000));
        assertTrue(Double.isNaN(MeanErrorSources.analyse(records).get(0).targetNoise()));
    }

    @Test
    void aBlockIsPrintedPerShapeWithEveryPredictor() {
        final double[] served = {1.5, 1.5, 1.5, 1.5, 1.49, 1.49, 1.49, 1.49};
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MeanErrorSources.print(MeanErrorSources.analyse(twoOccurrencesOfOneState(served)), new PrintStream(bytes, true,
            StandardCharsets.UTF_8));
        final String printed = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("slow, connection 3: 3 served means over 9 bursts in 3 occurrences"), printed);
        assertTrue(printed.contains("the occurrence's mean (hindsight)"), printed);
    }
}
