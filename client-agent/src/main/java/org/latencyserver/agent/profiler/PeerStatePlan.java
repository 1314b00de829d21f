package org.latencyserver.agent.profiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * Which CPU state pairs a {@code profile measure --peer REF --peer-state STATE} run can reach: this
 * host's states (driven here) against the one state the planner holds the peer host in. A profile
 * stores a pair lower state first, so the pairs reached are the canonical pairs holding STATE; the
 * others need another run with another {@code --peer-state} (and {@code --resume}).
 *
 * <p>Immutable and thread-safe.
 */
final class PeerStatePlan {

    /** The states a run can drive this host to, in the order it measures them. */
    private static final List<CpuState> LOCAL_STATES = List.of(CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH);

    private final CpuState peerState;
    private final List<CpuStatePair> pairs;

    private PeerStatePlan(final CpuState peerState, final List<CpuStatePair> pairs) {
        this.peerState = peerState;
        this.pairs = List.copyOf(pairs);
    }

    /**
     * @param peerStateText the {@code --peer-state} value as typed: LOW, MEDIUM or HIGH (any case), or a band 0-33, 34-66, 67-100
     * @param chosen        the {@code --pairs} (canonical), or empty for every pair the state reaches
     * @return the plan
     * @throws IllegalArgumentException naming the option and value when the state is none of the three, or a chosen
     *                                  pair does not hold it
     */
    static PeerStatePlan of(final String peerStateText, final List<CpuStatePair> chosen) {
        final CpuState state = parseState(peerStateText);
        final List<CpuStatePair> oriented = new ArrayList<>();
        for (final CpuState local : LOCAL_STATES) {
            final CpuStatePair pair = new CpuStatePair(local, state);
            if (chosen.isEmpty() || chosen.contains(pair.canonical())) {
                oriented.add(pair);
            }
        }
        for (final CpuStatePair pair : chosen) {
            if (pair.client() != state && pair.peer() != state) {
                throw new IllegalArgumentException("--pairs: " + pair + " cannot be measured with --peer-state " + state + ": the peer"
                    + " host is held " + state + ", so this run reaches " + reachable(state) + " only");
            }
        }
        return new PeerStatePlan(state, oriented);
    }

    /**
     * @param text a state as typed
     * @return LOW, MEDIUM or HIGH
     * @throws IllegalArgumentException naming {@code --peer-state} and the value
     */
    static CpuState parseState(final String text) {
        final String trimmed = text == null ? "" : text.trim();
        try {
            final CpuState state = CpuState.parse(trimmed.toUpperCase(Locale.ROOT));
            if (state.isKnown()) {
                return state;
            }
        } catch (IllegalArgumentException e) {
            // said below, with the option's name
        }
        throw new IllegalArgumentException("--peer-state: '" + trimmed + "' is not a CPU state; give LOW, MEDIUM or HIGH (the"
            + " peer host's CPU utilisation bands 0-33, 34-66, 67-100 %)");
    }

    /** @return the state the peer host is held in */
    CpuState peerState() {
        return peerState;
    }

    /** @return the pairs to measure, oriented (this host's state, the peer host's), this host's state ascending */
    List<CpuStatePair> pairs() {
        return pairs;
    }

    /**
     * What the run will measure and what it leaves to other runs, said before the first round trip.
     *
     * @param peer       the peer measured against
     * @param sizesBytes the sizes measured
     * @param done       canonical pairs (e.g. {@code "LOW/HIGH"}) whose every size a resumed partial file already holds
     * @return lines for the progress stream
     */
    List<String> describe(final RemotePeer peer, final List<Integer> sizesBytes, final Set<String> done) {
        final List<String> lines = new ArrayList<>();
        lines.add("against " + peer.describe() + ", its CPU asserted " + peerState + " (" + peerState.thesisLabel()
            + " %; --peer-state: not driven or checked from here)");
        final String sizes = sizesBytes.stream().map(String::valueOf).collect(Collectors.joining(", "));
        final List<String> measured = new ArrayList<>();
        for (final CpuStatePair pair : pairs) {
            if (!done.contains(pair.canonical().toString())) {
                measured.add(String.format(Locale.ROOT, "%s (this host %s, peer %s)", pair.canonical(), pair.client(), pair.peer()));
            }
        }
        lines.add("measured by this run, at " + sizes + " B: " + (measured.isEmpty() ? "none" : String.join(", ", measured)));
        final List<String> already = ProfileRun.PAIRS.stream().map(CpuStatePair::toString).filter(done::contains).toList();
        if (!already.isEmpty()) {
            lines.add("already measured (resumed): " + String.join(", ", already));
        }
        final List<String> left = new ArrayList<>();
        final Set<String> thisRun = pairs.stream().map(pair -> pair.canonical().toString()).collect(Collectors.toSet());
        for (final CpuStatePair pair : ProfileRun.PAIRS) {
            final String key = pair.toString();
            if (done.contains(key) || thisRun.contains(key)) {
                continue;
            }
            left.add(key + " (--peer-state " + (pair.client() == pair.peer() ? pair.client().toString()
                : pair.client() + " or " + pair.peer()) + ")");
        }
        lines.add("left to other runs (with --resume): " + (left.isEmpty() ? "none" : String.join(", ", left)));
        return lines;
    }

    private static String reachable(final CpuState state) {
        return LOCAL_STATES.stream().map(local -> new CpuStatePair(local, state).canonical().toString())
            .collect(Collectors.joining(", "));
    }
}
