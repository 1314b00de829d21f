package org.latencyserver.server.engine;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Optional;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.ProfileAverageEstimator;
import org.latencyserver.core.estimate.ProfileBoundEstimator;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ServedEstimate;

/**
 * Whether a submitted result or probe report is believable before it serves or teaches anything: its
 * mean (and for QoS 4 its bound) finite, {@code > 0} and at most {@link InputLimits#maxResultMillis()}, and within
 * {@link InputLimits#plausibilityFactor()} of what the connection is known to take in its current load
 * state: its last accepted result there, or, never measured there, its profile's estimate for it.
 * (Sizes, such as histogram bins, are checked where the IDL is converted, before anything is built.)
 *
 * <p>Each refusal says which value, how far off, compared with what, and which limit; the wording is
 * stable (the bad-input catalogue tests match it). Stateless apart from the limits; runs on the update
 * thread.
 */
final class ResultPlausibility {

    private final InputLimits limits;

    ResultPlausibility(final InputLimits limits) {
        this.limits = limits;
    }

    /** A value the result is compared with, and where it comes from (for the reason). */
    private record Reference(double millis, String description) {
    }

    /**
     * @param row         the connection, in the load state the measurement is for
     * @param measurement the submitted round trips
     * @param profile     the connection's profile, or null
     * @return an {@link Refusal.Kind#IMPLAUSIBLE} refusal of its mean or bound; empty when plausible
     */
    Optional<Refusal> measurement(final ConnectionRow row, final Measurement measurement, final Profile profile) {
        final Optional<Refusal> mean = check(row, profile, false, measurement.meanMillis());
        if (mean.isPresent() || !row.spec().isBound()) {
            return mean;
        }
        final Double bound = boundOf(measurement.histogram(), row.spec().boundPercent());
        // A bound in the overflow is no number to check: the estimator refuses to serve it, saying why.
        return bound == null ? Optional.empty() : check(row, profile, true, bound);
    }

    /**
     * @param row     the connection
     * @param value   the reported mean (QoS 3) or bound (QoS 4), ms
     * @param upper   the upper end of its interval (ms for QoS 3; percent for QoS 4)
     * @param profile the connection's profile, or null
     * @return an {@link Refusal.Kind#IMPLAUSIBLE} refusal of the value or the interval; empty when plausible
     */
    Optional<Refusal> thesisResponse(final ConnectionRow row, final double value, final double upper, final Profile profile) {
        final boolean bound = row.spec().isBound();
        final Optional<Refusal> refusal = check(row, profile, bound, value);
        if (refusal.isEmpty() && !bound && upper > limits.maxResultMillis()) {
            return Optional.of(overMaximum("interval upper end", upper));
        }
        return refusal;
    }

    /**
     * @param row        the connection
     * @param roundTrips the window's round trips
     * @param meanMillis their mean
     * @param profile    the connection's profile, or null
     * @return an {@link Refusal.Kind#IMPLAUSIBLE} refusal of the mean; empty when plausible (or no round trips)
     */
    Optional<Refusal> probe(final ConnectionRow row, final LatencyHistogram roundTrips, final double meanMillis,
                            final Profile profile) {
        return roundTrips.totalCount() == 0 ? Optional.empty() : check(row, profile, false, meanMillis);
    }

    private Optional<Refusal> check(final ConnectionRow row, final Profile profile, final boolean bound, final double valueMillis) {
        final String name = bound ? percent(row.spec().boundPercent()) + " % bound" : "mean";
        if (!(valueMillis > 0) || Double.isInfinite(valueMillis)) {
            return Optional.of(Refusal.of(Refusal.Kind.IMPLAUSIBLE, name, valueMillis, "finite and > 0 ms",
                name + " " + valueMillis + " ms is not a finite number > 0"));
        }
        if (valueMillis > limits.maxResultMillis()) {
            return Optional.of(overMaximum(name, valueMillis));
        }
        final Reference reference = reference(row, profile, bound, name);
        if (reference == null) {
            return Optional.empty();
        }
        final double ratio = valueMillis / reference.millis();
        final double factor = limits.plausibilityFactor();
        if (ratio > factor) {
            final String limit = times(factor) + " × (limits.plausibility_factor)";
            return Optional.of(Refusal.of(Refusal.Kind.IMPLAUSIBLE, name, millis(valueMillis), limit, name + " "
                + millis(valueMillis) + " ms is " + times(ratio) + " × " + reference.description() + "; the limit is " + limit));
        }
        if (1 / ratio > factor) {
            final String limit = "1/" + times(factor) + " (limits.plausibility_factor)";
            return Optional.of(Refusal.of(Refusal.Kind.IMPLAUSIBLE, name, millis(valueMillis), limit, name + " "
                + millis(valueMillis) + " ms is 1/" + times(1 / ratio) + " of " + reference.description() + "; the limit is " + limit));
        }
        return Optional.empty();
    }

    private Refusal overMaximum(final String name, final double valueMillis) {
        final String limit = limits.maxResultMillis() + " ms (limits.max_result_millis)";
        return Refusal.of(Refusal.Kind.IMPLAUSIBLE, name, millis(valueMillis), limit,
            name + " " + millis(valueMillis) + " ms is above the limit of " + limit);
    }

    /**
     * The connection's last accepted value in its load state: the result serving now when it was
     * measured in this state (a state change relabels or replaces it), else this state's last
     * measurement, else the profile's estimate for the state; null when none is known.
     */
    private static Reference reference(final ConnectionRow row, final Profile profile, final boolean bound, final String name) {
        if (!row.load().isKnown()) {
            return null;
        }
        final String state = row.load().label();
        final ServedEstimate served = row.served();
        final Estimate accepted = served.thesis();
        if (served.source() == EstimateSource.MEASUREMENT && accepted != null
            && accepted.kind() == (bound ? EstimateKind.BOUND : EstimateKind.AVERAGE) && accepted.valueMillis() > 0) {
            return new Reference(accepted.valueMillis(), "the connection's last accepted " + name + " "
                + millis(accepted.valueMillis()) + " ms in " + state);
        }
        final Measurement last = row.currentKnowledge().lastMeasurement();
        final Double measured = last == null ? null
            : bound ? boundOf(last.histogram(), row.spec().boundPercent()) : Double.valueOf(last.meanMillis());
        if (measured != null && measured > 0) {
            return new Reference(measured, "the connection's last measured " + name + " " + millis(measured) + " ms in " + state);
        }
        final Estimate fromProfile = profile == null ? null : profileEstimate(row, profile, bound);
        if (fromProfile == null || !(fromProfile.valueMillis() > 0)) {
            return null;
        }
        final String what = fromProfile.kind() == EstimateKind.BOUND ? name : "mean";
        return new Reference(fromProfile.valueMillis(), "profile " + profile.name() + "'s " + what + " "
            + millis(fromProfile.valueMillis()) + " ms for " + state + " at " + row.spec().messageSizeBytes() + " B");
    }

    /** The profile's bound for a bound (its mean when it has no histograms), its mean for a mean; null when it has none. */
    private static Estimate profileEstimate(final ConnectionRow row, final Profile profile, final boolean bound) {
        if (bound) {
            try {
                return ProfileBoundEstimator.estimate(profile, row.load(), row.spec().messageSizeBytes(), row.spec().boundPercent());
            } catch (EstimateRefusedException noHistogram) {
                // compared with the mean instead: a bound lies above it, well within any factor that makes sense
            }
        }
        try {
            return ProfileAverageEstimator.estimate(profile, row.load(), row.spec().messageSizeBytes());
        } catch (EstimateRefusedException none) {
            return null;
        }
    }

    private static Double boundOf(final LatencyHistogram histogram, final double boundPercent) {
        try {
            return histogram.boundAt(boundPercent).boundMillis();
        } catch (RuntimeException beyondOrEmpty) {
            return null;
        }
    }

    /** A duration for a reason: plain decimals where they read well, else scientific. */
    static String millis(final double value) {
        if (value >= 1e-3 && value < 1e12) {
            return new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    /** A ratio for a reason: {@code 12.5}, {@code 1000}, {@code 3.1e7}. */
    static String times(final double ratio) {
        if (ratio < 10_000) {
            return new BigDecimal(ratio).round(new MathContext(3)).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%.1e", ratio).replace("e+0", "e").replace("e+", "e");
    }

    private static String percent(final double percent) {
        return BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
    }
}
