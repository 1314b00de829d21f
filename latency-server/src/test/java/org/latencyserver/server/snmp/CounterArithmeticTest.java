package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Counter deltas, CPU and port utilisation: pure arithmetic with injected time, no network. */
class CounterArithmeticTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MAX32 = 0xFFFF_FFFFL;

    @Test
    void aCounter32ThatWrappedPastItsMaximumGivesTheDistanceModuloTwoToThe32() {
        assertEquals(9 + 1 + 5, CounterDelta.of(MAX32 - 9, 5, 32), "9 steps up to 2^32-1, 1 to 0, 5 to 5");
        assertEquals(7, CounterDelta.of(100, 107, 32));
    }

    @Test
    void aCounter64ThatWrappedPastItsMaximumGivesTheDistanceModuloTwoToThe64() {
        final BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        final BigInteger previous = two64.subtract(BigInteger.valueOf(1000));
        final long delta = CounterDelta.of(previous.longValue(), 24, 64);
        assertEquals(BigInteger.valueOf(24).add(two64).subtract(previous).longValueExact(), delta);
        assertEquals(1024, delta);
    }

    @Test
    void aCounterWidthOtherThan32Or64IsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CounterDelta.of(0, 1, 16));
    }

    private static CpuTicks ticks(final long user, final long system, final long idle) {
        return new CpuTicks(user, 0, system, idle, 0, 0, 0);
    }

    @Test
    void cpuUtilisationIsTheNonIdleShareOfTheTicksSinceTheBaseline() {
        final CpuUtilisation cpu = new CpuUtilisation();
        assertEquals(-1, cpu.update(ticks(1000, 500, 8000)), "one reading is only a baseline");
        // 300 user + 100 system busy, 100 idle: 80 %
        assertEquals(80, cpu.update(ticks(1300, 600, 8100)));
    }

    @Test
    void cpuCountersThatHaveNotMovedKeepTheLastUtilisationInsteadOfDroppingToZero() {
        final CpuUtilisation cpu = new CpuUtilisation();
        cpu.update(ticks(1000, 0, 1000));
        assertEquals(50, cpu.update(ticks(1100, 0, 1100)));
        for (int poll = 0; poll < 49; poll++) {
            assertEquals(50, cpu.update(ticks(1100, 0, 1100)), "net-snmp's cache has not refreshed yet");
        }
        // The next refresh is measured against the last changed reading: 10 busy, 90 idle.
        assertEquals(10, cpu.update(ticks(1110, 0, 1190)));
    }

    @Test
    void allZeroCpuCountersOfAFreshAgentAreIgnored() {
        final CpuUtilisation cpu = new CpuUtilisation();
        assertEquals(-1, cpu.update(ticks(0, 0, 0)));
        assertEquals(-1, cpu.update(ticks(5_000_000, 0, 5_000_000)), "the first real reading is the baseline");
        assertEquals(25, cpu.update(ticks(5_000_025, 0, 5_000_075)));
    }

    @Test
    void cpuCountersThatWrapGiveTheUtilisationOfTheTicksAroundTheWrap() {
        final CpuUtilisation cpu = new CpuUtilisation();
        cpu.update(ticks(MAX32 - 59, 0, 1000));
        // user moved 60 (across the wrap), idle 40: 60 %
        assertEquals(60, cpu.update(ticks(0, 0, 1040)));
    }

    @Test
    void afterAnAgentRestartTheFirstReadingIsANewBaselineAndNotASpike() {
        final CpuUtilisation cpu = new CpuUtilisation();
        cpu.update(ticks(1000, 0, 9000));
        assertEquals(10, cpu.update(ticks(1010, 0, 9090)));
        cpu.restart();
        // Counters that went backwards would read as a wrap of nearly 2^32 busy ticks.
        assertEquals(10, cpu.update(ticks(5, 0, 50)), "the last value is kept");
        assertEquals(30, cpu.update(ticks(35, 0, 120)));
    }

    @Test
    void portUtilisationIsTheBusierDirectionsBitRateOverTheSpeed() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        assertEquals(-1, port.update(0, 0, 64, 100, 0));
        // 100 Mbit/s: 6,250,000 octets in 1 s are 50 Mbit/s; out carries 1,250,000 octets (10 %).
        assertEquals(50, port.update(6_250_000, 1_250_000, 64, 100, SECOND));
        assertEquals(20, port.update(6_250_000 + 1_250_000, 1_250_000 + 2_500_000, 64, 100, 2 * SECOND));
    }

    @Test
    void portCountersCachedByTheAgentKeepTheLastValueUntilTheyMoveAndAreThenAveragedOverTheGap() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 8, 0);
        assertEquals(100, port.update(1_000_000, 0, 64, 8, SECOND), "8 Mbit/s port full");
        assertEquals(100, port.update(1_000_000, 0, 64, 8, 2 * SECOND), "cached counters");
        // 500,000 octets over the 2 s since the last change: 2 Mbit/s of 8.
        assertEquals(25, port.update(1_500_000, 0, 64, 8, 3 * SECOND));
    }

    @Test
    void portCountersStandingStillLongerThanTheIdleTimeMeanAnIdlePort() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 8, 0);
        assertEquals(100, port.update(1_000_000, 0, 64, 8, SECOND));
        assertEquals(100, port.update(1_000_000, 0, 64, 8, 11 * SECOND));
        assertEquals(0, port.update(1_000_000, 0, 64, 8, 11 * SECOND + 1));
    }

    @Test
    void portCounter64WrapIsCountedOnceAndCounter32WrapToo() {
        final PortUtilisation hc = new PortUtilisation(10 * SECOND);
        hc.update(-500_000L, 0, 64, 8, 0); // 2^64 - 500,000
        assertEquals(100, hc.update(500_000, 0, 64, 8, SECOND), "1,000,000 octets across the wrap, 8 Mbit/s");
        final PortUtilisation old = new PortUtilisation(10 * SECOND);
        old.update(MAX32 - 249_999, 0, 32, 8, 0);
        assertEquals(50, old.update(250_000, 0, 32, 8, SECOND));
    }

    @Test
    void portUtilisationAboveTheSpeedIsClampedTo100() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 1, 0);
        assertEquals(100, port.update(10_000_000, 0, 64, 1, SECOND));
    }

    @Test
    void afterAnAgentRestartThePortKeepsItsLastValueAndStartsANewBaseline() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(1_000_000_000, 0, 64, 8, 0);
        assertEquals(50, port.update(1_000_500_000, 0, 64, 8, SECOND));
        port.restart();
        assertEquals(50, port.update(10, 0, 64, 8, 2 * SECOND));
        assertEquals(25, port.update(250_010, 0, 64, 8, 3 * SECOND));
    }

    @Test
    void aSourceBecomesUnknownExactlyAtTheConfiguredMissAndRecoversAtTheNextGoodAnswer() {
        final SourceHealth health = new SourceHealth(3);
        assertEquals(SourceHealth.Change.NONE, health.miss("timeout"));
        assertEquals(SourceHealth.Change.NONE, health.good(), "a good answer resets the count");
        assertEquals(SourceHealth.Change.NONE, health.miss("timeout"));
        assertEquals(SourceHealth.Change.NONE, health.miss("timeout"));
        assertEquals(SourceHealth.Change.BECAME_UNKNOWN, health.miss("noSuchInstance"));
        assertEquals(SourceHealth.Change.NONE, health.miss("timeout"), "reported once");
        assertEquals("timeout", health.lastMissReason());
        assertEquals(SourceHealth.Change.RECOVERED, health.good());
        assertEquals(false, health.unknown());
    }

    @Test
    void afterForgettingNeitherTheOldValueNorTheOldBaselineIsUsed() {
        final CpuUtilisation cpu = new CpuUtilisation();
        cpu.update(ticks(1000, 0, 1000));
        assertEquals(50, cpu.update(ticks(1100, 0, 1100)));
        cpu.forget();
        assertEquals(-1, cpu.update(ticks(1200, 0, 1300)), "a baseline again, no value");
        assertEquals(20, cpu.update(ticks(1220, 0, 1380)));
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        port.update(0, 0, 64, 8, 0);
        assertEquals(100, port.update(1_000_000, 0, 64, 8, SECOND));
        port.forget();
        assertEquals(-1, port.update(1_000_000, 0, 64, 8, 2 * SECOND));
        assertEquals(50, port.update(1_500_000, 0, 64, 8, 3 * SECOND));
    }
}
