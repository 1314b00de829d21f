package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.Estimate;

/** {@code ./latency console --once}, as a script uses it, against a real server. */
class ConsoleOnceTest {

    @TempDir
    Path directory;

    @Test
    void onceListsEveryConnectionWithItsStateEstimateAndPendingMeasurementThenExitsZero() throws Exception {
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            testbed.push(10, 80, 50);
            testbed.measure(4); // 4 measured; 5 and 6 left waiting for their agents
            final Process console = testbed.console("once", "--once");
            assertTrue(console.waitFor(60, TimeUnit.SECONDS));
            final String output = testbed.log("once");
            assertEquals(0, console.exitValue(), output);

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
            assertEquals(9, output.lines().count(), "a title, the header and seven connections:\n" + output);
        }
    }

    @Test
    void onceAgainstAServerThatIsNotThereExitsOneAndSaysSo() throws Exception {
        try (ConsoleTestbed testbed = new ConsoleTestbed(directory)) {
            final Process console = testbed.consoleWith("dead", "--once", "--server", "corbaloc::127.0.0.1:1/LatencyServer");
            assertTrue(console.waitFor(60, TimeUnit.SECONDS));
            final String output = testbed.errors("dead");
            assertEquals(1, console.exitValue(), output);
            assertTrue(output.contains("latency console: server unreachable"), output);
        }
    }

    private static String line(final String output, final int indexRef) {
        return output.lines().filter(l -> l.matches(" *" + indexRef + "  .*")).findFirst()
            .orElseThrow(() -> new AssertionError("no line for connection " + indexRef + ":\n" + output));
    }
}
