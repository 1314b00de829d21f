package org.latencyserver.console;

import java.util.Locale;
import org.latencyserver.console.ConsoleSnapshot.ConnectionView;
import org.latencyserver.console.ConsoleSnapshot.EstimateView;
import org.latencyserver.console.ConsoleSnapshot.ProfileCellView;

/**
 * The console's table as fixed-width text, for {@code --once} and {@code --watch}; below it, when
 * live probes have reached profile cells, one line per cell with its drift test. Every string from
 * the configuration or the server passes {@link TerminalText#safe}: the only control characters in
 * the text are the table's own line ends.
 */
final class TerminalTable {

    /** How an operator writes what was learned as a profile file (the page's panel says the same). */
    static final String LEARNED_COMMAND = "./latency profile learned PROFILE --server REF --out FILE";

    private TerminalTable() {
    }

    static String render(final ConsoleSnapshot snapshot, final long nowMillis) {
        final StringBuilder text = new StringBuilder();
        text.append("Latency Server ").append(TerminalText.safe(snapshot.server()));
        if (snapshot.pair() != null) {
            text.append("  [hot standby: ").append(TerminalText.safe(snapshot.pair().text())).append(']');
        }
        if (!snapshot.reachable()) {
            text.append("  -- ").append(TerminalText.safe(snapshot.problem()));
            if (snapshot.unreachableSinceEpochMillis() > 0) {
                text.append(String.format(Locale.ROOT, " (for %d s; last good data below)",
                    (nowMillis - snapshot.unreachableSinceEpochMillis()) / 1000));
            }
        } else if (!snapshot.problem().isEmpty()) {
            text.append("  -- ").append(TerminalText.safe(snapshot.problem()));
        }
        text.append('\n');
        text.append(String.format(Locale.ROOT, "%3s  %-15s %6s %-4s %-14s %-12s %-11s %-38s %-28s %s%n", "ref",
            "client -> peer", "size B", "QoS", "CPU", "port", "MIB c/p/port", "estimate (95 % CI)", "calibration", "flags"));
        for (final ConnectionView c : snapshot.connections()) {
            text.append(String.format(Locale.ROOT, "%3d  %-15s %6d %-4s %-14s %-12s %-11s %-38s %-28s %s%n", c.indexRef(),
                TerminalText.safe(c.client() + " -> " + c.peer()), c.messageSizeBytes(), qos(c), TerminalText.safe(c.cpuStateText()),
                TerminalText.safe(c.portStateText()),
                c.mib().clientCpu() + "/" + c.mib().peerCpu() + "/" + c.mib().port(), estimate(c), TerminalText.safe(Calibrations.summary(c)),
                TerminalText.safe(flags(c))));
            if (c.hops().size() > 1) {
                text.append("     path (port above is the worst hop): ").append(TerminalText.safe(pathText(c))).append('\n');
            }
        }
        profileCells(text, snapshot);
        return text.toString();
    }

    /**
     * Every partition, for {@code --all-partitions}: a summary line naming the partitions that are
     * down, then each partition's table as {@link #render} draws one server's.
     *
     * @param snapshot  every partition
     * @param nowMillis the wall clock, for ages
     * @return the text
     */
    static String renderPartitions(final PartitionsSnapshot snapshot, final long nowMillis) {
        final StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Partitions of %s in %s: %d, %s%n", TerminalText.safe(snapshot.root()),
            TerminalText.safe(snapshot.naming()), snapshot.partitions().size(),
            snapshot.down().isEmpty() ? "all up" : "DOWN: " + TerminalText.safe(String.join(", ", snapshot.down()))));
        if (!snapshot.problem().isEmpty()) {
            text.append("  -- ").append(TerminalText.safe(snapshot.problem())).append('\n');
        }
        for (final PartitionsSnapshot.PartitionView partition : snapshot.partitions()) {
            text.append('\n').append(partition.up() ? "[up]   " : partition.asked() ? "[DOWN] " : "[...]  ").append(render(partition.table(), nowMillis));
        }
        return text.toString();
    }

    /** @return every hop in path order, e.g. "sw1-p3 LOADED 95 % (95 %) -> sw2-p1 NORMAL (12 %)" */
    static String pathText(final ConnectionView c) {
        final StringBuilder path = new StringBuilder();
        for (final ConsoleSnapshot.HopView hop : c.hops()) {
            path.append(path.length() == 0 ? "" : " -> ").append(hop.link()).append(' ').append(hop.portStateText())
                .append(" (").append(hop.percent() < 0 ? "?" : hop.percent() + " %").append(')');
        }
        return path.toString();
    }

    /** The profile cells reached by live probes, after a blank line; nothing when none was reached. */
    private static void profileCells(final StringBuilder text, final ConsoleSnapshot snapshot) {
        if (snapshot.profileCells().isEmpty()) {
            return;
        }
        text.append('\n').append("Profiles learned from live probes (write one as a file: ").append(LEARNED_COMMAND).append(")\n");
        text.append(String.format(Locale.ROOT, "  %-26s %-14s %6s %11s %10s %12s %20s  %s%n", "profile", "CPU", "size B",
            "round trips", "live mean", "profile mean", "statistic / critical", "verdict"));
        for (final ProfileCellView p : snapshot.profileCells()) {
            text.append(String.format(Locale.ROOT, "  %-26s %-14s %6d %11d %7.3f ms %9.3f ms %20s  %s%n", TerminalText.safe(p.profile()),
                TerminalText.safe(p.cpuStateText()), p.messageSizeBytes(), p.liveRoundTrips(), p.liveMeanMillis(), p.profileMeanMillis(),
                String.format(Locale.ROOT, "%.3f / %.3f", p.statistic(), p.criticalValue()), TerminalText.safe(p.verdictWithWeight())));
        }
    }

    private static String qos(final ConnectionView c) {
        return c.qos() == 2 || c.qos() == 4 ? c.qos() + "@" + (int) Math.round(c.boundPercent()) : Integer.toString(c.qos());
    }

    static String estimate(final ConnectionView c) {
        final EstimateView e = c.estimate();
        if (e == null) {
            return "none (reason under flags)";
        }
        if ("BOUND".equals(e.kind())) {
            return String.format(Locale.ROOT, "%.3f ms @%s [%.2f-%.2f %%]", e.valueMillis(), Words.percent(e.boundPercent())
                .replace(" ", ""), e.lower(), e.upper());
        }
        return String.format(Locale.ROOT, "%.3f ms [%.3f-%.3f]", e.valueMillis(), e.lower(), e.upper());
    }

    private static String flags(final ConnectionView c) {
        final StringBuilder flags = new StringBuilder();
        final EstimateView e = c.estimate();
        if (e == null) {
            flags.append("no estimate: ").append(c.estimateUnavailable()).append("; ");
        } else {
            // Whether the number served belongs to the current state, and what the thesis would have served.
            if (!e.sourceLabel().isEmpty()) {
                flags.append(e.sourceLabel()).append("; ");
            }
            if (!e.correction().isEmpty()) {
                flags.append(String.format(Locale.ROOT, "thesis %.3f ms; ", e.thesisValueMillis()));
            }
        }
        if (c.pending() != null) {
            flags.append(String.format(Locale.ROOT, "measurement pending (%d s%s) ", c.pending().ageMillis() / 1000,
                c.pending().reason().isEmpty() ? "" : ": " + c.pending().reason()));
        } else if (c.updateRequired() == 1) {
            flags.append("measurement due ");
        }
        if (c.stale()) {
            flags.append("STALE: ").append(c.staleReason()).append(' ');
        }
        if (!c.hysteresis().isEmpty()) {
            flags.append('(').append(c.hysteresis()).append(')');
        }
        return flags.toString().trim();
    }
}
