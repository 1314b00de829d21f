package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

/** The engine's memo of profile estimates: computed once per profile, QoS, state and size; a replaced profile afresh. */
class ProfileEstimatesTest {

    private static final ConnectionLoadState LOW_HIGH =
        new ConnectionLoadState(new CpuStatePair(CpuState.LOW, CpuState.HIGH), PortState.NORMAL);
    private static final ConnectionLoadState HIGH_HIGH =
        new ConnectionLoadState(new CpuStatePair(CpuState.HIGH, CpuState.HIGH), PortState.NORMAL);

    private static Profile tac4() throws Exception {
        return ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
    }

    @Test
    void theSameKeyGivesTheSameEstimateAndEachEqualsWhatTheProfileGives() throws Exception {
        final Profile profile = tac4();
        final ProfileEstimates memo = new ProfileEstimates();
        final Estimate first = memo.estimate(Qos.PROFILE_AVERAGE, profile, LOW_HIGH, 256, 0, BoundMethod.UNION).estimate();
        assertSame(first, memo.estimate(Qos.PROFILE_AVERAGE, profile, LOW_HIGH, 256, 0, BoundMethod.UNION).estimate());
        assertEquals(Qos.PROFILE_AVERAGE.fromProfile(profile, LOW_HIGH, 256, 0), first);
        final Estimate other = memo.estimate(Qos.PROFILE_AVERAGE, profile, HIGH_HIGH, 256, 0, BoundMethod.UNION).estimate();
        assertEquals(Qos.PROFILE_AVERAGE.fromProfile(profile, HIGH_HIGH, 256, 0), other);
        assertNotSame(first, memo.estimate(Qos.PROFILE_AVERAGE, profile, LOW_HIGH, 1024, 0, BoundMethod.UNION).estimate(), "another message size");
        assertEquals(3, memo.size());
    }

    @Test
    void aReplacedProfileIsComputedAfreshAndForgettingItDropsItsEstimates() throws Exception {
        final Profile old = tac4();
        final Profile replacement = tac4();
        final ProfileEstimates memo = new ProfileEstimates();
        final Estimate before = memo.estimate(Qos.PROFILE_AVERAGE, old, LOW_HIGH, 256, 0, BoundMethod.UNION).estimate();
        assertNotSame(before, memo.estimate(Qos.PROFILE_AVERAGE, replacement, LOW_HIGH, 256, 0, BoundMethod.UNION).estimate(), "another profile object");
        memo.forget(old);
        assertEquals(1, memo.size(), "only the replacement's estimate is left");
    }
}
