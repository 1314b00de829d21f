package org.latencyserver.agent.profiler;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * The profile a {@link ProfileRun} writes: its kept cells as profile cells, and a provenance that says how they were
 * measured (both cores driven here, or this host's against a remote peer whose state was asserted).
 *
 * <p>Stateless; called on the run's thread.
 */
final class MeasuredProfile {

    private MeasuredProfile() {
    }

    /**
     * @param settings             the run's settings
     * @param done                 the kept cells, in the order they were measured
     * @param baselineClientPercent what the round trips alone cost the client core, %
     * @param baselinePeerPercent  what they cost the peer core, % (NaN against a remote peer)
     * @return the profile of the cells, its provenance saying how they were measured
     */
    static Profile of(final ProfileSettings settings, final Collection<CellResult> done, final double baselineClientPercent,
                      final double baselinePeerPercent) {
        if (settings.remote()) {
            return againstRemotePeer(settings, done, baselineClientPercent);
        }
        final List<ProfileCell> cells = new ArrayList<>();
        final StringBuilder achieved = new StringBuilder();
        for (final CellResult cell : done) {
            cells.add(profileCell(pairOf(cell), cell));
            if (cell.messageSizeBytes() == settings.sizesBytes().get(0)) {
                achieved.append(String.format(Locale.ROOT, "%s %.0f/%.0f %%; ", cell.pair(), cell.clientPercent(), cell.peerPercent()));
            }
        }
        final String method = String.format(Locale.ROOT,
            "latency profile measure: %d round trips per cell, one started every %d us at most, after %d discarded warm-up (and %d s of"
                + " back-to-back round trips before the first cell), timed with System.nanoTime() into an "
                + "HdrHistogram (ns, 3 significant digits; histogram bins are its non-empty buckets); CORBA round trips through the "
                + "thesis's fm1 fixed arrays (octet sequences for other sizes) to a peer agent; the two workstations emulated on one "
                + "machine by pinning the client side (this profiler and its load driver) to core %d and the peer side (the peer "
                + "agent and its load driver) to core %d with taskset; load drivers stress-ng --cpu-load, set to target minus what "
                + "the round trips cost alone (baseline client %.0f %%, peer %.0f %%), targets LOW %d %%, MEDIUM %d %%, HIGH %d %%; "
                + "achieved utilisation per core read from /proc/stat over 1.5 s of continuous round trips before and after each "
                + "pair's sizes, both within the state's band (client/peer before: %s)",
            settings.roundTrips(), settings.intervalMicros(), settings.warmupRoundTrips(), settings.jitWarmupSeconds(),
            settings.clientCore(), settings.peerCore(), baselineClientPercent, baselinePeerPercent,
            ProfileRun.TARGET_PERCENT.get(CpuState.LOW), ProfileRun.TARGET_PERCENT.get(CpuState.MEDIUM),
            ProfileRun.TARGET_PERCENT.get(CpuState.HIGH), achieved.toString().trim());
        final Provenance provenance = new Provenance("latency profile measure", MachineFacts.hardware(), "JacORB 3.9 on Java "
            + System.getProperty("java.version"), MachineFacts.operatingSystem(), LocalDate.now().toString(), method);
        return new Profile(settings.name(), settings.workstationType(), Layer.CORBA, provenance, null,
            ThesisQueuePortModel.INSTANCE, cells);
    }

    /**
     * The profile of cells measured against remote peers: the provenance names each peer (reference and host), says which
     * side each pair's states were on, that the peer host's was asserted (--peer-state), and what this host's read.
     */
    private static Profile againstRemotePeer(final ProfileSettings settings, final Collection<CellResult> done,
                                             final double baselineClientPercent) {
        final List<ProfileCell> cells = new ArrayList<>();
        final Set<String> peers = new LinkedHashSet<>();
        final StringBuilder states = new StringBuilder();
        for (final CellResult cell : done) {
            final CpuStatePair pair = pairOf(cell);
            cells.add(profileCell(pair, cell));
            peers.add("the peer agent " + cell.peerReference() + " on " + cell.peerHost());
            if (cell.messageSizeBytes() == settings.sizesBytes().get(0)) {
                final CpuState asserted = CpuState.valueOf(cell.peerStateAsserted());
                final CpuState local = pair.client() == asserted ? pair.peer() : pair.client();
                states.append(String.format(Locale.ROOT, "%s: this host %s (read %.0f %%), the peer host asserted %s; ", cell.pair(),
                    local, cell.clientPercent(), asserted));
            }
        }
        final String peerList = String.join(" and ", peers);
        final String method = String.format(Locale.ROOT,
            "latency profile measure --peer --peer-state: %d round trips per cell, one started every %d us at most, after %d discarded"
                + " warm-up (and %d s of back-to-back round trips before the first cell of a run), timed with System.nanoTime() into"
                + " an HdrHistogram (ns, 3 significant digits; histogram bins are its non-empty buckets); CORBA round trips through"
                + " the thesis's fm1 fixed arrays (octet sequences for other sizes) from this host to %s, a peer agent on another"
                + " host, across the network between them. This host's side: the profiler pinned to core %d with taskset, its load"
                + " driver stress-ng --cpu-load on that core, set to target minus what the round trips cost alone (baseline %.0f %%),"
                + " targets LOW %d %%, MEDIUM %d %%, HIGH %d %%, the core's utilisation read from /proc/stat over 1.5 s of continuous"
                + " round trips before and after each pair's sizes, within the state's band. The peer host's CPU was neither driven"
                + " nor read from here: the planner held it in the state asserted with --peer-state (one run per state, resumed)."
                + " Per pair (this host's state as read before the smallest size's cells): %s",
            settings.roundTrips(), settings.intervalMicros(), settings.warmupRoundTrips(), settings.jitWarmupSeconds(), peerList,
            settings.clientCore(), baselineClientPercent, ProfileRun.TARGET_PERCENT.get(CpuState.LOW),
            ProfileRun.TARGET_PERCENT.get(CpuState.MEDIUM), ProfileRun.TARGET_PERCENT.get(CpuState.HIGH), states.toString().trim());
        final String hardware = MachineFacts.thisHost() + " (this host, the client side); the peer side: " + peerList
            + " (its hardware is not read from here), over the network between the two hosts";
        final Provenance provenance = new Provenance("latency profile measure --peer --peer-state", hardware, "JacORB 3.9 on Java "
            + System.getProperty("java.version") + " (this host)", MachineFacts.operatingSystem() + " (this host)",
            LocalDate.now().toString(), method);
        return new Profile(settings.name(), settings.workstationType(), Layer.CORBA, provenance, null,
            ThesisQueuePortModel.INSTANCE, cells);
    }

    private static CpuStatePair pairOf(final CellResult cell) {
        final String[] states = cell.pair().split("/");
        return new CpuStatePair(CpuState.valueOf(states[0]), CpuState.valueOf(states[1]));
    }

    private static ProfileCell profileCell(final CpuStatePair pair, final CellResult cell) {
        return new ProfileCell(pair, cell.messageSizeBytes(), cell.sampleCount(), cell.meanMillis(), cell.stdDevMillis(),
            cell.maxMillis(), LatencyHistogram.of(cell.upperEdgesNanos(), cell.counts(), 0));
    }
}
