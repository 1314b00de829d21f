package org.latencyserver.server.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * The observed durations' histograms: every round trip a measured result or probe report carries
 * (per connection), and the time from an SNMP answer to the update thread applying it. Native
 * (schema-based) with classic buckets in the text format.
 *
 * <p>Thread-safe: lock-free. Observing an SNMP answer allocates nothing (see {@link DurationHistogram}).
 */
final class RoundTripMetrics {

    /**
     * Classic buckets of {@code latency_server_round_trip_seconds}: loopback round trips take
     * 20–200 µs, a LAN's a few hundred µs, loaded workstations' and ports' tens of ms (the
     * thesis's histograms span 0–100 ms); 50 µs … 1 s in 1-2.5-5 steps covers all of them with a
     * bucket per factor of 2–2.5 and leaves the rest to the native buckets.
     */
    static final double[] ROUND_TRIP_BUCKETS = {50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3,
        100e-3, 250e-3, 500e-3, 1.0};
    /**
     * Native schema of the round-trip histogram: buckets grow by 2^(1/8) (±4.5 %), and bucket
     * indexes stay within the JDK's cached {@code Integer}s for values from 15 µs up (client_java
     * boxes them).
     */
    static final int ROUND_TRIP_SCHEMA = 3;
    /**
     * Round trips observed exactly per report; a report carrying more (an agent may send any
     * count) is observed scaled down to about this many, keeping its shape, so one report cannot
     * hold its caller's thread for long (about 30 ms at most).
     */
    static final long MAX_OBSERVED_ROUND_TRIPS_PER_REPORT = 1_000_000;

    private final Histogram roundTrips;
    private final DurationHistogram snmpAnswerToUpdateSeconds;

    /** @param registry where the families are registered */
    RoundTripMetrics(final PrometheusRegistry registry) {
        roundTrips = Histogram.builder().name("latency_server_round_trip_seconds").unit(Unit.SECONDS)
            .help("round trips measured by the agents: every one a measured result or probe report carries, at its bin's"
                + " midpoint (above the last bin: at the last edge)")
            .labelNames("index_ref").classicUpperBounds(ROUND_TRIP_BUCKETS).nativeInitialSchema(ROUND_TRIP_SCHEMA)
            .withoutExemplars().register(registry);
        snmpAnswerToUpdateSeconds = new DurationHistogram("latency_server_snmp_answer_to_update_seconds",
            "time from an SNMP answer that changed a connection's polled values to the update thread applying them (its"
                + " estimate is published right after): what the server adds to a polled state change");
        registry.register(snmpAnswerToUpdateSeconds);
    }

    /** @param nanos monotonic time applied minus time answered; lock-free, allocation-free */
    void snmpAnswerApplied(final long nanos) {
        snmpAnswerToUpdateSeconds.observe(nanos * 1e-9);
    }

    /**
     * Observes every round trip of a report, each at its bin's midpoint, those above the last bin
     * at the last edge (they have no value; this is a lower bound). client_java 1.3.1 has no bulk
     * observation, so each is observed once; a report of more than
     * {@link #MAX_OBSERVED_ROUND_TRIPS_PER_REPORT} is scaled down to about that many.
     *
     * @param indexRef  the connection
     * @param histogram the round trips
     */
    void observe(final short indexRef, final LatencyHistogram histogram) {
        final long total = histogram.totalCount();
        if (total == 0) {
            return;
        }
        final DistributionDataPoint point = roundTrips.labelValues(Short.toString(indexRef));
        final double scale = total > MAX_OBSERVED_ROUND_TRIPS_PER_REPORT ? (double) MAX_OBSERVED_ROUND_TRIPS_PER_REPORT / total : 1;
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            final double seconds = (histogram.lowerEdgeNanos(bin) + histogram.upperEdgeNanos(bin)) * 0.5e-9;
            observe(point, seconds, histogram.count(bin), scale);
        }
        observe(point, histogram.lastEdgeNanos() * 1e-9, histogram.overflowCount(), scale);
    }

    private static void observe(final DistributionDataPoint point, final double seconds, final long count, final double scale) {
        final long times = scale == 1 ? count : Math.round(count * scale);
        for (long i = 0; i < times; i++) {
            point.observe(seconds);
        }
    }
}
