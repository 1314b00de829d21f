package org.latencyserver.server.config;

import org.latencyserver.core.state.CpuThresholds;

/**
 * The {@code thresholds:} section: where the load states of thesis section 4.2.4 begin, and the
 * hysteresis bands that keep a utilisation hovering at a boundary from flapping the state.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpuLowUpperPercent         highest whole percent still LOW; {@code cpu_low_upper_percent},
 *                                   default 33 (thesis LOW 0–33 %)
 * @param cpuMediumUpperPercent      highest whole percent still MEDIUM; {@code cpu_medium_upper_percent},
 *                                   default 66 (thesis MEDIUM 34–66 %, HIGH 67–100 %); 0 ≤ low &lt; medium &lt; 100
 * @param cpuHysteresisBandPercent   total width of the band around each CPU boundary, percentage
 *                                   points, ≥ 0 and narrower than the narrowest CPU band;
 *                                   {@code cpu_hysteresis_band_percent}, default 2; 0 turns it off
 * @param portLoadedAbovePercent     the switch port is LOADED above this; {@code port_loaded_above_percent},
 *                                   default and only accepted value 90, because the IDL's
 *                                   {@code port_state} encodes LOADED as 91..100
 * @param portHysteresisBandPercent  total width of the band around the port threshold, points, ≥ 0
 *                                   and below 10 (the LOADED range); {@code port_hysteresis_band_percent},
 *                                   default 1
 */
public record Thresholds(int cpuLowUpperPercent, int cpuMediumUpperPercent, double cpuHysteresisBandPercent,
                         int portLoadedAbovePercent, double portHysteresisBandPercent) {

    /** The thesis's thresholds with the default hysteresis bands: the options table's. */
    public static final Thresholds DEFAULT = new Thresholds(
        (int) ServerOption.THRESHOLDS_CPU_LOW_UPPER_PERCENT.defaultWhole(),
        (int) ServerOption.THRESHOLDS_CPU_MEDIUM_UPPER_PERCENT.defaultWhole(),
        ServerOption.THRESHOLDS_CPU_HYSTERESIS_BAND_PERCENT.defaultDecimal(),
        (int) ServerOption.THRESHOLDS_PORT_LOADED_ABOVE_PERCENT.defaultWhole(),
        ServerOption.THRESHOLDS_PORT_HYSTERESIS_BAND_PERCENT.defaultDecimal());

    /**
     * @throws IllegalArgumentException when the thresholds are not ordered, the port threshold is
     *                                  not 90, or a band is negative or too wide
     */
    public Thresholds {
        // CpuThresholds checks order and the CPU band; checked again here so a bad record cannot exist.
        new CpuThresholds(cpuLowUpperPercent, cpuMediumUpperPercent, cpuHysteresisBandPercent);
        if (!(cpuHysteresisBandPercent < narrowestCpuBandPercent(cpuLowUpperPercent, cpuMediumUpperPercent))) {
            throw new IllegalArgumentException("CPU hysteresis band must be narrower than the narrowest CPU band ("
                + narrowestCpuBandPercent(cpuLowUpperPercent, cpuMediumUpperPercent) + " points), was " + cpuHysteresisBandPercent);
        }
        if (portLoadedAbovePercent != 90) {
            throw new IllegalArgumentException("the port threshold is fixed at 90 % by the IDL, was " + portLoadedAbovePercent);
        }
        if (!(portHysteresisBandPercent >= 0 && portHysteresisBandPercent < 10)) {
            throw new IllegalArgumentException("port hysteresis band must be 0..10 points (exclusive), was "
                + portHysteresisBandPercent);
        }
    }

    /**
     * The widths of the three CPU bands on a continuous scale (boundaries half way between whole
     * percents, as {@link CpuThresholds} places them): LOW {@code low + 0.5}, MEDIUM
     * {@code medium − low}, HIGH {@code 99.5 − medium}.
     *
     * @param lowUpperPercent    highest whole percent still LOW
     * @param mediumUpperPercent highest whole percent still MEDIUM
     * @return the narrowest, in points; a hysteresis band must be narrower
     */
    public static double narrowestCpuBandPercent(final int lowUpperPercent, final int mediumUpperPercent) {
        return Math.min(lowUpperPercent + 0.5, Math.min(mediumUpperPercent - lowUpperPercent, 99.5 - mediumUpperPercent));
    }

    /** @return the CPU thresholds as the state classifier of {@code latency-core} takes them */
    public CpuThresholds cpuThresholds() {
        return new CpuThresholds(cpuLowUpperPercent, cpuMediumUpperPercent, cpuHysteresisBandPercent);
    }
}
