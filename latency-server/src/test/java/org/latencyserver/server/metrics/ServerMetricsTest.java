package org.latencyserver.server.metrics;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.server.corba.LatencyServiceServant;
import org.latencyserver.server.corba.WriteGuard;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.StateSaveCounters;
import org.latencyserver.testkit.MetricsText;

/**
 * The gauges' and histograms' values against what the servant serves: a server as
 * {@code LatencyServerNode} builds it, without the ORB, its metrics read over HTTP.
 */
class ServerMetricsTest {

    /** How far ahead of the engine's clock the metrics' clock runs, so a request's age is known. */
    private static final long CLOCK_AHEAD_NANOS = 5_000_000_000L;

    @TempDir
    Path directory;
    private EngineLoop loop;
    private UpdateEngine engine;
    private ServerMetrics metrics;
    private LatencyServiceServant servant;
    private String url;

    @BeforeEach
    void start() throws Exception {
        final MetricsEngineFixture fixture =
            MetricsEngineFixture.in(directory, "server: { name: MetricsTest, operator_calls_enabled: true }");
        engine = fixture.engine;
        loop = fixture.loop;
        loop.start();
        metrics = new ServerMetrics(engine.table(), loop::counters, () -> System.nanoTime() + CLOCK_AHEAD_NANOS);
        servant = new LatencyServiceServant(loop, System::currentTimeMillis, WriteGuard.open(), metrics, profile -> { },
            timeoutMillis -> true);
        url = "http://127.0.0.1:" + metrics.serve("127.0.0.1", 0) + "/metrics";
    }

    @AfterEach
    void stop() {
        metrics.close();
        loop.close();
    }

    private void push(final int indexRef, final int clientCpu, final int peerCpu, final int port) {
        servant.PutMibUpdates(new IdlMibUpdates((short) indexRef, (short) clientCpu, (short) peerCpu, (short) port), (short) indexRef);
    }

    /** Connection 1 serves an average from the thesis profile, connection 2 a 96 % bound from a measured one. */
    @ParameterizedTest
    @CsvSource({"1, 50, average, 1", "2, 10, bound, 2"})
    void theEstimateGaugeIsTheServedValueInSecondsLabelledWithItsKindAndQos(final short indexRef, final int cpuPercent,
                                                                             final String kind, final String qos)
        throws Exception {
        push(indexRef, cpuPercent, cpuPercent, 10);
        final Estimate served = servant.current_estimate(indexRef);
        assertEquals(served.value_ms / 1000, MetricsText.scrape(url).get("latency_server_estimate_seconds",
            "index_ref", String.valueOf(indexRef), "kind", kind, "qos", qos), 1e-12);
    }

    @Test
    void anAveragesEstimateIsInSecondsWithItsIntervalAndNoBoundSeries() throws Exception {
        push(1, 50, 50, 10);
        final Estimate served = servant.current_estimate((short) 1);
        final MetricsText scrape = MetricsText.scrape(url);
        assertEquals(2.846e-3, scrape.get("latency_server_estimate_seconds", "index_ref", "1", "kind", "average", "qos", "1"), 1e-9,
            "thesis Appendix A, TAC-4 CORBA 256 B, both 34-66 %");
        assertEquals(served.interval.lower / 1000, scrape.get("latency_server_estimate_interval_seconds", "index_ref", "1",
            "end", "lower"), 1e-12);
        assertEquals(served.interval.upper / 1000, scrape.get("latency_server_estimate_interval_seconds", "index_ref", "1",
            "end", "upper"), 1e-12);
        assertTrue(served.interval.lower < served.value_ms && served.value_ms < served.interval.upper);
        assertTrue(scrape.get("latency_server_estimate_thesis_seconds", "index_ref", "1") > 0, scrape::toString);
        assertTrue(scrape.value("latency_server_estimate_bound_ratio", "index_ref", "1").isEmpty(), scrape::toString);
        assertTrue(scrape.value("latency_server_estimate_share_interval_ratio", "index_ref", "1", "end", "lower").isEmpty());
        assertEquals(0, scrape.get("latency_server_estimate_stale", "index_ref", "1"));
        assertTrue(scrape.samples("latency_server_estimate_seconds").stream().noneMatch(s -> "3".equals(s.labels().get("index_ref"))),
            "no series for a connection without an estimate");
        assertTrue(scrape.value("latency_server_estimate_stale", "index_ref", "3").isEmpty(), "no estimate, no stale flag");
    }

    @Test
    void aBoundIsInSecondsWithItsShareAsARatioAndNoIntervalInSeconds() throws Exception {
        push(2, 10, 10, 10);
        final Estimate served = servant.current_estimate((short) 2);
        final MetricsText scrape = MetricsText.scrape(url);
        assertEquals(0.96, scrape.get("latency_server_estimate_bound_ratio", "index_ref", "2"), 1e-12);
        final double lower = scrape.get("latency_server_estimate_share_interval_ratio", "index_ref", "2", "end", "lower");
        final double upper = scrape.get("latency_server_estimate_share_interval_ratio", "index_ref", "2", "end", "upper");
        assertEquals(served.interval.lower / 100, lower, 1e-6); // the IDL carries the share's interval in percent
        assertEquals(served.interval.upper / 100, upper, 1e-6);
        assertTrue(0 < lower && lower < upper && upper <= 1, lower + ".." + upper);
        assertTrue(scrape.value("latency_server_estimate_interval_seconds", "index_ref", "2", "end", "lower").isEmpty(),
            scrape::toString);
    }

    @Test
    void staleAndItsReasonsAppearWhileAnInputIsUnknownAndGoWhenItAnswers() throws Exception {
        push(1, 50, 50, 10);
        push(1, -1, 50, -1);
        MetricsText scrape = MetricsText.scrape(url);
        assertEquals(1, scrape.get("latency_server_estimate_stale", "index_ref", "1"));
        assertEquals(1, scrape.get("latency_server_estimate_stale_reason", "index_ref", "1", "reason", "client_cpu_unknown"));
        assertEquals(1, scrape.get("latency_server_estimate_stale_reason", "index_ref", "1", "reason", "port_unknown"));
        assertEquals(2, scrape.samples("latency_server_estimate_stale_reason").size(), scrape::toString);
        assertTrue(scrape.value("latency_server_estimate_seconds", "index_ref", "1", "kind", "average", "qos", "1").isPresent(),
            "the last good estimate stays served");
        push(1, 50, -1, 10);
        scrape = MetricsText.scrape(url);
        assertEquals(1, scrape.get("latency_server_estimate_stale_reason", "index_ref", "1", "reason", "peer_cpu_unknown"));
        assertEquals(1, scrape.samples("latency_server_estimate_stale_reason").size(), scrape::toString);
        push(1, 50, 50, 10);
        scrape = MetricsText.scrape(url);
        assertEquals(0, scrape.get("latency_server_estimate_stale", "index_ref", "1"));
        assertEquals(List.of(), scrape.samples("latency_server_estimate_stale_reason"));
    }

    @Test
    void withoutPerConnectionMetricsThePageHasTheTotalsAndNoSeriesPerConnection() throws Exception {
        push(3, 50, 50, 10);
        awaitRequest();
        final ServerMetrics totalsOnly = new ServerMetrics(engine.table(), loop::counters, System::nanoTime, false);
        try {
            final MetricsText scrape = MetricsText.scrape("http://127.0.0.1:" + totalsOnly.serve("127.0.0.1", 0) + "/metrics");
            assertEquals(1, scrape.get("latency_server_pending_measurements"));
            assertEquals(0, scrape.get("latency_server_update_errors_total"));
            for (final String perConnection : List.of("latency_server_estimate_seconds", "latency_server_cpu_state",
                "latency_server_update_required", "latency_server_drift_alarms")) {
                assertEquals(List.of(), scrape.samples(perConnection), perConnection);
            }
            assertTrue(MetricsText.scrape(url).value("latency_server_update_required", "index_ref", "3").isPresent(),
                "the default serves them");
        } finally {
            totalsOnly.close();
        }
    }

    @Test
    void anOpenRequestHasAnAgeUntilItsResultIsAcceptedWhoseRoundTripsAreObservedInSeconds() throws Exception {
        push(3, 50, 50, 10);
        final MeasurementRequest request = awaitRequest();
        MetricsText scrape = MetricsText.scrape(url);
        final double age = scrape.get("latency_server_measurement_pending_age_seconds", "index_ref", "3");
        assertTrue(age >= 5 && age < 65, "the request opened just now on the engine's clock, 5 s behind the metrics': " + age);
        assertEquals(1, scrape.get("latency_server_pending_measurements"));
        assertEquals(1, scrape.get("latency_server_update_required", "index_ref", "3"));
        // 500 in (0, 1 ms], 460 in (1, 2 ms], 40 in (2, 3 ms]: observed at 0.5, 1.5 and 2.5 ms
        final HistogramBins bins = new HistogramBins(new long[] {1_000_000, 2_000_000, 3_000_000}, new long[] {500, 460, 40}, 0);
        servant.submit_measurement(new MeasuredResult((short) 3, request.ticket, bins, 1000, 1.3, 0.6, 2.9, 20, 0, "test agent",
            new double[0]));
        scrape = MetricsText.scrape(url);
        assertTrue(scrape.value("latency_server_measurement_pending_age_seconds", "index_ref", "3").isEmpty(), scrape::toString);
        assertEquals(0, scrape.get("latency_server_pending_measurements"));
        assertEquals(1000, scrape.get("latency_server_round_trip_seconds_count", "index_ref", "3"));
        assertEquals(500 * 0.5e-3 + 460 * 1.5e-3 + 40 * 2.5e-3, scrape.get("latency_server_round_trip_seconds_sum", "index_ref", "3"),
            1e-9);
        assertEquals(500, scrape.get("latency_server_round_trip_seconds_bucket", "index_ref", "3", "le", "0.001"));
        assertEquals(1000, scrape.get("latency_server_round_trip_seconds_bucket", "index_ref", "3", "le", "0.005"));
        assertEquals(1.3e-3, scrape.get("latency_server_estimate_seconds", "index_ref", "3", "kind", "average", "qos", "3"), 1e-12);
    }

    /** The update thread opens a due request at its next tick. */
    private MeasurementRequest awaitRequest() throws InterruptedException {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            final MeasurementRequest[] open = servant.pending_measurements();
            if (open.length > 0) {
                return open[0];
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no measurement request opened within 30 s");
    }

    @Test
    void theStateStoresCountersAreReadFromOneSnapshotPerScrapeUnderTheirFileLabels() throws Exception {
        final AtomicLong scrapes = new AtomicLong();
        metrics.registerStateStore(() -> {
            scrapes.incrementAndGet();
            return new StateSaveCounters(10, 3, 300, 2, 5_000);
        });
        final MetricsText scrape = MetricsText.scrape(url);
        assertEquals(1, scrapes.get(), "one snapshot per scrape, for all three families");
        assertEquals(10, scrape.get("latency_server_state_changes_total"), scrape::toString);
        assertEquals(3, scrape.get("latency_server_state_saves_total", "file", "journal"));
        assertEquals(2, scrape.get("latency_server_state_saves_total", "file", "state_file"));
        assertEquals(300, scrape.get("latency_server_state_saved_bytes_total", "file", "journal"));
        assertEquals(5_000, scrape.get("latency_server_state_saved_bytes_total", "file", "state_file"));
    }

    @Test
    void aProbedProfileCellShowsWhetherItDriftsLabelledWithItsProfileAndCell() throws Exception {
        metrics.registerProfileDrift(loop.query()::profileDrifts);
        assertTrue(MetricsText.scrape(url).samples("latency_server_profile_cell_drifting").isEmpty(), "nothing probed yet");
        push(1, 50, 50, 10);
        servant.submit_probe(new ProbeReport((short) 1, "ws1", "test agent",
            new HistogramBins(new long[] {2_000_000, 4_000_000}, new long[] {7, 2}, 1), 10, 2.5, 0, ProbeShapes.idl()));
        final List<EngineQuery.CellDrift> drifts = loop.query().profileDrifts();
        assertEquals(1, drifts.size(), drifts::toString);
        final MetricsText scrape = MetricsText.scrape(url);
        assertEquals(drifts.get(0).verdict().drifting() ? 1 : 0, scrape.get("latency_server_profile_cell_drifting",
            "profile", "thesis-tac4-corba", "cell", drifts.get(0).cell().label()), scrape::toString);
    }

    @Test
    void aProbeReportsRoundTripsAreObservedAndItsOverflowAtTheLastEdge() throws Exception {
        push(1, 50, 50, 10);
        final HistogramBins bins = new HistogramBins(new long[] {2_000_000, 4_000_000}, new long[] {7, 2}, 1);
        servant.submit_probe(new ProbeReport((short) 1, "ws1", "test agent", bins, 10, 2.5, 0, ProbeShapes.idl()));
        final MetricsText scrape = MetricsText.scrape(url);
        assertEquals(10, scrape.get("latency_server_round_trip_seconds_count", "index_ref", "1"));
        assertEquals(7 * 1e-3 + 2 * 3e-3 + 4e-3, scrape.get("latency_server_round_trip_seconds_sum", "index_ref", "1"), 1e-9);
        assertEquals(7, scrape.get("latency_server_round_trip_seconds_bucket", "index_ref", "1", "le", "0.0025"));
        assertEquals(10, scrape.get("latency_server_round_trip_seconds_bucket", "index_ref", "1", "le", "0.005"));
        assertTrue(scrape.value("latency_server_round_trip_seconds_count", "index_ref", "2").isEmpty(), "no series before a report");
    }

    @Test
    void probesGiveABoundConnectionItsRoundTripsAndCoverageAndAnAverageOneItsMeanErrorPerLoadState()
        throws Exception {
        push(1, 50, 50, 10);
        final double servedMean = servant.current_estimate((short) 1).value_ms;
        push(2, 10, 10, 10);
        final HistogramBins bins = new HistogramBins(new long[] {2_000_000, 4_000_000}, new long[] {7, 2}, 1);
        servant.submit_probe(new ProbeReport((short) 2, "lab1", "test agent", bins, 10, 2.5, 0, ProbeShapes.idl()));
        servant.submit_probe(new ProbeReport((short) 1, "ws1", "test agent", bins, 10, 2.5, 0, ProbeShapes.idl()));
        final MetricsText scrape = MetricsText.scrape(url);
        final List<MetricsText.Sample> roundTrips = scrape.samples("latency_server_calibration_round_trips");
        assertEquals(1, roundTrips.size(), scrape::toString);
        assertEquals("2", roundTrips.get(0).labels().get("index_ref"), "only the bound connection");
        assertEquals(10, roundTrips.get(0).value());
        final double coverage = scrape.get("latency_server_calibration_coverage_ratio", "index_ref", "2",
            "state", roundTrips.get(0).labels().get("state"));
        assertTrue(coverage >= 0 && coverage <= 1, "a share: " + coverage);
        assertEquals(1, scrape.samples("latency_server_calibration_coverage_ratio").size(), scrape::toString);
        // The average connection's probe window (mean 2.5 ms) against the mean served before it.
        final List<MetricsText.Sample> meanErrors = scrape.samples("latency_server_calibration_mean_relative_error_ratio");
        assertEquals(1, meanErrors.size(), scrape::toString);
        assertEquals("1", meanErrors.get(0).labels().get("index_ref"), "only the average connection");
        assertEquals(Math.abs(servedMean - 2.5) / 2.5, meanErrors.get(0).value(), 1e-9);
    }

    @Test
    void aLoadStateWhoseCoverageIntervalLiesBelowNominalIsFlaggedOnlyOnceItsBlocksShowIt() throws Exception {
        push(2, 10, 10, 10);
        for (int window = 0; window < 5; window++) {
            missTheServedBound();
        }
        MetricsText scrape = MetricsText.scrape(url);
        final List<MetricsText.Sample> flags = scrape.samples("latency_server_state_coverage_below_nominal");
        assertEquals(1, flags.size(), scrape::toString);
        assertEquals("2", flags.get(0).labels().get("index_ref"), "only the bound connection");
        assertEquals(0, flags.get(0).value(), "5 blocks are too few to say it under-covers");
        for (int window = 5; window < 25; window++) {
            missTheServedBound();
        }
        scrape = MetricsText.scrape(url);
        final String state = flags.get(0).labels().get("state");
        assertEquals(0, scrape.get("latency_server_calibration_coverage_ratio", "index_ref", "2", "state", state), scrape::toString);
        assertEquals(1, scrape.get("latency_server_state_coverage_below_nominal", "index_ref", "2", "state", state),
            scrape::toString);
    }

    /** A probe window of connection 2 whose 10 round trips all lie above the bound it serves now, however high. */
    private void missTheServedBound() throws Exception {
        final double boundMillis = servant.current_estimate((short) 2).value_ms;
        final long aboveNanos = Math.round(boundMillis * 1.5e6);
        final HistogramBins allAbove = new HistogramBins(new long[] {aboveNanos, aboveNanos + 100_000}, new long[] {0, 10}, 0);
        servant.submit_probe(new ProbeReport((short) 2, "lab1", "test agent", allAbove, 10, boundMillis * 1.5 + 0.05, 0, ProbeShapes.idl()));
    }

    @Test
    void everyRequestStatusIsCountedAndTimed() throws Exception {
        push(1, 50, 50, 10);
        final MetricsText before = MetricsText.scrape(url);
        final double calls = before.value("latency_server_calls_total", "operation", "RequestStatus").orElse(0.0);
        final double timed = before.get("latency_server_request_status_seconds_count");
        for (int i = 0; i < 100; i++) {
            servant.RequestStatus((short) 1);
        }
        servant.RequestStatus((short) 99);
        final MetricsText after = MetricsText.scrape(url);
        assertEquals(calls + 101, after.get("latency_server_calls_total", "operation", "RequestStatus"));
        assertEquals(timed + 101, after.get("latency_server_request_status_seconds_count"));
        final double sum = after.get("latency_server_request_status_seconds_sum");
        assertTrue(sum > 0 && sum < 101 * 1.0, "101 calls took more than nothing and less than a second each: " + sum);
        assertEquals(timed + 101, after.get("latency_server_request_status_seconds_bucket", "le", "+Inf"));
    }

    /**
     * The RequestStatus path allocates nothing in the metrics: counting and timing a call, once
     * compiled, allocate no bytes. Rounds of calls are repeated until the JIT has compiled the
     * path (a busy machine takes longer), and one round must show none.
     */
    @Test
    void countingAndTimingRequestStatusAllocatesNothing() {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();
        final int calls = 200_000;
        long best = Long.MAX_VALUE;
        final long deadline = System.nanoTime() + 60_000_000_000L;
        for (int round = 0; round < 50 && best > 0 && System.nanoTime() < deadline; round++) {
            final long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < calls; i++) {
                final long start = System.nanoTime();
                metrics.requestStatusCalled();
                metrics.requestStatusAnswered(System.nanoTime() - start);
            }
            best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
        }
        // A scrape-free round of 200,000 calls: anything per call would be megabytes.
        assertTrue(best < 1024, "the least a round of " + calls + " calls allocated: " + best + " bytes");
    }
}
