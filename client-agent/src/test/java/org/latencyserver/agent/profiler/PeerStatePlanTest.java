package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/** Which pairs a run against a peer host held in one asserted state reaches, and what it says it leaves to other runs. */
class PeerStatePlanTest {

    private static final RemotePeer PEER = new RemotePeer("corbaloc::198.18.0.3:4711/peer", "198.18.0.3:4711", CpuState.MEDIUM);

    @Test
    void aPeerStateReachesThisHostsThreeStatesAgainstIt() {
        assertEquals(List.of(pair(CpuState.LOW, CpuState.MEDIUM), pair(CpuState.MEDIUM, CpuState.MEDIUM),
            pair(CpuState.HIGH, CpuState.MEDIUM)), PeerStatePlan.of("MEDIUM", List.of()).pairs());
        assertEquals(List.of(pair(CpuState.LOW, CpuState.LOW), pair(CpuState.MEDIUM, CpuState.LOW), pair(CpuState.HIGH, CpuState.LOW)),
            PeerStatePlan.of("low", List.of()).pairs(), "the state is read in any case");
        assertEquals(CpuState.HIGH, PeerStatePlan.of("67-100", List.of()).peerState(), "or as the thesis's band");
    }

    @Test
    void pairsNarrowTheRunToThoseHoldingThePeerState() {
        final PeerStatePlan plan = PeerStatePlan.of("LOW", List.of(pair(CpuState.LOW, CpuState.HIGH)));
        assertEquals(List.of(pair(CpuState.HIGH, CpuState.LOW)), plan.pairs(), "LOW/HIGH against a LOW peer: this host HIGH");
    }

    @Test
    void aPairWithoutThePeerStateIsRefusedNamingWhatTheRunReaches() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> PeerStatePlan.of("HIGH", List.of(pair(CpuState.LOW, CpuState.LOW))));
        assertEquals("--pairs: LOW/LOW cannot be measured with --peer-state HIGH: the peer host is held HIGH, so this run reaches"
            + " LOW/HIGH, MEDIUM/HIGH, HIGH/HIGH only", e.getMessage());
    }

    @Test
    void aPeerStateThatIsNoStateIsRefusedNamingTheOptionAndValue() {
        for (final String bad : List.of("IDLE", "UNKNOWN", "unknown", "0-50", "")) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeerStatePlan.of(bad, List.of()));
            assertEquals("--peer-state: '" + bad + "' is not a CPU state; give LOW, MEDIUM or HIGH (the peer host's CPU utilisation"
                + " bands 0-33, 34-66, 67-100 %)", e.getMessage());
        }
    }

    @Test
    void theRunSaysWhatItMeasuresAndWhichPeerStateEachPairLeftNeeds() {
        final List<String> lines = PeerStatePlan.of("MEDIUM", List.of()).describe(PEER, List.of(64, 1024), Set.of());
        assertEquals(List.of(
            "against the peer agent corbaloc::198.18.0.3:4711/peer on 198.18.0.3:4711, its CPU asserted MEDIUM (34-66 %; --peer-state:"
                + " not driven or checked from here)",
            "measured by this run, at 64, 1024 B: LOW/MEDIUM (this host LOW, peer MEDIUM), MEDIUM/MEDIUM (this host MEDIUM, peer"
                + " MEDIUM), MEDIUM/HIGH (this host HIGH, peer MEDIUM)",
            "left to other runs (with --resume): LOW/LOW (--peer-state LOW), LOW/HIGH (--peer-state LOW or HIGH), HIGH/HIGH"
                + " (--peer-state HIGH)"), lines);
    }

    @Test
    void aResumedRunSaysWhatIsInAlreadyAndMeasuresOnlyTheRest() {
        final List<String> lines = PeerStatePlan.of("MEDIUM", List.of()).describe(PEER, List.of(64),
            Set.of("LOW/LOW", "LOW/MEDIUM", "LOW/HIGH"));
        assertEquals(List.of(
            "measured by this run, at 64 B: MEDIUM/MEDIUM (this host MEDIUM, peer MEDIUM), MEDIUM/HIGH (this host HIGH, peer MEDIUM)",
            "already measured (resumed): LOW/LOW, LOW/MEDIUM, LOW/HIGH",
            "left to other runs (with --resume): HIGH/HIGH (--peer-state HIGH)"), lines.subList(1, 4));
    }

    private static CpuStatePair pair(final CpuState local, final CpuState peer) {
        return new CpuStatePair(local, peer);
    }
}
