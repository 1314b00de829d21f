package org.latencyserver.core.calibration;

/**
 * How far the shape mean model's windows scatter about its fit, and so the ridge on its slopes
 * ({@link ShapeMeanModel}): each window's one-step-ahead residual {@code r} (its response against the model before it
 * learned the window), weighted as the window is ({@code w = min(n, 20)}), kept as the forgotten sums
 * {@code Σ w r²} and {@code Σ 1}. Their ratio {@code c} is a window's scatter in weight units (a window of weight
 * {@code w} scatters by about {@code c / w} on the log): about 0.3 for light-tailed round trips, 5–10 on a real
 * network whose round trips are heavy-tailed and whose thesis means are off by a different factor in each episode.
 *
 * <p>The ridge on the slopes is {@code c / τ²} with a prior slope spread {@code τ = }{@value #SLOPE_SPREAD} (a
 * shape's factor moving by e^0.6 for every e-fold of spacing or burst length is already a large effect), never below
 * {@value #MIN_RIDGE}: the posterior mean of the slopes under that prior, so a few scattered windows move them little
 * and windows that agree set them. The model keeps residuals only once it is fitted: before, its fit from a few
 * windows scatters itself.
 *
 * <p>Immutable and thread-safe.
 *
 * @param residualSum forgotten weighted sum of the windows' squared one-step-ahead residuals, {@code >= 0}
 * @param windows     forgotten count of those windows, {@code >= 0}
 */
public record WindowNoise(double residualSum, double windows) {

    /** Nothing kept: the ridge is {@value #MIN_RIDGE}. */
    public static final WindowNoise NONE = new WindowNoise(0.0, 0.0);

    /** Prior spread of a slope (per e-fold of spacing or burst length, on the log of the factor). */
    public static final double SLOPE_SPREAD = 0.6;

    /** Smallest ridge on the slopes, in window-weight units: what the model had before its scatter was kept. */
    public static final double MIN_RIDGE = 1.0;

    /**
     * @throws IllegalArgumentException when a sum is negative or not finite
     */
    public WindowNoise {
        if (!(residualSum >= 0) || Double.isInfinite(residualSum) || !(windows >= 0) || Double.isInfinite(windows)) {
            throw new IllegalArgumentException("a shape mean model's residual sums must be finite and >= 0, had "
                + residualSum + " and " + windows);
        }
    }

    /** @return a window's scatter about the fit in weight units, {@code Σ w r² / Σ 1}; 0 before any window is kept */
    public double scatter() {
        return windows > 0 ? residualSum / windows : 0.0;
    }

    /** @return the ridge on the slopes: {@code scatter / τ²}, at least {@value #MIN_RIDGE} */
    public double ridge() {
        return Math.max(MIN_RIDGE, scatter() / (SLOPE_SPREAD * SLOPE_SPREAD));
    }

    /**
     * @param residual   the window's response less what the model before it predicted
     * @param weight     its weight
     * @param forgetting what the earlier sums are multiplied by, in (0, 1]
     * @return the sums after the window; unchanged when the residual is not finite
     */
    public WindowNoise after(final double residual, final double weight, final double forgetting) {
        if (!Double.isFinite(residual)) {
            return this;
        }
        return new WindowNoise(forgetting * residualSum + weight * residual * residual, forgetting * windows + 1.0);
    }
}
