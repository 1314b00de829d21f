package org.latencyserver.benchmarks.realport;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of {@link PortRun} saw, as it saw it, on one clock (the machine's wall clock,
 * epoch ms: the server, the agents and the harness share it on the testbed). Written as JSON
 * ({@value #FILE_NAME}) by the run in srv's namespace and read back by the harness, which computes
 * every figure from it ({@link RealPortAnalysis}); nothing is parsed from a log.
 *
 * @param pathSharePercent    the server's {@code measurement.path_share_percent} in this run
 * @param rateMbit            the bottleneck's tbf rate, Mbit/s of frames
 * @param pollIntervalMillis  the server's SNMP poll interval
 * @param settleMillis        the server's {@code measurement.settle_millis}
 * @param samplePeriodMillis  how often the run read the server ({@link Sample}, {@link Request}, {@link Filed})
 * @param startEpochMillis    when the run began reading
 * @param endEpochMillis      when it stopped reading
 * @param changes             the load changes it made, in order
 * @param samples             the connections' port state and current estimates, every sample period
 * @param requests            every measurement request it saw open
 * @param filed               every change of what a measured connection's load state holds as its last measurement
 * @param counters            the bottleneck qdisc's counters
 * @param metrics             the server's counters and gauges it needs
 */
public record RunRecord(double pathSharePercent, double rateMbit, long pollIntervalMillis, long settleMillis, long samplePeriodMillis,
                        long startEpochMillis, long endEpochMillis, List<Change> changes, List<Sample> samples,
                        List<Request> requests, List<Filed> filed, List<PortCounter> counters, List<Metrics> metrics) {

    /** The run's file in its output directory. */
    public static final String FILE_NAME = "run.json";

    /**
     * A load change the run made: the moment the new iperf3 load was sending (its client started) or the old one
     * had ended.
     *
     * @param cycle       which repetition, from 1 (0: before the first)
     * @param fromPercent the load before, percent of the port's rate (0: none)
     * @param toPercent   the load after
     * @param epochMillis when it took effect
     */
    public record Change(int cycle, int fromPercent, int toPercent, long epochMillis) {
    }

    /**
     * One read of one connection.
     *
     * @param epochMillis         when it was read (before the calls)
     * @param indexRef            the connection
     * @param portState           its port state in the server's table ({@code list_connections})
     * @param served              whether {@code current_estimate} answered
     * @param valueMillis         the served value (NaN when not served)
     * @param estimatePortState   the port state the estimate was served in (-2 when not served)
     * @param source              the estimate's source (its refusal's reason when not served)
     * @param dataEpochMillis     when the data behind it were measured (0 for a profile)
     * @param computedEpochMillis when the estimate was computed
     */
    public record Sample(long epochMillis, int indexRef, int portState, boolean served, double valueMillis, int estimatePortState,
                         String source, long dataEpochMillis, long computedEpochMillis) {
    }

    /**
     * A measurement request seen open ({@code pending_measurements}).
     *
     * @param indexRef          the connection
     * @param issuedEpochMillis when the server issued it
     * @param firstSeenMillis   first seen open
     * @param lastSeenMillis    last seen open
     * @param reason            why it was opened
     * @param minIntervalNanos  the pace it carries
     * @param timeBudgetMillis  its recorded run's time bound
     * @param messageSizeBytes  its message size
     */
    public record Request(int indexRef, long issuedEpochMillis, long firstSeenMillis, long lastSeenMillis, String reason,
                          long minIntervalNanos, long timeBudgetMillis, int messageSizeBytes) {
    }

    /**
     * What a measured connection holds for one load state ({@code calibration(index_ref)}), recorded when it changed.
     *
     * @param epochMillis           when it was read
     * @param indexRef              the connection
     * @param cpuState              the state's CPU pair (as Latserv encodes it)
     * @param portState             the state's port state
     * @param measurements          measurements filed under it
     * @param lastMeasuredEpochMillis when its last filed measurement arrived (0: none)
     */
    public record Filed(long epochMillis, int indexRef, int cpuState, int portState, long measurements, long lastMeasuredEpochMillis) {
    }

    /**
     * The bottleneck's qdisc counters ({@code tc -s qdisc} of the switch's port toward the peer).
     *
     * @param epochMillis when read
     * @param bytes       bytes it sent (frames)
     * @param packets     packets it sent
     * @param drops       packets it dropped
     */
    public record PortCounter(long epochMillis, long bytes, long packets, long drops) {
    }

    /**
     * The server's metrics this run needs.
     *
     * @param epochMillis    when read
     * @param takenBack      {@code latency_server_measurements_taken_back_total}
     * @param refreshSeconds {@code latency_server_snmp_counter_refresh_seconds} by source
     */
    public record Metrics(long epochMillis, double takenBack, Map<String, Double> refreshSeconds) {
    }

    /** @return the run in {@code directory} */
    public static RunRecord read(final Path directory) throws IOException {
        return new ObjectMapper().readValue(directory.resolve(FILE_NAME).toFile(), RunRecord.class);
    }

    /** Writes it to {@code directory}, atomically. */
    public void write(final Path directory) throws IOException {
        final Path temporary = directory.resolve(FILE_NAME + ".tmp");
        new ObjectMapper().writeValue(temporary.toFile(), this);
        Files.move(temporary, directory.resolve(FILE_NAME), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
