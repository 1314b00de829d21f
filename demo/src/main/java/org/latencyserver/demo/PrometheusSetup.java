package org.latencyserver.demo;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prometheus for the demo's server (an external program, not a component): its configuration in
 * {@code WORK/prometheus/prometheus.yml} (the server's metrics URL as the one target, the shipped
 * alert rules of {@code ops/prometheus}), its data directory, and its command line. Whether it is
 * ready is asked of its {@code GET /-/ready} endpoint ({@link #readinessEndpoint}), never of its log.
 *
 * <p>Immutable once written; thread-safe.
 */
final class PrometheusSetup {

    /** Debian's package {@code prometheus} installs it here. */
    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    private final Path configFile;
    private final Path dataDirectory;

    private PrometheusSetup(final Path configFile, final Path dataDirectory) {
        this.configFile = configFile;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Writes the configuration.
     *
     * @param root       the repository (holds {@code ops/prometheus})
     * @param work       the demo's work directory
     * @param metricsUrl the server's Prometheus endpoint
     * @return the setup
     * @throws IOException when the configuration cannot be written
     */
    static PrometheusSetup write(final Path root, final Path work, final String metricsUrl) throws IOException {
        final URI target = URI.create(metricsUrl);
        final Path directory = Files.createDirectories(work.resolve("prometheus"));
        final Path config = directory.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
            "# Written by ./latency demo: Prometheus scraping the demo's server with the shipped alert rules.",
            "global:",
            "  scrape_interval: 5s",
            "  evaluation_interval: 5s",
            "rule_files:",
            "  - " + root.resolve("ops/prometheus/latency-server-alerts.yml"),
            "scrape_configs:",
            "  - job_name: latency-server",
            "    metrics_path: " + target.getPath(),
            "    static_configs:",
            "      - targets: ['" + target.getHost() + ":" + target.getPort() + "']",
            ""));
        return new PrometheusSetup(config, directory.resolve("data"));
    }

    /** @return whether Prometheus is installed where Debian puts it */
    static boolean installed() {
        return Files.isExecutable(PROMETHEUS);
    }

    /** @return its configuration file */
    Path configFile() {
        return configFile;
    }

    /** @return its data directory (an old run's series name a server that is gone: the demo empties it) */
    Path dataDirectory() {
        return dataDirectory;
    }

    /**
     * @param port its web port on 127.0.0.1
     * @return the command line that runs it on this configuration (the installed binary, or
     *         {@code prometheus} on the PATH for a hint to the user when it is not installed)
     */
    List<String> commandLine(final int port) {
        return List.of(installed() ? PROMETHEUS.toString() : "prometheus",
            "--config.file=" + configFile, "--storage.tsdb.path=" + dataDirectory, "--web.listen-address=127.0.0.1:" + port,
            "--enable-feature=native-histograms");
    }

    /**
     * @param port its web port on 127.0.0.1
     * @return the endpoint that answers 200 once it serves
     */
    static URI readinessEndpoint(final int port) {
        return URI.create("http://127.0.0.1:" + port + "/-/ready");
    }
}
