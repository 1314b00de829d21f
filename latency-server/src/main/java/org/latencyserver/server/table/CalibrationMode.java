package org.latencyserver.server.table;

/**
 * What a connection serves (configuration key {@code calibration}).
 */
public enum CalibrationMode {
    /**
     * The value corrected from calibration so that it holds for the messages that follow (BRIEF
     * §11), with probes, memory per load state, dwell and drift-triggered re-measurement. The default.
     */
    ADAPTIVE("adaptive"),
    /** The thesis's value, unchanged: a state change of a QoS 3/4 connection opens a measurement at once. */
    THESIS("thesis");

    private final String configName;

    CalibrationMode(final String configName) {
        this.configName = configName;
    }

    /** @return the name in the configuration and the IDL */
    public String configName() {
        return configName;
    }
}
