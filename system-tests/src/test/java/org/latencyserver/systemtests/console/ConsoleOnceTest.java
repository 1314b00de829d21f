package org.latencyserver.systemtests.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.launch.ChildProcess;

/** {@code ./latency console --once}, as a script uses it, against a real server. */
class ConsoleOnceTest {

    /** cpu_state LOW/HIGH (10 × client + peer). */
    private static final int LOW_HIGH = 13;

    @TempDir
    Path directory;

    @Test
    void onceListsEveryConnectionWithItsStateEstimateAndPendingMeasurementAndTheProfileCellsProbesReachedThenExitsZero()
        throws Exception {
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            testbed.push(10, 80, 50);
            testbed.measure(4); // 4 measured; 5 and 6 left waiting for their agents
            // The probed QoS 2 connection 8 in LOW/HIGH: 300 round trips, all at three times its profile cell's mean.
            final double cellMean = ConsoleTestbed.profileCellMeanMillis("0-33", "67-100", 256);
            testbed.probeAt(8, "lab1", LOW_HIGH, 2, 150, Math.round(3 * cellMean * 1e6));
            final ChildProcess console = testbed.consoleOnce("once", "--once");
            final int exit = console.awaitExit(Duration.ofSeconds(60));
            final String output = console.log();
            assertEquals(0, exit, output + console.errors());

            final Estimate qos1 = testbed.service.current_estimate((short) 1);
            final Estimate qos3 = testbed.service.current_estimate((short) 4);
            assertTrue(line(output, 1).matches(".*ws1 -> ws2 +256 1 +LOW/HIGH +NORMAL +10/80/50 .*"), line(output, 1));
            assertTrue(line(output, 1).contains(String.format(Locale.ROOT, "%.3f ms [%.3f-%.3f]", qos1.value_ms,
                qos1.interval.lower, qos1.interval.upper)), line(output, 1));
            assertTrue(line(output, 2).contains("ws3 -> ws4") && line(output, 2).contains(" 1024 "), line(output, 2));
            assertTrue(line(output, 4).contains(String.format(Locale.ROOT, "%.3f ms", qos3.value_ms)), line(output, 4));
            final String reason = Stream.of(testbed.service.pending_measurements()).filter(r -> r.index_ref == 5)
                .findFirst().orElseThrow().reason;
            assertTrue(reason.startsWith("load state changed to"), reason);
            assertTrue(line(output, 5).contains("measurement pending (") && line(output, 5).contains(reason),
                "QoS 3 awaiting its agent, and why: " + line(output, 5));
            assertTrue(line(output, 1).contains(" - (thesis) "), "nothing checked yet, thesis semantics: " + line(output, 1));
            assertTrue(line(output, 7).contains("profile fallback"),
                "the adaptive connection, never measured in LOW/HIGH, serves its profile and says so: " + line(output, 7));
            assertTrue(line(output, 6).contains(" 4@96 ") && line(output, 6).contains("no estimate: connection 6 has not been measured yet"),
                line(output, 6));
            final Estimate qos2 = testbed.service.current_estimate((short) 3);
            assertTrue(line(output, 3).matches(".*lab1 -> lab2 +256 2@96 .*"), line(output, 3));
            assertTrue(line(output, 3).contains(String.format(Locale.ROOT, "%.3f ms @96%% [%.2f-%.2f %%]", qos2.value_ms,
                qos2.interval.lower, qos2.interval.upper)), "the bound from the measured profile's histogram: " + line(output, 3));
            assertTrue(line(output, 8).matches(".*lab1 -> lab2 +256 2@96 +LOW/HIGH .*"), line(output, 8));

            // Below the table, the one profile cell the probes reached, with the drift test the server gives.
            final ProfileCellDrift[] drift = testbed.service.profile_drift();
            assertEquals(1, drift.length, "only connection 8 feeds a profile cell");
            assertEquals(LOW_HIGH, drift[0].cpu_state);
            assertEquals(300, drift[0].live_round_trips);
            assertTrue(drift[0].drifting, "three times the profile's mean: " + drift[0].statistic + " vs " + drift[0].critical_value);
            assertTrue(output.contains("Profiles learned from live probes (write one as a file: "
                + "./latency profile learned PROFILE --server REF --out FILE)"), output);
            final String cell = output.lines().filter(l -> l.startsWith("  " + ConsoleTestbed.PROFILE + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no line for the profile cell:\n" + output));
            assertTrue(cell.matches("  measured-loopback-jacorb +LOW/HIGH +256 +300 +"
                + String.format(Locale.ROOT, "%.3f", drift[0].live_mean_ms) + " ms +"
                + String.format(Locale.ROOT, "%.3f", drift[0].profile_mean_ms) + " ms +"
                + String.format(Locale.ROOT, "%.3f / %.3f", drift[0].statistic, drift[0].critical_value) + " +DRIFTING"), cell);
            assertEquals(14, output.lines().count(),
                "a title, the header, eight connections, a blank line, the profiles' title, their header and one cell:\n" + output);
        }
    }

    @Test
    void onceAgainstAServerThatIsNotThereExitsOneAndSaysSo() throws Exception {
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            final ChildProcess console = testbed.consoleOnceWith("dead", "--once", "--server", "corbaloc::127.0.0.1:1/LatencyServer");
            final int exit = console.awaitExit(Duration.ofSeconds(60));
            final String output = console.errors();
            assertEquals(1, exit, output);
            assertTrue(output.contains("latency console: server unreachable"), output);
        }
    }

    private static String line(final String output, final int indexRef) {
        return output.lines().filter(l -> l.matches(" *" + indexRef + "  .*")).findFirst()
            .orElseThrow(() -> new AssertionError("no line for connection " + indexRef + ":\n" + output));
    }
}
