package org.latencyserver.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.estimate.DeadlineMiss;
import org.latencyserver.core.estimate.DeadlineMissEstimator;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.MeasuredAverageEstimator;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;

import org.latencyserver.core.estimate.ProfileAverageEstimator;
import org.latencyserver.core.estimate.ProfileBoundEstimator;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * What one estimate costs: the work the server's update thread does on a state change (QoS 1, 2)
 * or on a submitted measurement (QoS 3, 4), and the extended calls computed on request.
 * {@code RequestStatus} itself reads a precomputed estimate and does none of this.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar EstimatorBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EstimatorBenchmark extends JmhProtocol {

    private Profile thesisProfile;
    private Profile histogramProfile;
    private org.latencyserver.core.estimate.Measurement measurement;
    private final ConnectionLoadState normal =
        new ConnectionLoadState(new CpuStatePair(CpuState.MEDIUM, CpuState.HIGH), PortState.NORMAL);
    private final ConnectionLoadState loaded =
        new ConnectionLoadState(new CpuStatePair(CpuState.HIGH, CpuState.MEDIUM), PortState.loaded(95));

    /** Loads the shipped TAC-4 CORBA profile and builds a measurement of 1000 round trips. */
    @Setup
    public void setUp() throws IOException, ProfileValidationException {
        try (InputStream in = EstimatorBenchmark.class.getResourceAsStream("/profiles/thesis-tac4-corba.json")) {
            thesisProfile = ProfileJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "thesis-tac4-corba.json");
        }
        final Random random = new Random(42);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        for (int i = 0; i < 1000; i++) {
            hdr.recordValue(1_000_000L + (long) (-2_000_000.0 * Math.log(1.0 - random.nextDouble())));
        }
        final LatencyHistogram fine = LatencyHistogram.fromHdr(hdr);
        measurement = new org.latencyserver.core.estimate.Measurement(fine, 1000, hdr.getMean() / 1e6,
            hdr.getStdDeviation() / 1e6, hdr.getMaxValue() / 1e6);
        final LatencyHistogram thesisBins = LatencyHistogram.fromHdr(hdr, 1_000_000L, 100);
        final List<ProfileCell> cells = new ArrayList<>();
        for (final ProfileCell cell : thesisProfile.cells()) {
            cells.add(new ProfileCell(cell.cpuStates(), cell.messageSizeBytes(), 1000, cell.meanMillis(), 2.0,
                Math.max(cell.maxMillis(), 100.0), thesisBins));
        }
        histogramProfile = new Profile("bench", "TAC-4", thesisProfile.layer(), thesisProfile.provenance(), null,
            thesisProfile.portModel(), cells);
    }

    /** @return QoS 1 at a normal port */
    @Benchmark
    public Estimate qos1ProfileAverage() throws EstimateRefusedException {
        return ProfileAverageEstimator.estimate(thesisProfile, normal, 256);
    }

    /** @return QoS 1 with the port contribution at 95 % */
    @Benchmark
    public Estimate qos1ProfileAverageLoadedPort() throws EstimateRefusedException {
        return ProfileAverageEstimator.estimate(thesisProfile, loaded, 256);
    }

    /** @return QoS 1 for an unprofiled size, through the fitted latency-vs-size line */
    @Benchmark
    public Estimate qos1InterpolatedSize() throws EstimateRefusedException {
        return ProfileAverageEstimator.estimateForSize(thesisProfile, normal, 3000);
    }

    /** @return QoS 2 at 96 % from 100 x 1 ms bins, with Wald, Wilson and order-statistic intervals */
    @Benchmark
    public Estimate qos2ProfileBound() throws EstimateRefusedException {
        return ProfileBoundEstimator.estimate(histogramProfile, normal, 256, 96.0);
    }

    /** @return QoS 3 from a measurement */
    @Benchmark
    public Estimate qos3MeasuredAverage() {
        return MeasuredAverageEstimator.estimate(measurement, "bench");
    }

    /** @return QoS 4 at 96 % from a fine HdrHistogram export of 1000 round trips */
    @Benchmark
    public Estimate qos4MeasuredBound() throws EstimateRefusedException {
        return MeasuredBoundEstimator.estimate(measurement, 96.0, "bench");
    }

    /** @return P(latency > 5 ms) */
    @Benchmark
    public DeadlineMiss deadlineMiss() throws EstimateRefusedException {
        return DeadlineMissEstimator.estimate(measurement.histogram(), 5.0);
    }
}
