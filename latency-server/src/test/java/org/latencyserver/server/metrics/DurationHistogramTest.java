package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The allocation-free histogram against client_java's own native and classic buckets. */
class DurationHistogramTest {

    @Test
    void nativeBucketsAreClientJavasAtTheSameSchema() {
        final SplittableRandom random = new SplittableRandom(16);
        final double[] values = new double[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.pow(2, random.nextDouble(-29, 15)); // 2 ns .. 9 h, log-uniform
        }
        values[0] = 0x1p-10; // exact boundaries
        values[1] = Math.pow(2, -10.25);
        values[2] = 1.0;
        values[3] = 50e-6;
        final DurationHistogram ours = new DurationHistogram("ours_seconds", "ours");
        final Histogram theirs = Histogram.builder().name("theirs_seconds").help("theirs").nativeOnly()
            .nativeInitialSchema(DurationHistogram.SCHEMA).nativeMaxNumberOfBuckets(10_000).build();
        for (final double value : values) {
            ours.observe(value);
            theirs.observe(value);
        }
        final HistogramSnapshot.HistogramDataPointSnapshot a = ours.collect().getDataPoints().get(0);
        final HistogramSnapshot.HistogramDataPointSnapshot b = theirs.collect().getDataPoints().get(0);
        assertEquals(b.getNativeSchema(), a.getNativeSchema());
        assertEquals(values.length, a.getCount());
        assertEquals(b.getSum(), a.getSum(), 1e-6 * b.getSum());
        assertEquals(b.getNativeBucketsForPositiveValues().stream().map(x -> x.getBucketIndex() + ":" + x.getCount()).toList(),
            a.getNativeBucketsForPositiveValues().stream().map(x -> x.getBucketIndex() + ":" + x.getCount()).toList());
    }

    @Test
    void classicBucketsAgreeWithTheNativeOnesAndWithCountingDirectly() {
        final DurationHistogram ours = new DurationHistogram("ours_seconds", "ours");
        final double[] values = {0, 0x1p-20, 0x1p-20 * 1.0001, 3e-6, 1e-3, 0.25, 1.0, 1.5, 1e9};
        for (final double value : values) {
            ours.observe(value);
        }
        final HistogramSnapshot.HistogramDataPointSnapshot point = ours.collect().getDataPoints().get(0);
        assertEquals(values.length, point.getCount());
        assertEquals(1, point.getNativeZeroCount());
        final double[] bounds = DurationHistogram.CLASSIC_BOUNDS;
        for (int c = 0; c < point.getClassicBuckets().size(); c++) {
            final double upper = c < bounds.length ? bounds[c] : Double.POSITIVE_INFINITY;
            final double lower = c == 0 ? Double.NEGATIVE_INFINITY : bounds[c - 1];
            long expected = 0;
            for (final double value : values) {
                expected += value > lower && value <= upper ? 1 : 0;
            }
            assertEquals(expected, point.getClassicBuckets().getCount(c), "bucket le=" + upper);
        }
    }
}
