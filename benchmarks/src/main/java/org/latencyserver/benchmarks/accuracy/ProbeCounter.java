package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.latencyserver.testkit.MetricsText;

/**
 * The client agents' probe round trips as the server counts them, read from its Prometheus text
 * endpoint: counter {@code latency_server_probe_round_trips_total}, per connection when it carries
 * an {@code index_ref} label (today it is one total for all connections).
 * A server that does not count probes yet gives an empty reading, which the report prints as n/a.
 */
public final class ProbeCounter {

    private static final String NAME = "latency_server_probe_round_trips_total";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** The key of a sample without an index_ref label: all connections together. */
    public static final int ALL_CONNECTIONS = -1;

    private final URI metrics;

    /** @param metricsUrl the server's metrics endpoint */
    public ProbeCounter(final String metricsUrl) {
        this.metrics = URI.create(metricsUrl);
    }

    /**
     * @return round trips so far by index_ref ({@link #ALL_CONNECTIONS} for unlabelled samples); empty
     *         when the endpoint cannot be read (no answer, not 200, not the text format) or has no such counter
     */
    public Optional<Map<Integer, Double>> read() {
        try {
            return parse(MetricsText.scrape(metrics, TIMEOUT));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * @param exposition Prometheus text format
     * @return the counter's samples summed by index_ref; empty when it has none
     * @throws IllegalArgumentException when the text is not in the format
     */
    static Optional<Map<Integer, Double>> parse(final String exposition) {
        return parse(MetricsText.parse(exposition));
    }

    private static Optional<Map<Integer, Double>> parse(final MetricsText scrape) {
        final Map<Integer, Double> byConnection = new TreeMap<>();
        for (final MetricsText.Sample sample : scrape.samples(NAME)) {
            final String indexRef = sample.labels().get("index_ref");
            byConnection.merge(indexRef == null ? ALL_CONNECTIONS : Integer.parseInt(indexRef), sample.value(), Double::sum);
        }
        return byConnection.isEmpty() ? Optional.empty() : Optional.of(byConnection);
    }
}
