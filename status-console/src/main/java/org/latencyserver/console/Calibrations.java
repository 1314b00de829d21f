package org.latencyserver.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.console.ConsoleSnapshot.CalibrationView;
import org.latencyserver.console.ConsoleSnapshot.ConnectionView;
import org.latencyserver.console.ConsoleSnapshot.StateCalibrationView;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.StateCalibration;

/**
 * The server's calibration of a connection ({@code calibration(index_ref)}) as the console shows
 * it: the IDL's figures per load state, which of them is the current state, and whether a served
 * bound is not holding. Stateless.
 */
final class Calibrations {

    /**
     * A bound is "not holding" when its coverage interval lies wholly below nominal minus this
     * many percentage points: a small shortfall within the noise of a few blocks is not an alarm.
     */
    static final double NOT_HOLDING_MARGIN_POINTS = 1.5;

    private Calibrations() {
    }

    /**
     * @param calibration   as the server returned it
     * @param cpuStateNow   the connection's cpu_state code now
     * @param portStateNow  its port_state code now
     * @return the console's view
     */
    static CalibrationView view(final Calibration calibration, final int cpuStateNow, final int portStateNow) {
        final List<StateCalibrationView> states = new ArrayList<>();
        for (final StateCalibration state : calibration.states) {
            states.add(state(state, state.cpu_state == cpuStateNow && state.port_state == portStateNow));
        }
        return new CalibrationView(calibration.mode, state(calibration.pooled, false), List.copyOf(states));
    }

    private static StateCalibrationView state(final StateCalibration s, final boolean current) {
        // The server sends a [0, 0] interval named "none yet (…)" until two blocks were seen.
        final boolean intervalKnown = s.round_trips_checked > 0 && !s.coverage_interval.method.startsWith("none")
            && !(s.coverage_interval.lower == 0 && s.coverage_interval.upper == 0 && s.coverage > 0);
        final boolean notHolding = intervalKnown && s.nominal > 0
            && s.coverage_interval.upper < s.nominal - NOT_HOLDING_MARGIN_POINTS / 100.0;
        return new StateCalibrationView(s.cpu_state, s.port_state, s.load_state, current, s.round_trips_checked, s.coverage,
            s.coverage_interval.lower, s.coverage_interval.upper, intervalKnown, s.coverage_interval.method, s.nominal,
            s.served_level_percent, s.windows_checked, s.median_relative_error, s.inside_interval_fraction,
            s.mean_correction_factor, s.measurements, s.last_measured_epoch_millis, s.drift_alarms, notHolding,
            s.coverage_below_nominal);
    }

    /**
     * The calibration column of the terminal table: coverage against nominal for a bound, the
     * median relative error and the share inside the interval for a mean, "-" before anything
     * was checked; then the mode.
     *
     * @param c the connection
     * @return e.g. "95.8% of 96% NOT HOLDING (adaptive)", "err 3.1%, 82% in CI (thesis)", "- (thesis)";
     *         "?" when the server gave no calibration
     */
    static String summary(final ConnectionView c) {
        final CalibrationView k = c.calibration();
        if (k == null) {
            return "?";
        }
        final StateCalibrationView p = k.pooled();
        final String figures;
        if (c.servesBound()) {
            figures = p.roundTripsChecked() == 0 ? "-" : String.format(Locale.ROOT, "%.1f%% of %s%%%s", 100 * p.coverage(),
                Words.percent(Math.round(10_000 * p.nominal()) / 100.0).replace(" %", ""), p.boundNotHolding() ? " NOT HOLDING" : "");
        } else {
            figures = p.windowsChecked() == 0 ? "-" : String.format(Locale.ROOT, "err %.1f%%, %.0f%% in CI",
                100 * p.medianRelativeError(), 100 * p.insideIntervalFraction());
        }
        return figures + " (" + k.mode() + ")";
    }
}
