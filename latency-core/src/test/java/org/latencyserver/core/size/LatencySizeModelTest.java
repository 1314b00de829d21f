package org.latencyserver.core.size;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.core.estimate.ThesisAppendixA;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

class LatencySizeModelTest {

    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);

    /** Ordinary least squares by the textbook sums, independent of Commons Math's regression. */
    private record Line(double alpha, double beta, double rSquared, double residualStdDev, int n, double meanX, double sxx) {

        static Line through(final String sender, final String receiver) {
            final List<double[]> points = new ArrayList<>();
            for (final ThesisAppendixA.Row row : ThesisAppendixA.rows()) {
                if (row.platform().equals("TAC-4") && row.layer().equals("CORBA") && row.sender().equals(sender)
                    && row.receiver().equals(receiver)) {
                    points.add(new double[] {row.sizeBytes(), row.avgMillis()});
                }
            }
            final int n = points.size();
            final double meanX = points.stream().mapToDouble(p -> p[0]).average().orElseThrow();
            final double meanY = points.stream().mapToDouble(p -> p[1]).average().orElseThrow();
            double sxx = 0;
            double sxy = 0;
            double syy = 0;
            for (final double[] p : points) {
                sxx += (p[0] - meanX) * (p[0] - meanX);
                sxy += (p[0] - meanX) * (p[1] - meanY);
                syy += (p[1] - meanY) * (p[1] - meanY);
            }
            final double beta = sxy / sxx;
            final double alpha = meanY - beta * meanX;
            double sse = 0;
            for (final double[] p : points) {
                final double residual = p[1] - (alpha + beta * p[0]);
                sse += residual * residual;
            }
            return new Line(alpha, beta, 1 - sse / syy, Math.sqrt(sse / (n - 2)), n, meanX, sxx);
        }

        double at(final double x) {
            return alpha + beta * x;
        }

        double predictionHalfWidth(final double x) {
            final double t = new TDistribution(n - 2).inverseCumulativeProbability(0.975);
            return t * residualStdDev * Math.sqrt(1 + 1.0 / n + (x - meanX) * (x - meanX) / sxx);
        }
    }

    private static LatencySizeModel fit(final String sender, final String receiver) {
        return LatencySizeModel.fit(ThesisAppendixA.tac4Corba(),
            new CpuStatePair(CpuState.parse(sender), CpuState.parse(receiver)));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @CsvSource({"0-33, 0-33", "0-33, 67-100", "34-66, 67-100", "67-100, 67-100"})
    void theLineIsTheLeastSquaresFitOfTheCellMeans(final String sender, final String receiver) {
        final Line expected = Line.through(sender, receiver);
        final LatencySizeModel model = fit(sender, receiver);
        assertEquals(expected.alpha(), model.interceptMillis(), 1e-9);
        assertEquals(expected.beta(), model.slopeMillisPerByte(), 1e-12);
        assertEquals(expected.rSquared(), model.rSquared(), 1e-9);
        assertEquals(expected.residualStdDev(), model.residualStdDevMillis(), 1e-9);
        assertTrue(model.rSquared() > 0.9, "Appendix A is close to linear in size: R^2 " + model.rSquared());
    }

    @Test
    void theFitIsTheSameForEitherOrderOfTheCpuPair() {
        final LatencySizeModel lowHigh = fit("0-33", "67-100");
        final LatencySizeModel highLow = fit("67-100", "0-33");
        assertEquals(lowHigh.interceptMillis(), highLow.interceptMillis());
        assertEquals(lowHigh.slopeMillisPerByte(), highLow.slopeMillisPerByte());
        assertEquals(new CpuStatePair(CpuState.LOW, CpuState.HIGH), highLow.pair());
    }

    @ParameterizedTest(name = "{0} B")
    @ValueSource(ints = {64, 256, 1024, 8192})
    void aProfiledSizeIsAnsweredFromItsCellExactly(final int size) {
        final SizeEstimate estimate = fit("34-66", "34-66").estimateMillis(size);
        final double mean = ThesisAppendixA.mean("TAC-4", "CORBA", size, "34-66", "34-66");
        assertEquals(SizeEstimate.Kind.EXACT, estimate.kind());
        assertFalse(estimate.fromLine());
        assertEquals(mean, estimate.meanMillis());
        final double halfWidth = Z * ThesisAppendixA.ASSUMED_STD_DEV_MILLIS / Math.sqrt(ThesisAppendixA.SAMPLES_PER_CELL);
        assertEquals(mean - halfWidth, estimate.interval().lower(), 1e-12);
        assertEquals(mean + halfWidth, estimate.interval().upper(), 1e-12);
        assertTrue(estimate.label().startsWith("profiled size"), estimate.label());
    }

    @ParameterizedTest(name = "{0} B")
    @ValueSource(ints = {100, 3000, 5000, 8000})
    void aSizeBetweenTheProfiledOnesIsInterpolatedOnTheLine(final int size) {
        final Line line = Line.through("0-33", "0-33");
        final SizeEstimate estimate = fit("0-33", "0-33").estimateMillis(size);
        assertEquals(SizeEstimate.Kind.INTERPOLATED, estimate.kind());
        assertEquals(line.at(size), estimate.meanMillis(), 1e-9);
        assertEquals(line.predictionHalfWidth(size), estimate.interval().halfWidth(), 1e-9);
        assertEquals(line.rSquared(), estimate.rSquared(), 1e-9);
        assertTrue(estimate.label().startsWith("interpolated"), estimate.label());
        assertTrue(estimate.label().contains("R^2"), estimate.label());
    }

    @Test
    void aSizeBeyondTheProfiledOnesIsExtrapolatedAndLessCertain() {
        final LatencySizeModel model = fit("0-33", "0-33");
        final Line line = Line.through("0-33", "0-33");
        final SizeEstimate beyond = model.estimateMillis(65_536);
        assertEquals(SizeEstimate.Kind.EXTRAPOLATED, beyond.kind());
        assertTrue(beyond.extrapolated());
        assertEquals(line.at(65_536), beyond.meanMillis(), 1e-9);
        assertTrue(beyond.label().startsWith("extrapolated"), beyond.label());
        assertTrue(beyond.interval().halfWidth() > model.estimateMillis(4000).interval().halfWidth());
        assertEquals(SizeEstimate.Kind.EXTRAPOLATED, model.estimateMillis(32).kind(), "below the smallest size too");
    }

    @Test
    void fewerThanThreeSizesOrAnUnknownPairCannotBeFitted() {
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            cells.add(new ProfileCell(pair, 64, 10, 1.0, 0.1, 2.0, null));
            cells.add(new ProfileCell(pair, 128, 10, 1.1, 0.1, 2.0, null));
        }
        final Profile twoSizes = new Profile("two", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
        final IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
            () -> LatencySizeModel.fit(twoSizes, CpuStatePair.PROFILED_PAIRS.get(0)));
        assertTrue(few.getMessage().contains("found 2"), few.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LatencySizeModel.fit(ThesisAppendixA.tac4Corba(),
            new CpuStatePair(CpuState.UNKNOWN, CpuState.LOW)));
        assertThrows(IllegalArgumentException.class, () -> fit("0-33", "0-33").estimateMillis(0));
    }
}
