package org.latencyserver.server.metrics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.server.config.ConfigurationLoader;
import org.latencyserver.server.config.ServerConfiguration;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * The metrics tests' three connections (QoS 1 average, QoS 2 bound, QoS 3 measured) in an update
 * engine the test thread drives itself: no update thread runs, so the test owns the engine.
 */
final class MetricsEngineFixture {

    final UpdateEngine engine;
    /** Not started: only its read side ({@code query()}) is used. */
    final EngineLoop loop;

    private MetricsEngineFixture(final UpdateEngine engine) {
        this.engine = engine;
        this.loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
    }

    /** @param directory where the configuration is written */
    static MetricsEngineFixture in(final Path directory) throws Exception {
        return in(directory, "server: { name: CollectorTest }");
    }

    /**
     * @param directory  where the configuration is written
     * @param serverLine the configuration's {@code server:} section, on one line
     */
    static MetricsEngineFixture in(final Path directory, final String serverLine) throws Exception {
        final Path config = Files.writeString(directory.resolve("server.yaml"), String.join("\n",
            serverLine,
            "measurement: { min_interval_millis: 0 }",
            TestbedConfigLines.metricsProfilesAndNodes(),
            "links:",
            "  - { name: port1 }",
            "connections:",
            TestbedConfigLines.METRICS_CONNECTIONS,
            ""));
        final ServerConfiguration configuration = ConfigurationLoader.load(config);
        final List<ConnectionRow> rows = configuration.connectionSpecs().stream().map(spec -> ConnectionRow.initial(spec, 0)).toList();
        final AtomicLong tickets = new AtomicLong(100);
        return new MetricsEngineFixture(new UpdateEngine(new org.latencyserver.server.table.ConnectionTable(rows),
            configuration.profiles(), configuration.engine(), configuration.limits(), tickets::incrementAndGet,
            System::currentTimeMillis));
    }

    /** Pushes MIB values (percent; -1 unknown) for a connection, at {@code nowNanos}. */
    void push(final int indexRef, final int clientCpu, final int peerCpu, final int port, final long nowNanos) {
        if (!engine.applyMib((short) indexRef, new MibReading((short) clientCpu, (short) peerCpu, (short) port), nowNanos)) {
            throw new IllegalArgumentException("no connection " + indexRef);
        }
    }

    /** @return the published row of a connection */
    ConnectionRow row(final int indexRef) {
        return engine.table().row((short) indexRef);
    }
}
