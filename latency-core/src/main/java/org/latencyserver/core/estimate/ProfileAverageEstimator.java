package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.port.PortContribution;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.size.LatencySizeModel;
import org.latencyserver.core.size.SizeEstimate;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.MeanConfidence;

/**
 * QoS 1: the mean round trip from a profile (thesis section 4.2.4).
 *
 * <p>The profile cell for the connection's CPU state pair (either order: a round trip is
 * symmetric) and message size gives the mean. When the switch port is above 90 % and the profile
 * has a measured port cell for its band and size, the mean is that cell's (measured with both CPUs
 * LOW) plus what the CPU pair adds over LOW/LOW; when the profile has port cells for the size but
 * none for the state (SATURATED, or a band not measured) the state is refused as not covered;
 * otherwise the profile's port model adds its contribution (the thesis's queue model or a measured
 * table). Either way CPU and port delays are
 * assumed to add (thesis section 4.2.3, constraint 4), said in the notes. The 95 % interval is the
 * thesis's Eq. 1 with the cell's standard deviation, or the profile's stated assumption (thesis:
 * s = 5 ms) — said in the notes — and the cell's n. The port contribution is a model, not a
 * sample, so it shifts the interval without widening it.
 *
 * <p>A path with two or more loaded hops is composed from its parts ({@link ProfilePath#mean}).
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileAverageEstimator {

    private ProfileAverageEstimator() {
    }

    /**
     * @param profile          the profile
     * @param load             the connection's load state; both CPU states must be known
     * @param messageSizeBytes a size the profile holds
     * @return the estimate
     * @throws EstimateRefusedException when a CPU state is unknown, the profile has no cell for the
     *                                  size, or no standard deviation is known or assumed
     */
    public static Estimate estimate(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        requireKnownCpu(load);
        if (ProfilePath.isComposed(load)) {
            return withNote(ProfilePath.mean(profile, load, messageSizeBytes), ProfilePath.unknownHopsNote(load));
        }
        if (load.isMultiHop()) {
            return withNote(estimate(profile, ProfilePath.asOnePort(load), messageSizeBytes), ProfilePath.unknownHopsNote(load));
        }
        final ProfileCell cell = profile.cell(load.cpu(), messageSizeBytes).orElseThrow(() -> new EstimateRefusedException(
            "profile " + profile.name() + " has no cell for " + load.cpu().canonical().thesisLabel() + " at "
                + messageSizeBytes + " B; it holds sizes " + profile.messageSizesBytes()));
        final List<String> notes = new ArrayList<>();
        final double stdDevMillis = stdDevMillis(profile, cell, notes);
        final String basis = "profile " + profile.name() + ", cell " + cell.label();
        return withPort(profile, load, messageSizeBytes, cell.meanMillis(),
            MeanConfidence.normal(cell.meanMillis(), stdDevMillis, cell.sampleCount(), Estimate.CONFIDENCE_LEVEL),
            basis, notes, false);
    }

    /**
     * The QoS 1 estimate for any message size: a profiled size reads its cell; another size is
     * read off the least-squares latency-vs-size line of the CPU pair's cells, marked interpolated
     * (or extrapolated, beyond the profiled sizes) in the notes with the fit's R², with the fit's 95 %
     * prediction interval (see {@link LatencySizeModel}).
     *
     * @param profile          the profile
     * @param load             the connection's load state; both CPU states must be known
     * @param messageSizeBytes {@code >= 1}
     * @return the estimate
     * @throws EstimateRefusedException as {@link #estimate}, or when too few sizes are profiled to fit
     */
    public static Estimate estimateForSize(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        if (messageSizeBytes < 1) {
            throw new EstimateRefusedException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        requireKnownCpu(load);
        if (profile.cell(load.cpu(), messageSizeBytes).isPresent()) {
            return estimate(profile, load, messageSizeBytes);
        }
        final LatencySizeModel model;
        try {
            model = LatencySizeModel.fit(profile, load.cpu());
        } catch (IllegalArgumentException e) {
            throw new EstimateRefusedException("profile " + profile.name() + ": " + e.getMessage());
        }
        final SizeEstimate sized = model.estimateMillis(messageSizeBytes);
        if (!(sized.meanMillis() > 0)) {
            throw new EstimateRefusedException("the latency-vs-size line (" + model + ") gives no positive latency at "
                + messageSizeBytes + " B");
        }
        final List<String> notes = new ArrayList<>();
        notes.add(sized.label());
        return withPort(profile, load, messageSizeBytes, sized.meanMillis(), sized.interval(),
            "profile " + profile.name() + ", " + load.cpu().canonical().thesisLabel() + ", " + model, notes, true);
    }

    private static Estimate withPort(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                     final double meanMillis, final ConfidenceInterval cpuInterval, final String basis,
                                     final List<String> notes, final boolean interpolated) throws EstimateRefusedException {
        double added = 0.0;
        final PortCell portCell = !load.port().isLoaded() || interpolated ? null
            : profile.portCell(load.port().utilisationPercent(), messageSizeBytes).orElse(null);
        if (portCell != null) {
            return fromPortCell(profile, load, portCell, meanMillis, cpuInterval, basis, notes);
        }
        if (load.port().isLoaded() && !interpolated && profile.portCells().stream()
            .anyMatch(cell -> cell.messageSizeBytes() == messageSizeBytes)) {
            // Measured cells for this size that do not hold the state (or SATURATED, which none holds): the model
            // could serve less than the measured cells do for a busier state, so the state is not covered.
            ProfileHistograms.portCell(profile, load, messageSizeBytes);
        }
        if (load.port().isLoaded()) {
            final PortContribution port = profile.portModel().contribution(Math.min(100, load.port().utilisationPercent()),
                messageSizeBytes);
            added = port.millis();
            notes.add(String.format(Locale.ROOT, "port contribution %.3f ms (%s; the profile has no measured port cell for %s"
                + " at %d B)", added, port.basis(), load.port(), messageSizeBytes));
            notes.add("CPU and port effects assumed to add up (thesis section 4.2.3, constraint 4): "
                + "no profile measured a loaded port and loaded CPUs together");
        } else if (load.port().kind() == PortState.Kind.UNKNOWN) {
            notes.add("switch port state unknown: no port contribution added");
        }
        final ConfidenceInterval interval = new ConfidenceInterval(cpuInterval.lower() + added, cpuInterval.upper() + added,
            cpuInterval.confidenceLevel(), cpuInterval.method());
        return new Estimate(1, EstimateKind.AVERAGE, meanMillis + added, 0.0, interval, List.of(), basis, notes, interpolated);
    }

    /**
     * A loaded port with a measured port cell: the cell's mean (both CPUs LOW) plus what the CPU pair
     * adds over LOW/LOW at the mean; the interval from the port cell's spread when it has one.
     */
    private static Estimate fromPortCell(final Profile profile, final ConnectionLoadState load, final PortCell portCell,
                                         final double cpuMeanMillis, final ConfidenceInterval cpuInterval, final String basis,
                                         final List<String> notes) throws EstimateRefusedException {
        final double excessMillis = ProfileHistograms.cpuExcessMillis(profile, load.cpu(), portCell.messageSizeBytes());
        final double valueMillis = portCell.meanMillis() + excessMillis;
        final ConfidenceInterval interval;
        if (portCell.stdDevMillis() != null) {
            final ConfidenceInterval port = MeanConfidence.normal(portCell.meanMillis(), portCell.stdDevMillis(),
                portCell.sampleCount(), Estimate.CONFIDENCE_LEVEL);
            interval = new ConfidenceInterval(port.lower() + excessMillis, port.upper() + excessMillis, port.confidenceLevel(),
                port.method());
        } else {
            final double shift = valueMillis - cpuMeanMillis;
            interval = new ConfidenceInterval(cpuInterval.lower() + shift, cpuInterval.upper() + shift,
                cpuInterval.confidenceLevel(), cpuInterval.method());
            notes.add("the port cell publishes no standard deviation: the CPU cell's interval, moved to the port cell's mean");
        }
        notes.add(String.format(Locale.ROOT, "%s: measured %s (both CPUs LOW) plus %.3f ms, what the CPU pair's mean adds over"
            + " LOW/LOW", ProfileHistograms.ADDITIVE, portCell.label(), excessMillis));
        return new Estimate(1, EstimateKind.AVERAGE, valueMillis, 0.0, interval, List.of(),
            basis + ", " + portCell.label() + " for " + load.port(), notes, false);
    }

    private static double stdDevMillis(final Profile profile, final ProfileCell cell, final List<String> notes)
        throws EstimateRefusedException {
        if (cell.stdDevMillis() != null) {
            return cell.stdDevMillis();
        }
        if (profile.assumptions() != null && profile.assumptions().assumedStdDevMillis() != null) {
            notes.add(String.format(Locale.ROOT, "assumed standard deviation %s ms (the profile's assumption: the cell "
                + "publishes none; thesis section 4.2.4 assumes s = 5 ms)", profile.assumptions().assumedStdDevMillis()));
            return profile.assumptions().assumedStdDevMillis();
        }
        throw new EstimateRefusedException("profile " + profile.name() + " gives no standard deviation for cell "
            + cell.label() + " and assumes none: no honest confidence interval");
    }

    private static Estimate withNote(final Estimate estimate, final String note) {
        if (note == null) {
            return estimate;
        }
        final List<String> notes = new ArrayList<>(estimate.notes());
        notes.add(note);
        return new Estimate(estimate.qos(), estimate.kind(), estimate.valueMillis(), estimate.boundPercent(), estimate.interval(),
            estimate.alternatives(), estimate.basis(), notes, estimate.interpolated());
    }

    static void requireKnownCpu(final ConnectionLoadState load) throws EstimateRefusedException {
        if (!load.cpu().isKnown()) {
            throw new EstimateRefusedException("CPU state unknown (" + load.cpu() + "): no estimate until both workstations report");
        }
    }
}
