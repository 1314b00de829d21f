package org.latencyserver.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scrape of a metrics endpoint in the Prometheus text exposition format (version 0.0.4), read
 * back: the families with their {@code # TYPE}, and every sample by series name, labels and value.
 * For tests and benchmark harnesses, never for the components themselves.
 *
 * <p>What is parsed: {@code # TYPE} lines (other comments, {@code # HELP} included, and blank lines
 * are skipped); sample lines {@code name{label="value",…} value [timestamp]}, label values unescaped
 * ({@code \\}, {@code \"}, {@code \n}), values as Prometheus writes them ({@code +Inf}, {@code -Inf},
 * {@code NaN} or a decimal number); a timestamp is read past and dropped. Any other line is refused
 * with {@link IllegalArgumentException} naming it, so a test never reads half a page silently.
 *
 * <p>Immutable once parsed; thread-safe.
 */
public final class MetricsText {

    private static final Pattern SAMPLE =
        Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?[ \\t]+(\\S+)(?:[ \\t]+-?\\d+)?[ \\t]*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?\\s*");

    /**
     * One sample.
     *
     * @param name   its series name (a histogram's with {@code _bucket}, {@code _count} or {@code _sum})
     * @param labels label name to unescaped value, sorted by name
     * @param value  its value
     */
    public record Sample(String name, Map<String, String> labels, double value) {

        /**
         * @param wanted label name, value, name, value…
         * @return whether it carries all of these labels (it may carry others)
         */
        public boolean carries(final String... wanted) {
            if (wanted.length % 2 != 0) {
                throw new IllegalArgumentException("labels go in name, value pairs: " + Arrays.toString(wanted));
            }
            for (int i = 0; i < wanted.length; i += 2) {
                if (!wanted[i + 1].equals(labels.get(wanted[i]))) {
                    return false;
                }
            }
            return true;
        }
    }

    private final String text;
    private final Map<String, String> types;
    private final List<Sample> samples;

    private MetricsText(final String text) {
        this.text = text;
        final Map<String, String> typesRead = new TreeMap<>();
        final List<Sample> samplesRead = new ArrayList<>();
        for (final String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                final String[] parts = line.trim().split("\\s+");
                if (parts.length != 4) {
                    throw new IllegalArgumentException("not a TYPE line: " + line);
                }
                typesRead.put(parts[2], parts[3]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                samplesRead.add(sample(line));
            }
        }
        this.types = Collections.unmodifiableMap(typesRead);
        this.samples = List.copyOf(samplesRead);
    }

    private static Sample sample(final String line) {
        final Matcher matcher = SAMPLE.matcher(line);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a sample line: " + line);
        }
        final Map<String, String> labels = new TreeMap<>();
        if (matcher.group(2) != null) {
            final Matcher label = LABEL.matcher(matcher.group(2));
            int end = 0;
            while (label.lookingAt()) {
                labels.put(label.group(1), unescape(label.group(2)));
                end = label.end();
                label.region(end, matcher.group(2).length());
            }
            if (end != matcher.group(2).length()) {
                throw new IllegalArgumentException("not a sample line (labels): " + line);
            }
        }
        return new Sample(matcher.group(1), Collections.unmodifiableMap(labels), number(matcher.group(3), line));
    }

    private static String unescape(final String escaped) {
        if (escaped.indexOf('\\') < 0) {
            return escaped;
        }
        final StringBuilder value = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            final char c = escaped.charAt(i);
            if (c == '\\' && i + 1 < escaped.length()) {
                final char next = escaped.charAt(++i);
                value.append(next == 'n' ? '\n' : next);
            } else {
                value.append(c);
            }
        }
        return value.toString();
    }

    private static double number(final String value, final String line) {
        switch (value) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a sample value '" + value + "': " + line, e);
                }
        }
    }

    /**
     * @param text a page in the text exposition format
     * @return it, parsed
     * @throws IllegalArgumentException naming the first line that is neither a comment nor a sample
     */
    public static MetricsText parse(final String text) {
        return new MetricsText(text);
    }

    /**
     * @param url the endpoint, e.g. {@code http://127.0.0.1:9464/metrics}
     * @return the scrape
     * @throws IOException          when it cannot be read or is not answered with 200
     * @throws InterruptedException when interrupted
     */
    public static MetricsText scrape(final String url) throws IOException, InterruptedException {
        return new MetricsText(fetch(url));
    }

    /**
     * @param url     the endpoint
     * @param timeout how long connecting, and then the whole answer, may take each
     * @return the scrape
     * @throws IOException          when it cannot be read in time or is not answered with 200
     * @throws InterruptedException when interrupted
     */
    public static MetricsText scrape(final URI url, final Duration timeout) throws IOException, InterruptedException {
        return new MetricsText(fetch(HttpClient.newBuilder().connectTimeout(timeout).build(),
            HttpRequest.newBuilder(url).timeout(timeout).GET().build()));
    }

    /**
     * The page as text, unparsed: for a caller that times or sizes one read of the endpoint.
     *
     * @param url the endpoint
     * @return its text
     * @throws IOException          when it cannot be read or is not answered with 200
     * @throws InterruptedException when interrupted
     */
    public static String fetch(final String url) throws IOException, InterruptedException {
        return fetch(HttpClient.newHttpClient(), HttpRequest.newBuilder(URI.create(url)).GET().build());
    }

    private static String fetch(final HttpClient client, final HttpRequest request) throws IOException, InterruptedException {
        final HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** @return family name to type ({@code counter}, {@code gauge}, {@code histogram}…) */
    public Map<String, String> types() {
        return types;
    }

    /**
     * @param family a family name
     * @return the label names its samples carry, {@code le} left out
     */
    public Set<String> labelNames(final String family) {
        final Set<String> names = new TreeSet<>();
        for (final Sample sample : samples) {
            if (sample.name().equals(family) || "histogram".equals(types.get(family))
                && List.of(family + "_bucket", family + "_count", family + "_sum").contains(sample.name())) {
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
        final Map<String, String> wanted = new TreeMap<>(pairs(labels));
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted)).map(Sample::value).findFirst();
    }

    /**
     * @param name   a series name
     * @param labels as {@link #value}
     * @return its value
     * @throws AssertionError quoting the scrape when it is not exposed
     */
    public double get(final String name, final String... labels) {
        return value(name, labels).orElseThrow(() -> new AssertionError(name + " " + Arrays.toString(labels)
            + " not exposed:\n" + text));
    }

    /** @return series of that name, any labels */
    public List<Sample> samples(final String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /**
     * @param name   a series name
     * @param labels label name, value… that the samples must carry (they may carry others)
     * @return whether any sample of that name carries them
     */
    public boolean has(final String name, final String... labels) {
        return samples.stream().anyMatch(s -> s.name().equals(name) && s.carries(labels));
    }

    /**
     * @param name   a series name
     * @param labels as {@link #has}
     * @return the sum of the samples of that name carrying those labels; 0 when there are none
     */
    public double sum(final String name, final String... labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.carries(labels)).mapToDouble(Sample::value).sum();
    }

    /**
     * @param histogram a histogram's name (without {@code _bucket})
     * @param labels    as {@link #has}: which of its series, when it has several
     * @return its classic buckets: cumulative count by upper bound ({@code le}, +Inf last); of several
     *         series carrying those labels, the one last on the page
     */
    public TreeMap<Double, Double> buckets(final String histogram, final String... labels) {
        final TreeMap<Double, Double> buckets = new TreeMap<>();
        for (final Sample sample : samples(histogram + "_bucket")) {
            final String le = sample.labels().get("le");
            if (le != null && sample.carries(labels)) {
                buckets.put(number(le, histogram + "_bucket le=\"" + le + "\""), sample.value());
            }
        }
        return buckets;
    }

    private static Map<String, String> pairs(final String... labels) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels go in name, value pairs: " + Arrays.toString(labels));
        }
        final Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            pairs.put(labels[i], labels[i + 1]);
        }
        return pairs;
    }

    /** @return the page as it was read */
    @Override
    public String toString() {
        return text;
    }
}
