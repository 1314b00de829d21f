package org.latencyserver.server.table;

import java.util.Locale;

/**
 * What a connection serves (configuration key {@code calibration}).
 */
public enum CalibrationMode {
    /**
     * The value corrected from calibration so that it holds for the messages that follow (each served
     * estimate is tested against the round trips sent while it was served, and corrected from what
     * they showed), with probes, memory per load state, dwell and drift-triggered re-measurement. The default.
     */
    ADAPTIVE,
    /** The thesis's value, unchanged: a state change of a QoS 3/4 connection opens a measurement at once. */
    THESIS;

    /**
     * @return the name in the configuration and the IDL: the constant's name in lower case, as
     *         {@code config.ConfigWord} derives it (not implemented here: the table does not depend
     *         on the configuration package)
     */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
