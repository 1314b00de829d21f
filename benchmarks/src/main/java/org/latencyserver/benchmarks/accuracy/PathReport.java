package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints and writes ({@code paths.csv}) the per-pattern accuracy of a path's QoS 2 bounds ({@link PathAnalysis}):
 * for the union bound, the independent-hops bound and the bound served, the coverage of the round trips that
 * followed with its 95 % interval over bursts, and the median ratio of the bound to the pattern's p96. The served
 * coverage is judged against the nominal ± {@link #COVERAGE_TOLERANCE} with at least the minimum bursts; the two
 * methods' are shown, not judged (only the served one reaches an application).
 *
 * <p>Not thread-safe: one report per instance.
 */
public final class PathReport {

    /** Served coverage within the nominal ± this (96 ± 2 %). */
    public static final double COVERAGE_TOLERANCE = 0.02;
    /** The CSV's name beside the records. */
    public static final String CSV_FILE = "paths.csv";

    private final Map<Integer, List<PathAnalysis.PatternAccuracy>> connections;
    private final double nominal;
    private final int minBursts;

    /**
     * @param connections per connection, its patterns
     * @param nominal     the bounds' nominal share, 0..1 (0.96)
     * @param minBursts   bursts a pattern needs to be judged
     */
    public PathReport(final Map<Integer, List<PathAnalysis.PatternAccuracy>> connections, final double nominal, final int minBursts) {
        this.connections = connections;
        this.nominal = nominal;
        this.minBursts = minBursts;
    }

    /** @return the verdict on the served bound's coverage in one pattern: "met", "MISSED by X points" or "few data" */
    public String verdict(final PathAnalysis.PatternAccuracy pattern) {
        if (pattern.tested() < minBursts) {
            return "few data";
        }
        final double off = Math.abs(pattern.served().coverage().share() - nominal) - COVERAGE_TOLERANCE;
        return off <= 1e-12 ? "met" : String.format(Locale.ROOT, "MISSED by %.1f points", off * 100);
    }

    /** @param out where the table goes */
    public void print(final PrintStream out) {
        if (connections.isEmpty()) {
            return;
        }
        out.println();
        out.printf(Locale.ROOT, "Paths through two switches: QoS 2 per loading pattern (target: served coverage %.0f ± %.0f %%, judged"
            + " with >= %d bursts)%n", nominal * 100, COVERAGE_TOLERANCE * 100, minBursts);
        out.println("  pattern = the hops LOADED or SATURATED when the estimate was read; a burst counts when the pattern and the CPU"
            + " state held to its end");
        out.println("  union / independent: as served when composed (two loaded hops); with one loaded hop at most, the one part's"
            + " bound (the profile's cell)");
        out.println("  no est = share of reads that found no estimate (refused: e.g. a SATURATED hop, which no profile covers)");
        out.println("  cov = share of the following round trips at or below the bound [95 % interval over bursts]; x p96 = median of"
            + " bound / the pattern's p96");
        connections.forEach((indexRef, patterns) -> {
            out.printf(Locale.ROOT, "  connection %d%n", indexRef);
            out.printf(Locale.ROOT, "    %-9s %6s %6s %5s %8s | %-27s %6s | %-27s %6s | %-27s %6s | %s%n", "pattern", "bursts",
                "no est", "disc", "p96 ms",
                "union cov", "x p96", "independent cov", "x p96", "served cov", "x p96", "served verdict");
            for (final PathAnalysis.PatternAccuracy p : patterns) {
                out.printf(Locale.ROOT, "    %-9s %6d %5.1f%% %5d %8.2f | %-27s %6s | %-27s %6s | %-27s %6s | %s%n", p.pattern(),
                    p.tested(), p.noEstimateShare() * 100, p.discarded(), p.percentileMs(), coverage(p.union()), ratio(p.union()), coverage(p.independent()),
                    ratio(p.independent()), coverage(p.served()), ratio(p.served()), verdict(p));
            }
        });
    }

    /**
     * @param file where the CSV goes
     * @throws IOException when it cannot be written
     */
    public void writeCsv(final Path file) throws IOException {
        final List<String> lines = new ArrayList<>(List.of("index_ref,pattern,bursts,discarded,p96_ms,composed_share,"
            + "union_coverage,union_lower,union_upper,union_bursts,union_ratio,union_median_ms,"
            + "independent_coverage,independent_lower,independent_upper,independent_bursts,independent_ratio,independent_median_ms,"
            + "served_coverage,served_lower,served_upper,served_bursts,served_ratio,served_median_ms,served_verdict,no_estimate_share"));
        connections.forEach((indexRef, patterns) -> {
            for (final PathAnalysis.PatternAccuracy p : patterns) {
                lines.add(String.format(Locale.ROOT, "%d,%s,%d,%d,%.4f,%.4f,%s,%s,%s,%s,%.4f", indexRef, p.pattern(), p.tested(),
                    p.discarded(), p.percentileMs(), p.composedShare(), csv(p.union()), csv(p.independent()), csv(p.served()), verdict(p),
                    p.noEstimateShare()));
            }
        });
        Files.write(file, lines);
    }

    private static String coverage(final PathAnalysis.BoundHeld held) {
        final BlockCoverage c = held.coverage();
        if (c.bursts() == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f [%.1f, %.1f] n=%d", c.share() * 100, c.lower() * 100, c.upper() * 100, c.bursts());
    }

    private static String ratio(final PathAnalysis.BoundHeld held) {
        return held.coverage().bursts() == 0 ? "" : String.format(Locale.ROOT, "%.2f", held.medianRatio());
    }

    private static String csv(final PathAnalysis.BoundHeld held) {
        final BlockCoverage c = held.coverage();
        return String.format(Locale.ROOT, "%.4f,%.4f,%.4f,%d,%.4f,%.4f", c.share(), c.lower(), c.upper(), c.bursts(), held.medianRatio(),
            held.medianBoundMs());
    }
}
