package org.latencyserver.testbed;

import java.util.List;
import java.util.Optional;

/**
 * A link between two switches (a veth pair whose ends are ports of both bridges), optionally with
 * a bottleneck on the port that sends toward one of them.
 *
 * <p>Immutable; thread-safe.
 *
 * @param name          unique among the topology's switches, hosts and links; also its ports' name
 * @param firstSwitch   one end
 * @param secondSwitch  the other end, not the first
 * @param bottleneck    the limit, when there is one
 * @param towardSwitch  the switch the limited traffic goes to (one of the two ends), when there is a bottleneck
 */
public record LinkSpec(String name, String firstSwitch, String secondSwitch, Optional<Bottleneck> bottleneck,
                       Optional<String> towardSwitch) {

    /** @return both ends, first then second */
    public List<String> switches() {
        return List.of(firstSwitch, secondSwitch);
    }

    /**
     * @param end one of the link's switches
     * @return the other
     * @throws IllegalArgumentException when {@code end} is not an end of this link
     */
    public String otherEnd(final String end) {
        if (end.equals(firstSwitch)) {
            return secondSwitch;
        }
        if (end.equals(secondSwitch)) {
            return firstSwitch;
        }
        throw new IllegalArgumentException("link '" + name + "' does not end at '" + end + "'");
    }

    /** @return the switch whose port carries the bottleneck (the end that sends toward {@link #towardSwitch}) */
    public Optional<String> limitedEnd() {
        return towardSwitch.map(this::otherEnd);
    }
}
