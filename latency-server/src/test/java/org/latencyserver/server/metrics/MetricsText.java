package org.latencyserver.server.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scrape of a metrics endpoint in the Prometheus text format, read back: the families with
 * their {@code # TYPE}, and every sample by name and labels. For the tests only.
 */
public final class MetricsText {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample: its series name (a histogram's with {@code _bucket} etc.), labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final String text;
    private final Map<String, String> types = new TreeMap<>();
    private final java.util.List<Sample> samples = new java.util.ArrayList<>();

    private MetricsText(final String text) {
        this.text = text;
        for (final String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                final String[] parts = line.split(" ");
                types.put(parts[2], parts[3]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                final Matcher matcher = SAMPLE.matcher(line);
                if (!matcher.matches()) {
                    throw new IllegalArgumentException("not a sample line: " + line);
                }
                final Map<String, String> labels = new TreeMap<>();
                if (matcher.group(3) != null) {
                    final Matcher label = LABEL.matcher(matcher.group(3));
                    while (label.find()) {
                        labels.put(label.group(1), label.group(2));
                    }
                }
                samples.add(new Sample(matcher.group(1), labels, Double.parseDouble(matcher.group(4))));
            }
        }
    }

    /**
     * @param url the endpoint, e.g. {@code http://127.0.0.1:9464/metrics}
     * @return the scrape
     * @throws IOException          when it cannot be read or is not answered with 200
     * @throws InterruptedException when interrupted
     */
    public static MetricsText scrape(final String url) throws IOException, InterruptedException {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return new MetricsText(response.body());
    }

    /** @return family name to type ({@code counter}, {@code gauge}, {@code histogram}…) */
    public Map<String, String> types() {
        return types;
    }

    /**
     * @param family a family name
     * @return the label names its samples carry, {@code le} left out
     */
    public java.util.Set<String> labelNames(final String family) {
        final java.util.Set<String> names = new TreeSet<>();
        for (final Sample sample : samples) {
            if (sample.name().equals(family) || "histogram".equals(types.get(family))
                && java.util.List.of(family + "_bucket", family + "_count", family + "_sum").contains(sample.name())) {
                names.addAll(sample.labels().keySet());
            }
        }
        names.remove("le");
        return names;
    }

    /**
     * @param name   a series name
     * @param labels label name, value, name, value… (all of the sample's labels)
     * @return its value, if exposed
     */
    public Optional<Double> value(final String name, final String... labels) {
        final Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(new TreeMap<>(wanted)))
            .map(Sample::value).findFirst();
    }

    /**
     * @param name   a series name
     * @param labels as {@link #value}
     * @return its value
     * @throws AssertionError quoting the scrape when it is not exposed
     */
    public double get(final String name, final String... labels) {
        return value(name, labels).orElseThrow(() -> new AssertionError(name + " " + java.util.Arrays.toString(labels)
            + " not exposed:\n" + text));
    }

    /** @return series of that name, any labels */
    public java.util.List<Sample> samples(final String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    @Override
    public String toString() {
        return text;
    }
}
