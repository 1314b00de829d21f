package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.path.PathBound;
import org.latencyserver.core.path.PathComposition;
import org.latencyserver.core.path.PathHop;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.ProportionConfidence;

/**
 * A path with two or more loaded switch ports, read from a profile as parts that add: the first
 * loaded hop's round trip, and what each further loaded hop's queue adds.
 *
 * <ul>
 *   <li>The first loaded hop (in path order) is read as a one-port path is
 *       ({@link ProfileHistograms#forState}): its band's measured port cell, shifted by what the CPU
 *       pair adds over LOW/LOW. It carries the ends, the wire and that hop's queue.</li>
 *   <li>Every further loaded hop adds its queue only: its band's port cell less the fastest round
 *       trip of the profile's LOW/LOW cell at the size (the lower edge of its first non-empty bin).
 *       A port cell's round trip is an idle path's round trip plus the queue; an idle path's round
 *       trip is never below that fastest one, so the difference is never below the queue: the part
 *       errs high, never low.</li>
 *   <li>Hops at or below their loaded threshold add nothing (thesis section 4.2.3, constraint 4).</li>
 * </ul>
 * The parts are composed by {@link org.latencyserver.core.path.PathComposition}; the bound's method
 * is said in every estimate. Every part needs its cell's histogram; a loaded hop whose band the
 * profile did not measure is refused with the hop named.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfilePath {

    private ProfilePath() {
    }

    /**
     * A path's parts, with what they rest on.
     *
     * @param hops  the parts in path order: the first loaded hop's round trip, then each further loaded hop's queue
     * @param basis where they come from, for an estimate's basis
     * @param notes how each part was read; unmodifiable
     */
    public record Parts(List<PathHop> hops, String basis, List<String> notes) {

        /** Copies the lists. */
        public Parts {
            hops = List.copyOf(hops);
            notes = List.copyOf(notes);
        }

        /** @return the fewest samples behind any part: what the share's interval of a composed bound rests on */
        public long fewestSamples() {
            long fewest = Long.MAX_VALUE;
            for (final PathHop hop : hops) {
                fewest = Math.min(fewest, hop.histogram().totalCount());
            }
            return fewest;
        }
    }

    /**
     * @param load a load state
     * @return true when two or more of its hops are loaded: a profile's one-port cells do not hold it whole
     */
    public static boolean isComposed(final ConnectionLoadState load) {
        return load.loadedHopCount() >= 2;
    }

    /**
     * A path with at most one loaded hop, as a one-port path: its loaded hop; else UNKNOWN when a hop is unknown, else
     * NORMAL. A hop not known is taken as at or below its threshold when another is known loaded, as a one-port path
     * takes an unknown port (the estimate says so, and the server marks it stale with the hop named).
     *
     * @param load a load state with at most one loaded hop
     * @return the same CPU pair with one hop
     */
    public static ConnectionLoadState asOnePort(final ConnectionLoadState load) {
        if (!load.isMultiHop()) {
            return load;
        }
        PortState one = PortState.NORMAL;
        for (final PortState hop : load.hops()) {
            if (hop.isLoaded()) {
                return load.withOnlyHop(hop);
            }
            if (hop.kind() == PortState.Kind.UNKNOWN) {
                one = PortState.UNKNOWN;
            }
        }
        return load.withOnlyHop(one);
    }

    /**
     * @return a note naming the hops whose state is unknown, each taken as at or below its threshold; null when none is,
     *         or when every hop is (a one-port path's own note says so)
     */
    public static String unknownHopsNote(final ConnectionLoadState load) {
        final List<String> unknown = new ArrayList<>();
        for (int i = 0; i < load.hops().size(); i++) {
            if (load.hops().get(i).kind() == PortState.Kind.UNKNOWN) {
                unknown.add("hop " + (i + 1));
            }
        }
        if (unknown.isEmpty() || load.loadedHopCount() == 0) {
            return null;
        }
        return String.join(", ", unknown) + " of the path not observed: taken as at or below its loaded threshold";
    }

    /**
     * @param profile          the profile
     * @param load             a load state with two or more loaded hops; both CPU states known
     * @param messageSizeBytes a size the profile holds
     * @return the path's parts
     * @throws EstimateRefusedException when a CPU state is unknown, a loaded hop's band has no port cell, or the LOW/LOW
     *                                  cell has no histogram; naming the hop
     * @throws IllegalArgumentException when fewer than two hops are loaded
     */
    public static Parts parts(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        if (!isComposed(load)) {
            throw new IllegalArgumentException("a path is composed only with two or more loaded hops, had " + load.hops());
        }
        ProfileAverageEstimator.requireKnownCpu(load);
        final List<PathHop> hops = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final StringBuilder basis = new StringBuilder("profile " + profile.name() + ", a path of " + load.hops().size()
            + " hops:");
        Long fastestIdleNanos = null;
        for (int i = 0; i < load.hops().size(); i++) {
            final PortState hop = load.hops().get(i);
            if (!hop.isLoaded()) {
                continue;
            }
            final String name = hopName(i, hop);
            if (hops.isEmpty()) {
                final ProfileHistograms.StateHistogram first = refusedAs(name,
                    () -> ProfileHistograms.forState(profile, load.withOnlyHop(hop), messageSizeBytes));
                hops.add(new PathHop(name, first.histogram()));
                basis.append(' ').append(name).append(" from ").append(first.basis().replace("profile " + profile.name() + ", ", ""));
                notes.add(name + ": its round trip, the ends included (" + String.join("; ", first.notes()) + ")");
                continue;
            }
            final PortCell cell = refusedAs(name, () -> ProfileHistograms.portCell(profile, load.withOnlyHop(hop), messageSizeBytes));
            if (fastestIdleNanos == null) {
                fastestIdleNanos = fastestIdleNanos(profile, messageSizeBytes);
            }
            hops.add(new PathHop(name, queueOf(cell.histogram(), fastestIdleNanos)));
            basis.append("; ").append(name).append(" from ").append(cell.label()).append(" less the idle path");
            notes.add(String.format(Locale.ROOT, "%s: what its queue adds, its %s less the LOW/LOW cell's fastest round trip"
                + " (%.3f ms); errs high", name, cell.label(), fastestIdleNanos / 1e6));
        }
        return new Parts(hops, basis.toString(), notes);
    }

    /**
     * The path's distribution if its hops' queues are independent: the convolution of its parts.
     *
     * @return the histogram, with basis and notes that say it assumes independent hops
     * @throws EstimateRefusedException as {@link #parts}, or when a part's samples lie beyond its histogram
     */
    public static ProfileHistograms.StateHistogram independentHistogram(final Profile profile, final ConnectionLoadState load,
                                                                        final int messageSizeBytes)
        throws EstimateRefusedException {
        final Parts parts = parts(profile, load, messageSizeBytes);
        final LatencyHistogram convolved;
        try {
            convolved = PathComposition.of(parts.hops()).independentHistogram();
        } catch (RuntimeException e) {
            throw new EstimateRefusedException(parts.basis() + ": " + e.getMessage());
        }
        final List<String> notes = new ArrayList<>(parts.notes());
        notes.add("the path's distribution assuming its hops' queues are independent (the convolution of its parts); "
            + "hops loaded together can make it under-cover");
        final long effective = Math.max(1, Math.min(parts.fewestSamples(), convolved.totalCount()));
        notes.add("its intervals rest on " + effective + " samples, the fewest behind any part (the convolution's counts are a"
            + " scale, not samples)");
        return new ProfileHistograms.StateHistogram(convolved, parts.basis(), notes, effective);
    }

    /**
     * The QoS 1 mean of a path: the first loaded hop's mean (as a one-port path) plus, for each further
     * loaded hop, its port cell's mean less the LOW/LOW cell's mean (means add whatever the
     * dependence). The interval is the first hop's, moved by what the others add and widened by their
     * cells' own intervals (half-widths added in quadrature).
     *
     * @return the estimate
     * @throws EstimateRefusedException as {@link #parts} for the cells, or as {@link ProfileAverageEstimator#estimate}
     */
    public static Estimate mean(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        ProfileAverageEstimator.requireKnownCpu(load);
        Estimate first = null;
        double addedMillis = 0;
        double widenSquares = 0;
        final List<String> notes = new ArrayList<>();
        final StringBuilder basis = new StringBuilder();
        for (int i = 0; i < load.hops().size(); i++) {
            final PortState hop = load.hops().get(i);
            if (!hop.isLoaded()) {
                continue;
            }
            final String name = hopName(i, hop);
            if (first == null) {
                first = refusedAs(name, () -> ProfileAverageEstimator.estimate(profile, load.withOnlyHop(hop), messageSizeBytes));
                basis.append(first.basis()).append(" (").append(name).append(')');
                notes.addAll(first.notes());
                continue;
            }
            final PortCell cell = refusedAs(name, () -> ProfileHistograms.portCell(profile, load.withOnlyHop(hop), messageSizeBytes));
            final ProfileCell idle = profile.cell(new CpuStatePair(CpuState.LOW, CpuState.LOW), messageSizeBytes)
                .orElseThrow(() -> new EstimateRefusedException("profile " + profile.name() + " has no LOW/LOW cell at "
                    + messageSizeBytes + " B: a further loaded hop's queue is read against it"));
            final double queueMillis = Math.max(0.0, cell.meanMillis() - idle.meanMillis());
            addedMillis += queueMillis;
            if (cell.stdDevMillis() != null && cell.sampleCount() > 1) {
                final double halfWidth = 1.959963984540054 * cell.stdDevMillis() / Math.sqrt(cell.sampleCount());
                widenSquares += halfWidth * halfWidth;
            }
            basis.append(" + ").append(name).append(" from ").append(cell.label());
            notes.add(String.format(Locale.ROOT, "%s adds %.3f ms: its %s's mean less the LOW/LOW cell's (%.3f ms)", name,
                queueMillis, cell.label(), idle.meanMillis()));
        }
        if (first == null) {
            throw new IllegalArgumentException("a path mean is composed only with loaded hops, had " + load.hops());
        }
        final double halfWidthFirst = (first.interval().upper() - first.interval().lower()) / 2;
        final double halfWidth = Math.sqrt(halfWidthFirst * halfWidthFirst + widenSquares);
        final double value = first.valueMillis() + addedMillis;
        final double centre = (first.interval().upper() + first.interval().lower()) / 2 + addedMillis;
        notes.add("the hops' means add whatever their dependence; the interval's half-widths are added in quadrature");
        return new Estimate(1, EstimateKind.AVERAGE, value, 0.0,
            new ConfidenceInterval(Math.max(0.0, centre - halfWidth), centre + halfWidth,
                first.interval().confidenceLevel(), first.interval().method() + ", widened by the further hops' cells"),
            List.of(), basis.toString(), notes, false);
    }

    /**
     * A path's x % bound by both methods.
     *
     * @param parts              what was composed
     * @param union              the union bound: sound whatever the dependence between hops
     * @param independent        the bound assuming independent hops, or null when it could not be had
     * @param independentRefusal why there is no independent bound, or null when there is one
     */
    public record Bounds(Parts parts, PathBound union, PathBound independent, String independentRefusal) {
    }

    /**
     * @param boundPercent in (0, 100]
     * @return the path's bound by both methods
     * @throws EstimateRefusedException as {@link #parts}, or when the union bound lies beyond a part's histogram
     */
    public static Bounds bounds(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                final double boundPercent) throws EstimateRefusedException {
        final Parts parts = parts(profile, load, messageSizeBytes);
        final PathComposition path = PathComposition.of(parts.hops());
        final PathBound union;
        try {
            union = path.unionBound(boundPercent);
        } catch (RuntimeException e) {
            throw new EstimateRefusedException(parts.basis() + ": no union bound: " + e.getMessage());
        }
        try {
            return new Bounds(parts, union, path.independentBound(boundPercent), null);
        } catch (RuntimeException e) {
            return new Bounds(parts, union, null, e.getMessage());
        }
    }

    /**
     * The QoS 2 estimate of a composed path: the bound of {@code method} (the union bound when the independent one could
     * not be had, said so), with the other method's value and the reason in the notes. The interval is Eq. 3's, of the
     * nominal share over the fewest samples behind any part: a composed bound has no count of its own.
     *
     * @param bounds       both methods' bounds
     * @param method       the one to serve
     * @return the estimate
     */
    public static Estimate boundEstimate(final Bounds bounds, final BoundMethod method) {
        final boolean independent = method == BoundMethod.INDEPENDENT && bounds.independent() != null;
        final PathBound served = independent ? bounds.independent() : bounds.union();
        final double boundPercent = served.boundPercent();
        final List<String> notes = new ArrayList<>(bounds.parts().notes());
        notes.add(served.method().word() + ": " + served.reason());
        notes.addAll(served.notes());
        if (method == BoundMethod.INDEPENDENT && bounds.independent() == null) {
            notes.add("the independent-hops bound asked for could not be had (" + bounds.independentRefusal()
                + "): the union bound is served");
        }
        final PathBound other = independent ? bounds.union() : bounds.independent();
        if (other != null) {
            notes.add(String.format(Locale.ROOT, "%s: %.3f ms (not served)", other.method().word(), other.boundMillis()));
        }
        final long n = bounds.parts().fewestSamples();
        final long atOrBelow = (long) Math.ceil(boundPercent / 100.0 * n);
        final ConfidenceInterval share = ProportionConfidence.wald(atOrBelow, n, Estimate.CONFIDENCE_LEVEL);
        final ConfidenceInterval relabelled = new ConfidenceInterval(share.lower(), share.upper(), share.confidenceLevel(),
            share.method() + ", of the nominal share over the fewest samples behind any hop (" + n + ")");
        return new Estimate(2, EstimateKind.BOUND, served.boundMillis(), boundPercent, relabelled, List.of(),
            bounds.parts().basis() + "; composed by " + served.method().word(), notes, false);
    }

    /** @return e.g. {@code "hop 2 (LOADED 95 %)"}: hops are counted from 1 in path order */
    public static String hopName(final int hopIndex, final PortState state) {
        return "hop " + (hopIndex + 1) + " (" + state + ")";
    }

    /**
     * @return the histogram moved down by {@code baselineNanos}: each edge less the baseline, edges that would fall to
     *         1 ns or below gathered into one first bin at 1 ns
     */
    static LatencyHistogram queueOf(final LatencyHistogram histogram, final long baselineNanos) {
        final long[] edges = histogram.upperEdgesNanos();
        final long[] counts = histogram.counts();
        int first = 0;
        long gathered = 0;
        while (first < edges.length - 1 && edges[first] - baselineNanos <= 1) {
            gathered += counts[first];
            first++;
        }
        final int bins = edges.length - first + 1;
        final long[] newEdges = new long[bins];
        final long[] newCounts = new long[bins];
        newEdges[0] = 1;
        newCounts[0] = gathered;
        for (int i = first; i < edges.length; i++) {
            newEdges[i - first + 1] = Math.max(2, edges[i] - baselineNanos);
            newCounts[i - first + 1] = counts[i];
        }
        if (bins >= 2 && newEdges[1] <= newEdges[0]) {
            newEdges[1] = 2;
        }
        return LatencyHistogram.of(newEdges, newCounts, histogram.overflowCount());
    }

    private static long fastestIdleNanos(final Profile profile, final int messageSizeBytes) throws EstimateRefusedException {
        final ProfileCell idle = profile.cell(new CpuStatePair(CpuState.LOW, CpuState.LOW), messageSizeBytes)
            .orElseThrow(() -> new EstimateRefusedException("profile " + profile.name() + " has no LOW/LOW cell at "
                + messageSizeBytes + " B: a further loaded hop's queue is read against its fastest round trip"));
        if (!idle.hasHistogram() || idle.histogram().totalCount() == idle.histogram().overflowCount()) {
            throw new EstimateRefusedException("profile " + profile.name() + "'s LOW/LOW cell at " + messageSizeBytes
                + " B has no histogram: a further loaded hop's queue is read against its fastest round trip");
        }
        final LatencyHistogram histogram = idle.histogram();
        final int bin = histogram.binOfRank(1);
        return bin == 0 ? 0 : histogram.upperEdgeNanos(bin - 1);
    }

    /** A read that may be refused. */
    @FunctionalInterface
    private interface Read<T> {
        T get() throws EstimateRefusedException;
    }

    private static <T> T refusedAs(final String hopName, final Read<T> read) throws EstimateRefusedException {
        try {
            return read.get();
        } catch (EstimateRefusedException e) {
            throw new EstimateRefusedException(hopName + ": " + e.getMessage());
        }
    }
}
