package org.latencyserver.core.port;

/**
 * What the intermediate switch port adds to a round trip at a given utilisation.
 *
 * <p>Immutable and thread-safe.
 *
 * @param millis       added round-trip latency in ms, finite and {@code >= 0} (0 at or below 90 %)
 * @param basis        where the figure comes from, in words for an estimate's notes, e.g.
 *                     {@code "thesis queue model at 95 %: 1/(1-(u-91)/10)"}; not blank
 * @param extrapolated true when the model was used outside the range it was measured over
 */
public record PortContribution(double millis, String basis, boolean extrapolated) {

    /** No contribution: the port is at or below its loaded threshold. */
    public static final PortContribution NONE = new PortContribution(0.0, "port not loaded", false);

    /**
     * @throws IllegalArgumentException when {@code millis} is negative, NaN or infinite, or the basis
     *                                  is blank
     */
    public PortContribution {
        if (!(millis >= 0) || Double.isInfinite(millis)) {
            throw new IllegalArgumentException("a port contribution must be finite and >= 0 ms, was " + millis);
        }
        if (basis == null || basis.isBlank()) {
            throw new IllegalArgumentException("a port contribution needs its basis, was '" + basis + "'");
        }
    }
}
