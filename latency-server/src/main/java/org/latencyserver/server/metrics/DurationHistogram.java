package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A histogram of durations, native (schema {@value #SCHEMA}) with classic buckets, whose
 * {@link #observe} allocates nothing and takes no lock: one {@link LongAdder} per native bucket
 * over a fixed range, one {@link DoubleAdder} for the sum. client_java 1.3.1's {@code Histogram}
 * allocates per native observation (an {@code AtomicBoolean} in its reset/scale-down check), which
 * the {@code RequestStatus} path must not.
 *
 * <p>The classic buckets are powers of two, which are native bucket boundaries, so at a scrape
 * both views are summed from the same native counters and always agree (Prometheus refuses a
 * native histogram whose count differs from its buckets' total; counters read one by one while
 * calls go on could otherwise disagree).
 *
 * <p>Range: values at or below {@link #ZERO_THRESHOLD_SECONDS} (a clock that did not advance)
 * count in the zero bucket; values above 2^{@value #MAX_EXPONENT} s in the highest bucket.
 */
final class DurationHistogram implements Collector {

    /** Buckets grow by 2^(1/4): ±9 %. */
    static final int SCHEMA = 2;
    /** 2^-30 s, about 1 ns: below any clock's resolution. */
    static final double ZERO_THRESHOLD_SECONDS = 0x1p-30;
    static final int MAX_EXPONENT = 16;
    private static final int BUCKETS_PER_OCTAVE = 1 << SCHEMA;
    private static final int MIN_INDEX = -30 * BUCKETS_PER_OCTAVE + 1;
    private static final int MAX_INDEX = MAX_EXPONENT * BUCKETS_PER_OCTAVE;
    /** Upper bounds of the buckets within an octave, as factors of its lower end. */
    private static final double[] OCTAVE_BOUNDS = {Math.pow(2, 0.25), Math.pow(2, 0.5), Math.pow(2, 0.75)};
    /**
     * Classic upper bounds: 2^-20 s (0.95 µs) to 2^0 s by factors of 4 (3.8 µs, 15 µs, 61 µs,
     * 244 µs, 0.98 ms, 3.9 ms, 15.6 ms, 62.5 ms, 0.25 s, 1 s).
     */
    static final double[] CLASSIC_BOUNDS = {0x1p-20, 0x1p-18, 0x1p-16, 0x1p-14, 0x1p-12, 0x1p-10, 0x1p-8, 0x1p-6, 0x1p-4, 0x1p-2, 1};

    private final MetricMetadata metadata;
    private final LongAdder zero = new LongAdder();
    private final LongAdder[] buckets = new LongAdder[MAX_INDEX - MIN_INDEX + 1];
    private final DoubleAdder sum = new DoubleAdder();

    /**
     * @param name a name ending in {@code _seconds}
     * @param help its help text
     */
    DurationHistogram(final String name, final String help) {
        metadata = new MetricMetadata(name, help, Unit.SECONDS);
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    /**
     * The native bucket index of a positive value: bucket {@code i} holds
     * {@code (2^((i-1)/4), 2^(i/4)]}, as Prometheus defines them.
     *
     * @param seconds a value above {@link #ZERO_THRESHOLD_SECONDS}
     * @return its index, clamped to the range
     */
    static int index(final double seconds) {
        if (!(seconds < 0x1p16)) {
            return MAX_INDEX; // above the range, or infinite
        }
        final int exponent = Math.getExponent(seconds);
        final double mantissa = Math.scalb(seconds, -exponent); // [1, 2)
        if (mantissa == 1.0) {
            return Math.max(MIN_INDEX, exponent * BUCKETS_PER_OCTAVE);
        }
        int k = 0;
        while (k < OCTAVE_BOUNDS.length && mantissa > OCTAVE_BOUNDS[k]) {
            k++;
        }
        return Math.max(MIN_INDEX, exponent * BUCKETS_PER_OCTAVE + k + 1);
    }

    /**
     * Lock-free and allocation-free.
     *
     * @param seconds a duration; NaN is ignored
     */
    void observe(final double seconds) {
        if (Double.isNaN(seconds)) {
            return;
        }
        if (seconds <= ZERO_THRESHOLD_SECONDS) {
            zero.increment();
        } else {
            buckets[index(seconds) - MIN_INDEX].increment();
        }
        sum.add(seconds);
    }

    @Override
    public HistogramSnapshot collect() {
        final long zeroCount = zero.sum();
        final long[] counts = new long[buckets.length];
        int used = 0;
        for (int i = 0; i < buckets.length; i++) {
            counts[i] = buckets[i].sum();
            used += counts[i] > 0 ? 1 : 0;
        }
        final int[] nativeIndexes = new int[used];
        final long[] nativeCounts = new long[used];
        final long[] classic = new long[CLASSIC_BOUNDS.length + 1];
        classic[0] = zeroCount;
        int n = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                nativeIndexes[n] = i + MIN_INDEX;
                nativeCounts[n++] = counts[i];
                classic[classicBucket(i + MIN_INDEX)] += counts[i];
            }
        }
        final double[] bounds = java.util.Arrays.copyOf(CLASSIC_BOUNDS, CLASSIC_BOUNDS.length + 1);
        bounds[CLASSIC_BOUNDS.length] = Double.POSITIVE_INFINITY;
        return new HistogramSnapshot(metadata, List.of(new HistogramSnapshot.HistogramDataPointSnapshot(
            ClassicHistogramBuckets.of(bounds, classic), SCHEMA, zeroCount, ZERO_THRESHOLD_SECONDS,
            NativeHistogramBuckets.of(nativeIndexes, nativeCounts), NativeHistogramBuckets.EMPTY, sum.sum(), Labels.EMPTY,
            Exemplars.EMPTY, 0L)));
    }

    /** The classic bucket a whole native bucket falls in (the classic bounds are native boundaries). */
    private static int classicBucket(final int nativeIndex) {
        final double upper = Math.pow(2, (double) nativeIndex / BUCKETS_PER_OCTAVE);
        for (int c = 0; c < CLASSIC_BOUNDS.length; c++) {
            if (upper <= CLASSIC_BOUNDS[c] * (1 + 1e-12)) {
                return c;
            }
        }
        return CLASSIC_BOUNDS.length;
    }

    @Override
    public String getPrometheusName() {
        return metadata.getPrometheusName();
    }
}
