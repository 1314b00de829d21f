package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * Whether a profile fits the connections that name it: it is for the client's workstation type, and
 * it has histograms when a QoS 2 connection takes its bound from it. The one place these checks are
 * made, so that a profile is held to the same rules however it arrives: named in the configuration
 * (start-up refuses to run), loaded into the running server ({@code load_profile} refuses it), or
 * restored after a restart from the profiles a planner loaded (it is set aside, the configured one
 * serves). The reasons are the same words in all three.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileFit {

    private ProfileFit() {
    }

    /**
     * @param profile               the profile a connection names
     * @param qos                   the connection's QoS, or null when it could not be read
     * @param clientName            the client node's name, or null when it could not be read
     * @param clientWorkstationType the client node's workstation type, or null when it could not be read
     * @return why the profile does not fit the connection, one reason per check failed; empty when it fits
     */
    public static List<String> reasons(final Profile profile, final Qos qos, final String clientName,
                                       final String clientWorkstationType) {
        final List<String> reasons = new ArrayList<>();
        if (clientWorkstationType != null && !profile.workstationType().equals(clientWorkstationType)) {
            reasons.add("profile '" + profile.name() + "' is for " + profile.workstationType() + " workstations, but client '"
                + clientName + "' is a " + clientWorkstationType + ": a connection's profile must be for its client's workstation type");
        }
        if (qos != null && qos.needsProfileHistograms() && !profile.hasHistograms()) {
            reasons.add("QoS 2 takes its bound from the profile's histograms, but profile '" + profile.name()
                + "' has none in some cells (means and maxima only): use a measured profile, or QoS 4");
        }
        return reasons;
    }

    /**
     * @param profile     a valid profile, about to serve under its name
     * @param sourceName  where it came from, named in every fault
     * @param connections the configured connections
     * @return a fault for each connection naming the profile that it does not fit, located at
     *         {@code connection <index_ref>}; empty when it fits them all (or none names it)
     */
    public static List<InputFault> faults(final Profile profile, final String sourceName, final List<ConnectionSpec> connections) {
        final List<InputFault> faults = new ArrayList<>();
        for (final ConnectionSpec connection : connections) {
            if (profile.name().equals(connection.profileName())) {
                for (final String reason : reasons(profile, connection.asQos(), connection.clientNodeName(),
                    connection.clientWorkstationType().name())) {
                    faults.add(new InputFault(sourceName, 0, 0, "connection " + connection.indexRef(), reason));
                }
            }
        }
        return faults;
    }
}
