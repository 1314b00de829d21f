package org.latencyserver.profiles.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.commons.math3.distribution.TDistribution;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code profile diff A B}: the two profiles cell by cell — mean of each, the difference in ms and
 * percent, and whether it is significant at 95 % by Welch's t-test on each cell's n, mean and
 * standard deviation (a cell without a published deviation uses its profile's assumed one, and
 * says so). Cells present in only one profile are listed as such.
 *
 * <p>Exit codes: 0 compared (whatever the differences), 1 a file could not be read, 2 usage.
 */
@Command(name = "diff", mixinStandardHelpOptions = true, version = "latency profile diff 0.1.0",
    description = {"Compare two profiles cell by cell (CPU state pair, message size).",
        "Significant: Welch's t-test at 95 % on the cells' n, mean and standard deviation."})
final class ProfileDiff implements Callable<Integer> {

    private static final CpuState[] STATES = {CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH};

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The first profile (the reference).")
    private Path first;

    @Parameters(index = "1", paramLabel = "B", description = "The second profile.")
    private Path second;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final Profile a;
        final Profile b;
        try {
            a = ProfileJson.read(first);
            b = ProfileJson.read(second);
        } catch (ProfileValidationException e) {
            e.faults().stream().map(InputFault::toString).forEach(err::println);
            err.flush();
            return 1;
        }
        out.printf(Locale.ROOT, "A: %s%nB: %s%n", ProfileCommand.summary(a), ProfileCommand.summary(b));
        out.printf(Locale.ROOT, "%-14s %7s %10s %10s %10s %8s  %s%n", "CPU pair", "size B", "A mean ms", "B mean ms",
            "B-A ms", "B-A %", "significant (95 %)");
        final TreeSet<Integer> sizes = new TreeSet<>(a.messageSizesBytes());
        sizes.addAll(b.messageSizesBytes());
        int compared = 0;
        int significant = 0;
        for (final int size : sizes) {
            for (int i = 0; i < STATES.length; i++) {
                for (int j = i; j < STATES.length; j++) {
                    final CpuStatePair pair = new CpuStatePair(STATES[i], STATES[j]);
                    final Optional<ProfileCell> ca = a.cell(pair, size);
                    final Optional<ProfileCell> cb = b.cell(pair, size);
                    if (ca.isEmpty() || cb.isEmpty()) {
                        out.printf(Locale.ROOT, "%-14s %7d  only in %s%n", pair.thesisLabel(), size, ca.isPresent() ? "A" : "B");
                        continue;
                    }
                    compared++;
                    final double meanA = ca.get().meanMillis();
                    final double meanB = cb.get().meanMillis();
                    final String test = welch(ca.get(), sd(a, ca.get()), cb.get(), sd(b, cb.get()));
                    if (test.startsWith("yes")) {
                        significant++;
                    }
                    out.printf(Locale.ROOT, "%-14s %7d %10.4f %10.4f %+10.4f %+7.1f%%  %s%n", pair.thesisLabel(), size, meanA,
                        meanB, meanB - meanA, 100 * (meanB - meanA) / meanA, test);
                }
            }
        }
        out.printf(Locale.ROOT, "%d cells compared, %d differ significantly at 95 %%%n", compared, significant);
        out.flush();
        return 0;
    }

    /** @return the cell's standard deviation, or the profile's assumed one, or null */
    private static Double sd(final Profile profile, final ProfileCell cell) {
        if (cell.stdDevMillis() != null) {
            return cell.stdDevMillis();
        }
        return profile.assumptions() == null ? null : profile.assumptions().assumedStdDevMillis();
    }

    static String welch(final ProfileCell a, final Double sdA, final ProfileCell b, final Double sdB) {
        if (sdA == null || sdB == null || a.sampleCount() < 2 || b.sampleCount() < 2) {
            return "n/a (no standard deviation)";
        }
        final double varA = sdA * sdA / a.sampleCount();
        final double varB = sdB * sdB / b.sampleCount();
        if (varA + varB == 0) {
            return a.meanMillis() == b.meanMillis() ? "no (identical)" : "yes (no spread)";
        }
        final double t = (b.meanMillis() - a.meanMillis()) / Math.sqrt(varA + varB);
        final double df = (varA + varB) * (varA + varB)
            / (varA * varA / (a.sampleCount() - 1) + varB * varB / (b.sampleCount() - 1));
        final double p = 2 * (1 - new TDistribution(df).cumulativeProbability(Math.abs(t)));
        final String assumed = (a.stdDevMillis() == null || b.stdDevMillis() == null) ? ", assumed sd" : "";
        final String pText = p < 1e-12 ? "p < 1e-12" : String.format(Locale.ROOT, "p = %.3g", p);
        return String.format(Locale.ROOT, "%s (t = %.2f, %s%s)", p < 0.05 ? "yes" : "no", t, pText, assumed);
    }
}
