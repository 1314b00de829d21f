package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.testkit.MetricsText;

/** The one path of every write: counted, checked, applied, saved, judged; refusals counted by their kind. */
class WriteCallsTest {

    private final AtomicInteger saves = new AtomicInteger();
    private final AtomicInteger applied = new AtomicInteger();
    private final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of()), Map.of(), EngineSettings.DEFAULT,
        () -> 7L, () -> 0L);
    private final EngineLoop loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
    private final ServerMetrics metrics = new ServerMetrics(engine.table(), loop::counters);
    private final WriteCalls writes = new WriteCalls(new EngineProxy(loop), metrics, new Refusals(metrics),
        timeoutMillis -> saves.incrementAndGet() > 0);
    private String url;

    @AfterEach
    void stop() {
        metrics.close();
        loop.close();
    }

    private double count(final String name, final String... labels) throws Exception {
        if (url == null) {
            url = "http://127.0.0.1:" + metrics.serve("127.0.0.1", 0) + "/metrics";
        }
        return MetricsText.scrape(url).value(name, labels).orElse(0.0);
    }

    private WriteCall<String, SubmitOutcome> probe(final Checked<String> admitted, final SubmitOutcome answer) {
        return WriteCall.of(Operation.SUBMIT_PROBE, () -> admitted, (proxy, input) -> {
            applied.incrementAndGet();
            return answer;
        }, (input, outcome) -> outcome.accepted() ? Optional.empty() : Optional.of(outcome.refusal().prefixed(input + ": ")));
    }

    @Test
    void aWriteRefusedByItsChecksIsCountedByKindAndNeverReachesTheUpdateThread() throws Exception {
        final WriteCalls.Written<String, SubmitOutcome> written = writes.run(probe(
            Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "window_millis", -1, "0..3600000 ms", "probe window is -1 ms")),
            SubmitOutcome.ACCEPTED));
        assertTrue(written.isRefused());
        assertEquals("probe window is -1 ms", written.refusal().message());
        assertEquals(0, applied.get());
        assertEquals(0, saves.get(), "nothing applied, nothing to wait for");
        assertEquals(1, count("latency_server_calls_total", "operation", "submit_probe"));
        assertEquals(1, count("latency_server_refusals_total", "operation", "submit_probe", "reason", "bad_value"));
    }

    @Test
    void aWriteTheUpdateThreadRefusesIsSavedThenCountedByTheEnginesKind() throws Exception {
        final WriteCalls.Written<String, SubmitOutcome> written = writes.run(probe(Checked.passed("connection 5"),
            SubmitOutcome.refused("no open request")));
        assertTrue(written.isRefused());
        assertEquals("connection 5: no open request", written.refusal().message());
        assertEquals(Refusal.Kind.BAD_TICKET, written.refusal().kind());
        assertEquals(1, applied.get());
        assertEquals(1, saves.get(), "a refused write waits for the state file too: others' changes may precede it");
        assertEquals(1, count("latency_server_refusals_total", "operation", "submit_probe", "reason", "bad_ticket"));
    }

    @Test
    void anAcceptedWriteIsSavedAndHandsBackItsInputAndAnswer() throws Exception {
        final WriteCalls.Written<String, SubmitOutcome> written = writes.run(probe(Checked.passed("connection 5"),
            SubmitOutcome.ACCEPTED));
        assertFalse(written.isRefused());
        assertNull(written.refusal());
        assertEquals("connection 5", written.input());
        assertEquals(SubmitOutcome.ACCEPTED, written.answer());
        assertEquals(1, saves.get());
        assertEquals(0, count("latency_server_refusals_total", "operation", "submit_probe", "reason", "bad_ticket"));
        assertEquals(1, count("latency_server_calls_total", "operation", "submit_probe"));
    }
}
