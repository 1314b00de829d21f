package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The distinct traffic shapes one port band's trains were sent with, and their weights, while they are few: a
 * connection that declares its traffic (one shape) or probes with a few fixed ones. With them the shape model's estimate
 * of the band's mix ({@link ShapeMixBound}) is the mixture's own quantile; a family drawn at random has more shapes than
 * are kept, and the estimate then takes the shapes as spread normally, from the sums' moments.
 *
 * <p>A shape is its spacing, burst length and call (the model's features; the pause is not one). Each train adds its
 * weight to its shape's entry; every entry, and the weight of trains whose shape found no room
 * ({@link #otherWeight()}), is forgotten by {@value ShapeExcessModel#FORGETTING} on a train of the band, as the sums are;
 * an entry forgotten below {@value #DROPPED_BELOW} is dropped. Weights are kept as multiples of
 * {@code 1 / }{@value ShapeExcessModel#RESIDUAL_WEIGHTS_PER_UNIT}.
 *
 * <p>Immutable and thread-safe.
 */
public final class BandShapes {

    /** Most distinct shapes kept. */
    public static final int MAX_SHAPES = 16;
    /** Weight below which a forgotten entry is dropped (above 0.01, where rounding to 1e-4 would stop forgetting). */
    public static final double DROPPED_BELOW = 0.02;
    /** Share of the weight the trains without room may hold while the kept shapes still stand for the mix. */
    public static final double FEW_SHARE = 0.01;
    /** No train. */
    public static final BandShapes EMPTY = new BandShapes(List.of(), 0.0);

    /**
     * @param shape  a shape (its pause 0)
     * @param weight its trains' forgotten weight, {@code > 0}
     */
    public record Entry(TrafficShape shape, double weight) {
    }

    private final List<Entry> entries;
    private final double otherWeight;

    /**
     * @param entries     at most {@value #MAX_SHAPES} shapes, no two with the same spacing, burst length and call, each
     *                    weight finite and {@code > 0}
     * @param otherWeight the forgotten weight of trains whose shape found no room, finite and {@code >= 0}
     * @throws IllegalArgumentException otherwise, saying what
     */
    public BandShapes(final List<Entry> entries, final double otherWeight) {
        if (entries == null || entries.size() > MAX_SHAPES) {
            throw new IllegalArgumentException("at most " + MAX_SHAPES + " shapes are kept per band, had "
                + (entries == null ? "none (null)" : entries.size()));
        }
        final List<Entry> copy = new ArrayList<>(entries.size());
        for (final Entry entry : entries) {
            if (entry == null || entry.shape() == null || !(entry.weight() > 0) || Double.isInfinite(entry.weight())) {
                throw new IllegalArgumentException("a kept shape needs its shape and a finite weight > 0, had " + entry);
            }
            for (final Entry other : copy) {
                if (sameShape(other.shape(), entry.shape())) {
                    throw new IllegalArgumentException("the shape " + entry.shape().label() + " is kept twice");
                }
            }
            copy.add(new Entry(new TrafficShape(entry.shape().spacingMicros(), entry.shape().burstRoundTrips(), 0,
                entry.shape().call()), entry.weight()));
        }
        if (!(otherWeight >= 0) || Double.isInfinite(otherWeight)) {
            throw new IllegalArgumentException("the other shapes' weight must be finite and >= 0, was " + otherWeight);
        }
        this.entries = List.copyOf(copy);
        this.otherWeight = otherWeight;
    }

    /** @return the kept shapes and their weights */
    public List<Entry> entries() {
        return entries;
    }

    /** @return the forgotten weight of trains whose shape found no room */
    public double otherWeight() {
        return otherWeight;
    }

    /**
     * @return whether the kept shapes stand for the band's mix: some kept, and the trains without room holding less than
     *         {@value #FEW_SHARE} of the weight
     */
    public boolean few() {
        double kept = 0;
        for (final Entry entry : entries) {
            kept += entry.weight();
        }
        return kept > 0 && otherWeight < FEW_SHARE * (kept + otherWeight);
    }

    /**
     * @param shape  the train's shape
     * @param weight its weight, {@code > 0}
     * @return the shapes after it: every weight forgotten, the train's added to its shape's entry (a new one while there
     *         is room, else to the other shapes' weight)
     */
    BandShapes observe(final TrafficShape shape, final double weight) {
        final List<Entry> next = new ArrayList<>(entries.size() + 1);
        boolean added = false;
        for (final Entry entry : entries) {
            final boolean same = sameShape(entry.shape(), shape);
            final double kept = rounded(ShapeExcessModel.FORGETTING * entry.weight() + (same ? weight : 0.0));
            added |= same;
            if (kept >= DROPPED_BELOW) {
                next.add(new Entry(entry.shape(), kept));
            }
        }
        double other = rounded(ShapeExcessModel.FORGETTING * otherWeight);
        if (!added) {
            if (next.size() < MAX_SHAPES) {
                next.add(new Entry(shape, rounded(weight)));
            } else {
                other = rounded(other + weight);
            }
        }
        return new BandShapes(next, other);
    }

    private static boolean sameShape(final TrafficShape a, final TrafficShape b) {
        return a.spacingMicros() == b.spacingMicros() && a.burstRoundTrips() == b.burstRoundTrips() && a.call() == b.call();
    }

    private static double rounded(final double weight) {
        return Math.round(weight * ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT) / ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof BandShapes that && entries.equals(that.entries) && otherWeight == that.otherWeight;
    }

    @Override
    public int hashCode() {
        return 31 * entries.hashCode() + Double.hashCode(otherWeight);
    }
}
