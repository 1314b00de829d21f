package org.latencyserver.benchmarks;

import java.io.IOException;
import java.util.Locale;
import java.util.TreeMap;
import org.latencyserver.testkit.MetricsText;

/**
 * The server's state store counters and its {@code RequestStatus} time buckets, read from its Prometheus text
 * endpoint, for {@link ServerScaleHarness}: read, taken one from another, and printed per connection changed.
 *
 * <p>Not changed once read; used on the harness's main thread. {@link #minus} subtracts the counters but keeps the
 * later read's cumulative {@code RequestStatus} buckets: their difference is printed by {@code printRequestStatusServerTime}.
 *
 * @param changes              state changes
 * @param journalSaves         journal appends
 * @param journalBytes         bytes appended to the journal
 * @param stateFileSaves       state file rewrites
 * @param stateFileBytes       bytes written to the state file
 * @param requestStatusBuckets the server's own time answering {@code RequestStatus}: cumulative count by upper bound, s
 */
record StateStoreCounters(double changes, double journalSaves, double journalBytes, double stateFileSaves,
                          double stateFileBytes, TreeMap<Double, Double> requestStatusBuckets) {

    static StateStoreCounters read(final String metricsUrl) throws IOException, InterruptedException {
        final MetricsText scrape = MetricsText.scrape(metricsUrl);
        return new StateStoreCounters(scrape.sum("latency_server_state_changes_total"),
            scrape.sum("latency_server_state_saves_total", "file", "journal"),
            scrape.sum("latency_server_state_saved_bytes_total", "file", "journal"),
            scrape.sum("latency_server_state_saves_total", "file", "state_file"),
            scrape.sum("latency_server_state_saved_bytes_total", "file", "state_file"), requestStatusBuckets(scrape));
    }

    /** @return the server's own time answering {@code RequestStatus}: cumulative count by upper bound in seconds */
    private static TreeMap<Double, Double> requestStatusBuckets(final MetricsText scrape) {
        return scrape.buckets("latency_server_request_status_seconds");
    }

    /**
     * Prints how long the server itself took to answer the {@code RequestStatus} calls counted
     * between {@code earlier} and this: the classic bucket that holds the 99th percentile, and the
     * calls above 1 ms (the buckets are powers of 4: 1 µs … 1 ms, 3.9 ms …).
     */
    void printRequestStatusServerTime(final String label, final StateStoreCounters earlier) {
        final TreeMap<Double, Double> delta = new TreeMap<>();
        requestStatusBuckets.forEach((le, count) -> delta.put(le, count - earlier.requestStatusBuckets.getOrDefault(le, 0.0)));
        final double total = delta.isEmpty() ? 0 : delta.lastEntry().getValue();
        double p99 = Double.NaN;
        double overOneMilli = total;
        for (final var bucket : delta.entrySet()) {
            if (Double.isNaN(p99) && bucket.getValue() >= 0.99 * total) {
                p99 = bucket.getKey();
            }
            if (bucket.getKey() <= 0.001) {
                overOneMilli = total - bucket.getValue();
            }
        }
        System.out.printf(Locale.ROOT, "%s: %,.0f calls, 99 %% answered within %.1f us (classic bucket), %,.0f over 1 ms%n",
            label, total, p99 * 1e6, overOneMilli);
    }

    StateStoreCounters minus(final StateStoreCounters earlier) {
        return new StateStoreCounters(changes - earlier.changes, journalSaves - earlier.journalSaves,
            journalBytes - earlier.journalBytes, stateFileSaves - earlier.stateFileSaves, stateFileBytes - earlier.stateFileBytes,
            requestStatusBuckets);
    }

    void print(final String label, final double connectionsChanged) {
        final double bytes = journalBytes + stateFileBytes;
        System.out.printf(Locale.ROOT, "%s: changes %.0f; journal %.0f appends %,.0f bytes (%.0f per append); state file "
            + "%.0f rewrites %,.0f bytes; total %,.0f bytes = %,.0f per connection changed (%.0f)%n", label, changes,
            journalSaves, journalBytes, journalBytes / journalSaves, stateFileSaves, stateFileBytes, bytes,
            bytes / connectionsChanged, connectionsChanged);
    }
}
