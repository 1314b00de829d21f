package org.latencyserver.core.port;

/**
 * What the intermediate switch port adds to a round trip at a given utilisation.
 *
 * <p>Immutable and thread-safe.
 *
 * @param millis       added latency in ms, {@code >= 0} (0 at or below 90 %)
 * @param basis        where the figure comes from, for the estimate's notes
 * @param extrapolated true when the model was used outside the range it was measured over
 */
public record PortContribution(double millis, String basis, boolean extrapolated) {

    /** No contribution: the port is at or below its loaded threshold. */
    public static final PortContribution NONE = new PortContribution(0.0, "port not loaded", false);
}
