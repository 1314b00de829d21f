package org.latencyserver.server.config;

import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;

/**
 * The {@code thresholds:} section: where the load states of thesis section 4.2.4 begin, and the
 * hysteresis bands that keep a utilisation hovering at a boundary from flapping the state.
 *
 * <p>The keys' defaults (the thesis's 33/66 with bands of 2 and 1 points), ranges and meaning are
 * {@link ServerOption}'s ({@code THRESHOLDS_*}); the rules that join keys are checked here and by the loader.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpuLowUpperPercent         {@code thresholds.cpu_low_upper_percent}: highest whole percent still LOW
 * @param cpuMediumUpperPercent      {@code thresholds.cpu_medium_upper_percent}: highest whole percent still
 *                                   MEDIUM; 0 ≤ low &lt; medium &lt; 100
 * @param cpuHysteresisBandPercent   {@code thresholds.cpu_hysteresis_band_percent}: total width of the band
 *                                   around each CPU boundary, percentage points, ≥ 0 and narrower than the
 *                                   narrowest CPU band; 0 turns it off
 * @param portLoadedAbovePercent     {@code thresholds.port_loaded_above_percent}: only 90, because the IDL's
 *                                   {@code port_state} encodes LOADED as 91..100
 * @param portHysteresisBandPercent  {@code thresholds.port_hysteresis_band_percent}: total width of the band
 *                                   around the port threshold, points, ≥ 0 and below 10 (the LOADED range)
 * @param portBands                  {@code thresholds.port_states} and {@code thresholds.port_band_upper_percents}:
 *                                   the thesis's state per loaded percent, or loaded bands
 */
public record Thresholds(int cpuLowUpperPercent, int cpuMediumUpperPercent, double cpuHysteresisBandPercent,
                         int portLoadedAbovePercent, double portHysteresisBandPercent, PortBands portBands) {

    /** Thresholds with the thesis's port states, one per loaded percent. */
    public Thresholds(final int cpuLowUpperPercent, final int cpuMediumUpperPercent, final double cpuHysteresisBandPercent,
                      final int portLoadedAbovePercent, final double portHysteresisBandPercent) {
        this(cpuLowUpperPercent, cpuMediumUpperPercent, cpuHysteresisBandPercent, portLoadedAbovePercent,
            portHysteresisBandPercent, PortBands.THESIS);
    }

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
        if (portBands == null) {
            throw new IllegalArgumentException("port bands must not be null");
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
