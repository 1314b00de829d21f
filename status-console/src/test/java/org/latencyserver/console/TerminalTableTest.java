package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.console.ConsoleSnapshot.ProfileCellView;

/** The terminal's lines on profile cells learned from live probes, and the verdict in words, without a server. */
class TerminalTableTest {

    @Test
    void noLinesOnProfilesUntilProbesReachACell() {
        final String text = TerminalTable.render(snapshot(List.of()), 0);
        assertEquals(2, text.lines().count(), "the title and the header of an empty table:\n" + text);
        assertTrue(!text.contains("Profiles learned"), text);
    }

    @Test
    void eachReachedCellHasALineWithItsTestBelowTheTable() {
        final String text = TerminalTable.render(snapshot(List.of(
            cell("measured-loopback-jacorb", 12, 1024, 250, 0.41, 0.39, 0.07, 0.11, false),
            cell("measured-loopback-jacorb", 11, 256, 300, 0.88, 0.29, 0.95, 0.10, true))), 0);
        final List<String> lines = text.lines().toList();
        assertEquals(7, lines.size(), text);
        assertEquals("", lines.get(2), "a blank line after the table");
        assertEquals("Profiles learned from live probes (write one as a file: "
            + "./latency profile learned PROFILE --server REF --out FILE)", lines.get(3));
        assertTrue(lines.get(5).matches("  measured-loopback-jacorb +LOW/MEDIUM +1024 +250 +0\\.410 ms +0\\.390 ms"
            + " +0\\.070 / 0\\.110  consistent"), lines.get(5));
        assertTrue(lines.get(6).matches("  measured-loopback-jacorb +LOW/LOW +256 +300 +0\\.880 ms +0\\.290 ms"
            + " +0\\.950 / 0\\.100  DRIFTING"), lines.get(6));
    }

    @Test
    void aStatisticAboveTheCriticalValueThatTheServerDoesNotFlagHasTooFewRoundTrips() {
        assertEquals("DRIFTING", ProfileCellView.verdict(true, 0.9, 0.1));
        assertEquals("consistent", ProfileCellView.verdict(false, 0.05, 0.1));
        assertEquals("too few round trips", ProfileCellView.verdict(false, 0.9, 0.3));
        assertEquals("too few round trips: weight 120 of 200", cell("p", 4, 256, 120, 1.0, 0.5, 0.9, 0.3, false).verdictWithWeight(),
            "how many round trips would be enough");
        assertEquals("DRIFTING", cell("p", 4, 256, 300, 1.0, 0.5, 0.9, 0.3, true).verdictWithWeight());
    }

    @Test
    void everyPartitionHasItsSectionAndTheSummaryNamesThoseDownButNotThoseNotAskedYet() {
        final ConsoleSnapshot up = new ConsoleSnapshot("partition p1 (LatencyServer/p1)", true, "", 0, 1, List.of(), List.of(), "");
        final ConsoleSnapshot down = new ConsoleSnapshot("partition p2 (LatencyServer/p2)", false, "server unreachable: TRANSIENT",
            1, 1, List.of(), List.of(), "");
        final ConsoleSnapshot notAsked = ConsoleSnapshot.empty("partition p3 (LatencyServer/p3)");
        final PartitionsSnapshot partitions = PartitionsSnapshot.of("LatencyServer", "corbaloc::ns:2809/NameService", "", List.of(
            new PartitionsSnapshot.PartitionView("p1", "LatencyServer/p1", true, true, up),
            new PartitionsSnapshot.PartitionView("p2", "LatencyServer/p2", false, true, down),
            new PartitionsSnapshot.PartitionView("p3", "LatencyServer/p3", false, false, notAsked)));
        assertEquals(List.of("p2"), partitions.down());
        final List<String> lines = TerminalTable.renderPartitions(partitions, 1).lines().toList();
        assertEquals("Partitions of LatencyServer in corbaloc::ns:2809/NameService: 3, DOWN: p2", lines.get(0));
        assertTrue(lines.contains("[up]   Latency Server partition p1 (LatencyServer/p1)"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[DOWN] Latency Server partition p2 (LatencyServer/p2)  -- server"
            + " unreachable: TRANSIENT")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[...]  Latency Server partition p3")), lines.toString());
    }

    private static ProfileCellView cell(final String profile, final int cpuState, final int size, final long roundTrips,
                                        final double liveMean, final double profileMean, final double statistic,
                                        final double critical, final boolean drifting) {
        return new ProfileCellView(profile, cpuState, Words.cpuState(cpuState), size, roundTrips, roundTrips, 200, liveMean,
            profileMean, statistic, critical, drifting, ProfileCellView.verdict(drifting, statistic, critical),
            "two-sample Kolmogorov-Smirnov, 1 % level, on the profile's bin edges", 1);
    }

    @Test
    void theTitleSaysTheServersRoleInItsPairAndWhetherItsWritesAreProtected() {
        final String paired = TerminalTable.render(withPair(ConsoleSnapshot.PairView.of("primary", true, 2, 0)), 0);
        assertEquals("Latency Server test  [hot standby: primary, protected (a standby holds every acknowledged write)]",
            paired.lines().findFirst().orElseThrow());
        final String alone = TerminalTable.render(withPair(ConsoleSnapshot.PairView.of("alone", false, 1, 3)), 0);
        assertEquals("Latency Server test  [hot standby: alone, UNPROTECTED: writes answered from this server's disk alone"
            + " (no standby in the pair)]", alone.lines().findFirst().orElseThrow());
        final String lagging = TerminalTable.render(withPair(ConsoleSnapshot.PairView.of("primary", false, 2, 1)), 0);
        assertTrue(lagging.lines().findFirst().orElseThrow().endsWith("primary, UNPROTECTED: writes answered from this"
            + " server's disk alone (the standby is not answering, or still being sent the table)]"), lagging);
        assertEquals(2, alone.lines().count(), "on the title line: no line added\n" + alone);
    }

    private static ConsoleSnapshot withPair(final ConsoleSnapshot.PairView pair) {
        return new ConsoleSnapshot("test", true, "", 0, 1, List.of(), List.of(), "", pair);
    }

    private static ConsoleSnapshot snapshot(final List<ProfileCellView> cells) {
        return new ConsoleSnapshot("test", true, "", 0, 1, List.of(), cells, "");
    }
}
