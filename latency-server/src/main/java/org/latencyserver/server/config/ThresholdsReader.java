package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputMapping;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.PortBands;

/**
 * Reads the configuration's {@code thresholds} section: the CPU state boundaries and their
 * hysteresis band, the port threshold (fixed at 90 % by the IDL) and its band, and the port states
 * (the thesis's state per percent, or bands with their upper edges). Every fault is reported with
 * its key; a value is checked against the others it must fit (a hysteresis band narrower than the
 * narrowest CPU state).
 *
 * <p>Stateless; the faults go to the section's own {@link InputFaults}.
 */
final class ThresholdsReader {

    private ThresholdsReader() {
    }

    /**
     * @param section the {@code thresholds} section, or null when absent
     * @param faults  where the section's faults were reported (its count tells whether this section added any)
     * @return the thresholds; the defaults for an absent section; null when the section has faults (reported)
     */
    static Thresholds read(final InputMapping section, final InputFaults faults) {
        if (section == null) {
            return Thresholds.DEFAULT;
        }
        OptionReads.allowOnlyOptionsOf(section, "thresholds");
        final int before = faults.count();
        final Long low = OptionReads.whole(section, ServerOption.THRESHOLDS_CPU_LOW_UPPER_PERCENT);
        final Long medium = OptionReads.whole(section, ServerOption.THRESHOLDS_CPU_MEDIUM_UPPER_PERCENT);
        final Double cpuBand = OptionReads.decimal(section, ServerOption.THRESHOLDS_CPU_HYSTERESIS_BAND_PERCENT);
        // Read as a percentage, so that any other value gets the reason it is fixed rather than a bare range.
        final ServerOption portLoaded = ServerOption.THRESHOLDS_PORT_LOADED_ABOVE_PERCENT;
        final Long portThreshold = section.integer(portLoaded.key(), portLoaded.defaultWhole(), 0, 100);
        final Double portBand = OptionReads.decimal(section, ServerOption.THRESHOLDS_PORT_HYSTERESIS_BAND_PERCENT);
        final PortBands portBands = portBands(section);
        if (low != null && medium != null && low >= medium) {
            section.fault(section.has("cpu_low_upper_percent") ? "cpu_low_upper_percent" : "cpu_medium_upper_percent",
                "cpu_low_upper_percent (" + low + ") must be below cpu_medium_upper_percent (" + medium + ")");
        } else if (low != null && medium != null && cpuBand != null) {
            final double narrowest = Thresholds.narrowestCpuBandPercent(low.intValue(), medium.intValue());
            if (!(cpuBand < narrowest)) {
                section.fault("cpu_hysteresis_band_percent", (section.has("cpu_hysteresis_band_percent") ? "" : "the default ")
                    + "band " + OptionValues.plain(cpuBand) + " must be narrower than the narrowest CPU band, " + OptionValues.plain(narrowest)
                    + " points (LOW 0-" + low + ", MEDIUM " + (low + 1) + "-" + medium + ", HIGH " + (medium + 1) + "-100)");
            }
        }
        if (portThreshold != null && !portLoaded.whole().contains(portThreshold)) {
            section.fault("port_loaded_above_percent", "is fixed at 90 by the IDL's port_state encoding (LOADED is 91..100), was "
                + portThreshold);
        }
        if (portBand != null && !(portBand < 10)) {
            section.fault("port_hysteresis_band_percent", "must be below 10 points, the width of the LOADED range 91..100, was "
                + OptionValues.plain(portBand));
        }
        if (faults.count() != before) {
            return null;
        }
        return new Thresholds(low.intValue(), medium.intValue(), cpuBand, portThreshold.intValue(), portBand, portBands);
    }

    /** {@code port_states} and {@code port_band_upper_percents}; null when bad (reported). */
    private static PortBands portBands(final InputMapping section) {
        final String bandsKey = ServerOption.THRESHOLDS_PORT_BAND_UPPER_PERCENTS.key();
        final Boolean banded = section.choice(ServerOption.THRESHOLDS_PORT_STATES.key(), Boolean.FALSE,
            Map.of("thesis", Boolean.FALSE, "bands", Boolean.TRUE));
        if (banded == null) {
            return null;
        }
        if (!banded) {
            if (section.has(bandsKey)) {
                section.fault(bandsKey, "applies only with port_states: bands (port_states is thesis: a state per percent)");
                return null;
            }
            return PortBands.THESIS;
        }
        if (!section.has(bandsKey)) {
            return PortBands.DEFAULT_BANDS;
        }
        final List<InputNode> items = section.list(bandsKey);
        final List<Integer> edges = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            final Long edge = InputMapping.integerIn(items.get(i), section.pathOf(bandsKey) + "[" + i + "]", 91, 99,
                section.faults());
            if (edge == null) {
                return null;
            }
            edges.add(edge.intValue());
        }
        try {
            return PortBands.of(edges);
        } catch (IllegalArgumentException e) {
            section.fault(bandsKey, e.getMessage());
            return null;
        }
    }
}
