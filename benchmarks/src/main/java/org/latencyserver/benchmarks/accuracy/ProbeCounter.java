package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client agents' probe round trips as the server counts them, read from its Prometheus text
 * endpoint: counter {@code latency_server_probe_round_trips_total}, per connection when it carries
 * an {@code index_ref} label (today it is one total for all connections).
 * A server that does not count probes yet gives an empty reading, which the report prints as n/a.
 */
public final class ProbeCounter {

    private static final List<String> NAMES = List.of("latency_server_probe_round_trips_total");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s+(\\S+)");
    private static final Pattern INDEX_REF = Pattern.compile("index_ref=\"(-?\\d+)\"");
    /** The key of a sample without an index_ref label: all connections together. */
    public static final int ALL_CONNECTIONS = -1;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI metrics;

    /** @param metricsUrl the server's metrics endpoint */
    public ProbeCounter(final String metricsUrl) {
        this.metrics = URI.create(metricsUrl);
    }

    /**
     * @return round trips so far by index_ref ({@link #ALL_CONNECTIONS} for unlabelled samples); empty
     *         when the endpoint cannot be read or has no such counter
     */
    public Optional<Map<Integer, Double>> read() {
        try {
            final HttpResponse<String> response = client.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? parse(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * @param exposition Prometheus text format
     * @return the counter's samples summed by index_ref; empty when it has none
     */
    static Optional<Map<Integer, Double>> parse(final String exposition) {
        final Map<Integer, Double> byConnection = new TreeMap<>();
        for (final String line : exposition.split("\n")) {
            final Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.find() || !NAMES.contains(sample.group(1))) {
                continue;
            }
            final Matcher indexRef = INDEX_REF.matcher(sample.group(3) == null ? "" : sample.group(3));
            final int key = indexRef.find() ? Integer.parseInt(indexRef.group(1)) : ALL_CONNECTIONS;
            try {
                byConnection.merge(key, Double.parseDouble(sample.group(4)), Double::sum);
            } catch (NumberFormatException e) {
                // a sample that is no number (NaN is parsed; anything else is not ours to guess)
            }
        }
        return byConnection.isEmpty() ? Optional.empty() : Optional.of(byConnection);
    }
}
