package org.latencyserver.server.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.latencyserver.server.naming.NamingOperation;
import org.latencyserver.server.naming.NamingWritePolicy.RefusalKind;

/**
 * The naming service's metrics, served by the same Prometheus client as the server's, in a registry
 * of their own: {@code latency_naming_write_refusals_total{reason}} (changes refused, by
 * {@link RefusalKind#word()}) and {@code latency_naming_writes_total{operation}} (changes made, by
 * {@link NamingOperation#word()}). Every reason and operation has a series from the start, zero
 * included, so that a rate over them is defined before the first one.
 *
 * <p>Thread-safe: each scrape reads the counts once, from suppliers that are.
 */
public final class NamingServiceMetrics implements AutoCloseable {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private HTTPServer server;

    /**
     * @param refusals the changes refused so far, by kind (a map with every kind), read once per scrape
     * @param writes   the changes made so far, by operation (a map with every operation), read once per scrape
     */
    public NamingServiceMetrics(final Supplier<Map<RefusalKind, Long>> refusals, final Supplier<Map<NamingOperation, Long>> writes) {
        registry.register((MultiCollector) () -> {
            final CounterFamily refused = new CounterFamily("latency_naming_write_refusals_total",
                "changes of names the naming service refused (NO_PERMISSION), by reason", "reason");
            refusals.get().forEach((kind, count) -> refused.add(count, kind.word()));
            final CounterFamily made = new CounterFamily("latency_naming_writes_total",
                "changes of names the naming service made, by naming operation", "operation");
            writes.get().forEach((operation, count) -> made.add(count, operation.word()));
            return MetricSnapshots.of(refused.build(), made.build());
        });
    }

    /** @return the registry (for tests that scrape without HTTP) */
    public PrometheusRegistry registry() {
        return registry;
    }

    /**
     * @param host address to listen on
     * @param port port; 0 for any free port
     * @return the port listened on
     * @throws IOException when the port cannot be bound
     */
    public int serve(final String host, final int port) throws IOException {
        server = HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
        return server.getPort();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
