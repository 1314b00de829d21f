package org.latencyserver.server.security;

import java.util.Locale;

/**
 * What a client certificate may do beyond reading. Reads ({@code RequestStatus}, estimates,
 * subscriptions, calibration) need no role.
 */
public enum Role {
    /** Submits measurement results and probe reports for connections whose client node is its own, and sees their tickets. */
    AGENT,
    /** {@code PutMibUpdates} and {@code RequestTableStatus}. */
    OPERATOR,
    /** {@code load_profile}. */
    PLANNER;

    /** @return the name used in the configuration, e.g. {@code agent} */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text a configuration value
     * @return the role, or null when the text names none
     */
    public static Role fromConfigName(final String text) {
        for (final Role role : values()) {
            if (role.configName().equals(text)) {
                return role;
            }
        }
        return null;
    }
}
