package org.latencyserver.core.calibration;

/**
 * How far the shape mean model's windows scatter about its fit, and so the ridge on its slopes
 * ({@link ShapeMeanModel}): each window's one-step-ahead residual {@code r} (its response against the model before it
 * learned the window), weighted as the window is ({@code w = min(n, 20)}), kept as the forgotten sums
 * {@code Σ w r²} and {@code Σ 1}. Their ratio {@code c} is a window's scatter in weight units (a window of weight
 * {@code w} has a variance of about {@code c / w} on the log): about 0.3 for light-tailed round trips, 5–10 on a real
 * network whose round trips are heavy-tailed and whose thesis means are off by a different factor in each episode.
 *
 * <p>The ridge on the slopes is {@code c / τ²} with a prior slope spread {@code τ = }{@value #SLOPE_SPREAD} (a
 * shape's factor moving by e^0.6 for every e-fold of spacing or burst length is already a large effect), never below
 * {@value #MIN_RIDGE}: the posterior mean of the slopes under that prior, so a few scattered windows move them little
 * and windows that agree set them. The model keeps residuals only once it is fitted: before, its fit from a few
 * windows scatters itself. So the first fit served is still at {@value #MIN_RIDGE}, and the first few residuals kept
 * set the ridge with no prior on the scatter itself; a loaded window's residual is against the loaded terms however
 * young, so a loaded port's misfit (a shape queueing behind itself, which the band's linear terms only straddle)
 * counts as scatter and raises the ridge on every slope.
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
     * Most windows the forgotten count can hold: {@code 1 / (1 − }{@value ShapeMeanModel#FORGETTING}{@code )}, every earlier
     * count multiplied by the forgetting factor before a window adds 1.
     */
    public static final double MAX_WINDOWS = 1.0 / (1.0 - ShapeMeanModel.FORGETTING);

    /**
     * @throws IllegalArgumentException when a sum is negative or not finite, a residual sum is kept without a window, the
     *                                  count lies outside {0} ∪ [1, {@link #MAX_WINDOWS}] (no sequence of windows gives
     *                                  it), or the ridge they give is not finite
     */
    public WindowNoise {
        if (!(residualSum >= 0) || Double.isInfinite(residualSum) || !(windows >= 0) || Double.isInfinite(windows)) {
            throw new IllegalArgumentException("a shape mean model's residual sums must be finite and >= 0, had "
                + residualSum + " and " + windows);
        }
        if (windows == 0 ? residualSum > 0 : windows < 1 || windows > MAX_WINDOWS * (1 + 1e-9)) {
            throw new IllegalArgumentException("a shape mean model's window count must be 0 with no residual, or within [1, "
                + MAX_WINDOWS + "], had " + windows + " windows and a residual sum of " + residualSum);
        }
        if (windows > 0 && !Double.isFinite(residualSum / windows / (SLOPE_SPREAD * SLOPE_SPREAD))) {
            throw new IllegalArgumentException("a shape mean model's scatter must give a finite ridge, had " + residualSum
                + " over " + windows + " windows");
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
