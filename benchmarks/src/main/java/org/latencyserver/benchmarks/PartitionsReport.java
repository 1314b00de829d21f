package org.latencyserver.benchmarks;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.latencyserver.testkit.MetricsText;

/**
 * The figures {@link PartitionsScaleHarness} reports: each server's counters at one moment, read from its metrics
 * endpoint ({@link #counters}), and the table printed of them, of the CPU windows and of what the harness received
 * ({@link #print}).
 *
 * <p>Stateless; used on the harness's main thread.
 */
final class PartitionsReport {

    private PartitionsReport() {
    }

    /** The server counters the report needs, at one moment. */
    record Snapshot(long atNanos, double requests, double answers, double skipped, double changes, double savedBytes,
                            java.util.TreeMap<Double, Double> answerToUpdate, double jitterKept, double sourcesDown) {
    }

    /** @return how many polled sources are UNKNOWN now ({@code latency_server_snmp_source_up} 0) */
    private static double sourcesDown(final MetricsText metrics) {
        return metrics.samples("latency_server_snmp_source_up").stream().filter(source -> source.value() == 0).count();
    }

    static Map<String, Snapshot> counters(final List<ScalePartition> partitions) throws IOException, InterruptedException {
        final Map<String, Snapshot> snapshots = new LinkedHashMap<>();
        for (final ScalePartition partition : partitions) {
            final MetricsText scrape = MetricsText.scrape(partition.ready.url("metrics"));
            snapshots.put(partition.name, new Snapshot(System.nanoTime(), scrape.sum("latency_server_snmp_requests_total"),
                scrape.sum("latency_server_snmp_answers_total"), scrape.sum("latency_server_snmp_polls_skipped_total"),
                scrape.sum("latency_server_state_changes_total"), scrape.sum("latency_server_state_saved_bytes_total"),
                scrape.buckets("latency_server_snmp_answer_to_update_seconds"),
                scrape.sum("latency_server_polled_readings_within_jitter_total"), sourcesDown(scrape)));
        }
        return snapshots;
    }

    static void print(final List<ScalePartition> partitions, final int workstations, final long pollMillis,
                               final long changeMillis, final CpuWindow.Closed quiet, final CpuWindow.Closed storm,
                               final Map<String, Snapshot> quietStart, final Map<String, Snapshot> before,
                               final Map<String, Snapshot> after) throws Exception {
        System.out.printf(Locale.ROOT, "%nquiet window %.0f s, change window %.0f s; emulator CPU %.0f %% / %.0f %% of a core%n",
            quiet.seconds(), storm.seconds(), 100 * quiet.emulatorCores(), 100 * storm.emulatorCores());
        System.out.println("| partition | connections | server CPU, quiet (% of a core) | poller threads, quiet | SNMP answered /"
            + " expected, quiet | polls skipped, quiet | heap after GC / resident | change -> HIGH estimate computed p50 / p99 / max"
            + " (n of subscribed) | ... arrived here p50 / p99 | SNMP answer -> update applied, p99 (changes), in the server | RequestStatus p50 / p99 / max quiet | ... during the change"
            + " | state bytes per change (changes) | top threads, quiet |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        double totalPoller = 0;
        double totalProcess = 0;
        for (final ScalePartition partition : partitions) {
            final Snapshot q = quietStart.get(partition.name);
            final Snapshot b = before.get(partition.name);
            final Snapshot a = after.get(partition.name);
            final Histogram computed = new Histogram(3);
            final Histogram arrived = new Histogram(3);
            partition.firstHigh.values().forEach(times -> {
                computed.recordValue(Math.max(0, times[0] - changeMillis));
                arrived.recordValue(Math.max(0, times[1] - changeMillis));
            });
            final ServerProbe.Heap heap = ServerProbe.Heap.afterGc(partition.ready.pid());
            final Histogram quietReads = partition.quietReads.getIntervalHistogram();
            final Histogram stormReads = partition.stormReads.getIntervalHistogram();
            final double expected = partition.sources() * ((b.atNanos() - q.atNanos()) / 1e9) * 1000.0 / pollMillis;
            final double[] answerToUpdateP99 = ServerProbe.bucketQuantile(a.answerToUpdate(), b.answerToUpdate(), 0.99);
            final double changes = a.changes() - b.changes();
            totalPoller += quiet.pollerCores().get(partition.name);
            totalProcess += quiet.processCores().get(partition.name);
            System.out.printf(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %,.0f / %,.0f (%.1f %%; %,.0f sent) | %,.0f | %.0f MiB / %d MiB"
                    + " | %,d / %,d / %,d ms (%d of %d) | %,d / %,d ms | ≤ %.1f ms (%,.0f) | %.2f / %.2f / %.1f ms | %.2f / %.2f / %.1f ms"
                    + " | %,.0f (%,.0f) | %s |%n",
                partition.name, partition.clientOf.size(), 100 * quiet.processCores().get(partition.name),
                100 * quiet.pollerCores().get(partition.name), b.answers() - q.answers(), expected,
                100 * (b.answers() - q.answers()) / expected, b.requests() - q.requests(), b.skipped() - q.skipped(), heap.usedMiB(), heap.residentMiB(), computed.getValueAtPercentile(50), computed.getValueAtPercentile(99),
                computed.getMaxValue(), computed.getTotalCount(), partition.subscribed,
                arrived.getValueAtPercentile(50), arrived.getValueAtPercentile(99), answerToUpdateP99[0] * 1000, answerToUpdateP99[1],
                ms(quietReads, 50), ms(quietReads, 99),
                quietReads.getMaxValue() / 1e6, ms(stormReads, 50), ms(stormReads, 99), stormReads.getMaxValue() / 1e6,
                changes == 0 ? 0 : (a.savedBytes() - b.savedBytes()) / changes, changes, quiet.topThreads().get(partition.name));
            final double stormExpected = partition.sources() * ((a.atNanos() - b.atNanos()) / 1e9) * 1000.0 / pollMillis;
            System.out.printf(Locale.ROOT, "  %s during the change: %.1f %% of a core, SNMP answered %.1f %%, polled readings kept as"
                    + " jitter %,.0f; sources UNKNOWN before / after %,.0f / %,.0f; top threads %s%n", partition.name,
                100 * storm.processCores().get(partition.name), 100 * (a.answers() - b.answers()) / stormExpected,
                a.jitterKept() - b.jitterKept(), b.sourcesDown(), a.sourcesDown(), storm.topThreads().get(partition.name));
            System.out.printf(Locale.ROOT, "  %s: %,d pushed estimates received in the whole run%n", partition.name,
                partition.pushesReceived.get());
            if (partition.readErrors > 0) {
                System.out.printf(Locale.ROOT, "  %s: %d RequestStatus calls failed%n", partition.name, partition.readErrors);
            }
        }
        System.out.printf(Locale.ROOT, "all servers, quiet: %.1f %% of a core in all (poller threads %.1f %%)%n", 100 * totalProcess,
            100 * totalPoller);
    }

    private static double ms(final Histogram histogram, final double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e6;
    }
}
