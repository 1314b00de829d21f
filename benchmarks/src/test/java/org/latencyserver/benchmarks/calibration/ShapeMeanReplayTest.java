package org.latencyserver.benchmarks.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.benchmarks.accuracy.BurstRecord;
import org.latencyserver.core.calibration.ShapeMeanModel;

class ShapeMeanReplayTest {

    @TempDir
    Path directory;

    private static String line(final int indexRef, final String source, final int portState, final int portStateAfter,
                               final double thesisMillis, final String shape, final long spacingMicros, final long... rttNanos) {
        final StringBuilder rtt = new StringBuilder();
        for (final long nanos : rttNanos) {
            rtt.append(rtt.length() == 0 ? "" : ",").append(nanos);
        }
        return String.format(Locale.ROOT, "{\"epoch_millis\":1,\"index_ref\":%d,\"quality\":3,\"cpu_state\":22,\"port_state\":%d,"
            + "\"cpu_state_after\":22,\"port_state_after\":%d,\"estimate_available\":true,\"kind\":\"AVERAGE\",\"value_ms\":%s,"
            + "\"thesis_value_ms\":%s,\"source\":\"%s\",\"rtt_nanos\":[%s],\"shape\":\"%s\",\"spacing_micros\":%d,\"call\":\"arrays\"}",
            indexRef, portState, portStateAfter, thesisMillis, thesisMillis, source, rtt, shape, spacingMicros);
    }

    private List<BurstRecord> read(final List<String> lines) throws IOException {
        final Path file = directory.resolve("bursts.jsonl");
        Files.write(file, lines);
        return BurstRecord.readAll(file);
    }

    @Test
    void onlyTheConnectionsBurstsOfAMeanOfItsOwnStateThatHeldAreReplayed() throws IOException {
        final List<BurstRecord> kept = ShapeMeanReplay.eligible(read(List.of(
            line(3, "measurement", 0, 0, 1.0, "probes", 2000, 1_000_000),
            line(3, "band probes", 100, 100, 1.0, "probes", 2000, 1_000_000),
            line(1, "measurement", 0, 0, 1.0, "probes", 2000, 1_000_000),
            line(3, "profile fallback", 0, 0, 1.0, "probes", 2000, 1_000_000),
            line(3, "measurement", 0, 100, 1.0, "probes", 2000, 1_000_000))), 3);
        assertEquals(2, kept.size());
        assertEquals("band probes", kept.get(1).source());
    }

    @Test
    void aBurstIsScoredAgainstThePooledMeanOfItsShapesRoundTripsFromItOnInItsEpisode() throws IOException {
        final List<BurstRecord> bursts = read(List.of(
            line(3, "measurement", 0, 0, 1.0, "slow", 10_000, 1_000_000, 3_000_000),
            line(3, "measurement", 0, 0, 1.0, "probes", 2000, 9_000_000),
            line(3, "measurement", 0, 0, 1.0, "slow", 10_000, 5_000_000),
            line(3, "measurement", 0, 0, 2.0, "slow", 10_000, 50_000_000)));
        assertEquals(3.0, ShapeMeanReplay.pooledMeanMillisFrom(bursts, 0), 1e-12, "(1 + 3 + 5) / 3: its shape, its thesis");
        assertEquals(5.0, ShapeMeanReplay.pooledMeanMillisFrom(bursts, 2), 1e-12);
    }

    @Test
    void randomBurstsTeachAndEveryBurstIsServedOnceTheModelIsFitted() throws IOException {
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lines.add(line(3, "measurement", 0, 0, 1.0, "random", 1000 + 100 * i, 2_000_000, 2_000_000));
            lines.add(line(3, "measurement", 0, 0, 1.0, "slow", 10_000, 2_000_000));
        }
        final ShapeMeanReplay.Replay all = ShapeMeanReplay.replay(read(lines), 1, 0);
        assertEquals(20, all.windows(), "the random bursts alone teach");
        assertEquals(20, all.model().blocks());
        assertEquals(2L * 20 - 2 * ShapeMeanModel.MIN_BLOCKS + 1, all.scored().size(),
            "served from the 15th window on, each burst before it teaches");
        for (final ShapeMeanReplay.Scored one : all.scored()) {
            assertEquals(2.0, one.factor(), 0.05, "every window ran at twice its thesis: " + one);
            assertEquals(1.0, one.servedOverPooled(), 0.05);
        }
        final ShapeMeanReplay.Replay thinned = ShapeMeanReplay.replay(read(lines), 2, 1);
        assertEquals(10, thinned.windows(), "every second random burst");
        assertTrue(thinned.scored().isEmpty(), "10 windows: not fitted, nothing served");
    }
}
