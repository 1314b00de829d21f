package org.latencyserver.benchmarks.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;
import org.latencyserver.server.engine.EngineCounters;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionTable;

/**
 * What one scrape of the metrics costs at a large connection table, in the text format: the
 * server's metrics (one collector per subsystem; the table's series built from one snapshot of
 * the rows) against {@link PerGaugeCallbacks} (a callback gauge per family, each copying the
 * rows), in the same JVM, scrapes of the two alternating. First checks that both pages hold the
 * same table families line for line; then times {@code rounds} scrapes of each after as many for
 * warm-up and prints per implementation the median and mean wall time, the bytes allocated by
 * the scraping thread and the page's size, and the ratio of the medians.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.metrics.MetricsScrapeHarness
 * [connections=25000] [rounds=30]}
 */
public final class MetricsScrapeHarness {

    private static final long NOW_NANOS = 1_000_000_000_000L;

    private MetricsScrapeHarness() {
    }

    /** @param args connections and rounds, optional */
    public static void main(final String[] args) throws IOException {
        final int connections = args.length > 0 ? Integer.parseInt(args[0]) : 25_000;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        final ConnectionTable table = ScrapeTable.of(connections, NOW_NANOS);
        final LongSupplier clock = () -> NOW_NANOS;
        final PrometheusRegistry before = PerGaugeCallbacks.register(table, clock);
        final PrometheusRegistry after = new ServerMetrics(table, () -> new EngineCounters(0, 0, 0, 0, 0, 0), clock, true).registry();
        checkSameTableFamilies(before, after);
        final ByteArrayOutputStream page = new ByteArrayOutputStream(32 << 20);
        final long[][] nanos = new long[2][rounds];
        final long[][] bytes = new long[2][rounds];
        final List<PrometheusRegistry> registries = List.of(before, after);
        for (int round = -rounds; round < rounds; round++) {
            for (int which = 0; which < 2; which++) {
                final long allocated = allocatedBytes();
                final long start = System.nanoTime();
                write(registries.get(which), page);
                if (round >= 0) {
                    nanos[which][round] = System.nanoTime() - start;
                    bytes[which][round] = allocatedBytes() - allocated;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d connections, %d scrapes each (after %d warm-up), text format%n", connections, rounds, rounds);
        final String[] names = {"before (a callback per gauge)", "after (one collector, one snapshot)"};
        final int[] pageBytes = {pageBytes(before, page), pageBytes(after, page)};
        for (int which = 0; which < 2; which++) {
            System.out.printf(Locale.ROOT, "%-38s median %7.1f ms, mean %7.1f ms, allocated %6.1f MB per scrape, page %5.1f MB%n",
                names[which], median(nanos[which]) / 1e6, mean(nanos[which]) / 1e6, median(bytes[which]) / 1e6, pageBytes[which] / 1e6);
        }
        System.out.printf(Locale.ROOT, "ratio before/after: time %.2f, allocated %.2f%n", median(nanos[0]) / median(nanos[1]),
            median(bytes[0]) / median(bytes[1]));
    }

    /** Both pages must show the table's families identically: same lines, order aside. */
    private static void checkSameTableFamilies(final PrometheusRegistry before, final PrometheusRegistry after) throws IOException {
        final ByteArrayOutputStream page = new ByteArrayOutputStream();
        final Set<String> names = new HashSet<>();
        before.scrape().forEach(snapshot -> names.add(snapshot.getMetadata().getPrometheusName()));
        new PrometheusTextFormatWriter(false).write(page, before.scrape());
        final String[] beforeLines = sortedLines(page);
        page.reset();
        new PrometheusTextFormatWriter(false).write(page, after.scrape(names::contains));
        final String[] afterLines = sortedLines(page);
        if (!Arrays.equals(beforeLines, afterLines)) {
            throw new IllegalStateException("the two pages differ: " + beforeLines.length + " lines before, " + afterLines.length
                + " after");
        }
        System.out.printf(Locale.ROOT, "the table's %d families are the same %d lines in both pages%n", names.size(), beforeLines.length);
    }

    private static String[] sortedLines(final ByteArrayOutputStream page) {
        final String[] lines = page.toString(StandardCharsets.UTF_8).split("\n");
        Arrays.sort(lines);
        return lines;
    }

    private static void write(final PrometheusRegistry registry, final ByteArrayOutputStream page) throws IOException {
        page.reset();
        new PrometheusTextFormatWriter(false).write(page, registry.scrape());
    }

    private static int pageBytes(final PrometheusRegistry registry, final ByteArrayOutputStream page) throws IOException {
        write(registry, page);
        return page.size();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static double median(final long[] values) {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }

    private static double mean(final long[] values) {
        return Arrays.stream(values).average().orElse(0);
    }
}
