package org.latencyserver.server.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.latencyserver.testkit.MetricsText;

/** Scrapes a collector or registry without HTTP, in the text format a Prometheus server reads. */
final class CollectorScrape {

    private CollectorScrape() {
    }

    /** @return the page of a registry holding only {@code collector} */
    static MetricsText of(final MultiCollector collector) {
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(collector);
        return of(registry);
    }

    /** @return the registry's page, parsed */
    static MetricsText of(final PrometheusRegistry registry) {
        return MetricsText.parse(text(registry));
    }

    /** @return the registry's page in the Prometheus text format */
    static String text(final PrometheusRegistry registry) {
        final ByteArrayOutputStream page = new ByteArrayOutputStream();
        try {
            new PrometheusTextFormatWriter(false).write(page, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return page.toString(StandardCharsets.UTF_8);
    }
}
