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

    /** A CPU utilisation after a baseline reading (which gives no value yet) and a second one giving {@code percent}. */
    private static CpuUtilisation cpuAfter(final CpuTicks baseline, final CpuTicks next, final int percent) {
        final CpuUtilisation cpu = new CpuUtilisation();
        assertEquals(-1, cpu.update(baseline), "one reading is only a baseline");
        assertEquals(percent, cpu.update(next));
        return cpu;
    }

    /**
     * A port utilisation (idle after 10 s) after a baseline reading of Counter64 octets at time 0
     * and a second one a second later giving {@code percent}; nothing goes out.
     */
    private static PortUtilisation portAfterASecond(final long speedMbps, final long inOctets, final long inOctetsASecondLater,
                                                    final int percent) {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        assertEquals(-1, port.update(inOctets, 0, 64, speedMbps, 0), "one reading is only a baseline");
        assertEquals(percent, port.update(inOctetsASecondLater, 0, 64, speedMbps, SECOND));
        return port;
    }

    @Test
    void cpuUtilisationIsTheNonIdleShareOfTheTicksSinceTheBaseline() {
        // 300 user + 100 system busy, 100 idle: 80 %
        cpuAfter(ticks(1000, 500, 8000), ticks(1300, 600, 8100), 80);
    }

    @Test
    void cpuCountersThatHaveNotMovedKeepTheLastUtilisationInsteadOfDroppingToZero() {
        final CpuUtilisation cpu = cpuAfter(ticks(1000, 0, 1000), ticks(1100, 0, 1100), 50);
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
        // user moved 60 (across the wrap), idle 40: 60 %
        cpuAfter(ticks(MAX32 - 59, 0, 1000), ticks(0, 0, 1040), 60);
    }

    @Test
    void afterAnAgentRestartTheFirstReadingIsANewBaselineAndNotASpike() {
        final CpuUtilisation cpu = cpuAfter(ticks(1000, 0, 9000), ticks(1010, 0, 9090), 10);
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
        final PortUtilisation port = portAfterASecond(8, 0, 1_000_000, 100); // 8 Mbit/s port full
        assertEquals(100, port.update(1_000_000, 0, 64, 8, 2 * SECOND), "cached counters");
        // 500,000 octets over the 2 s since the last change: 2 Mbit/s of 8.
        assertEquals(25, port.update(1_500_000, 0, 64, 8, 3 * SECOND));
    }

    @Test
    void portCountersStandingStillLongerThanTheIdleTimeMeanAnIdlePort() {
        final PortUtilisation port = portAfterASecond(8, 0, 1_000_000, 100);
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
        portAfterASecond(1, 0, 10_000_000, 100);
    }

    @Test
    void afterAnAgentRestartThePortKeepsItsLastValueAndStartsANewBaseline() {
        final PortUtilisation port = portAfterASecond(8, 1_000_000_000, 1_000_500_000, 50);
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
        final CpuUtilisation cpu = cpuAfter(ticks(1000, 0, 1000), ticks(1100, 0, 1100), 50);
        cpu.forget();
        assertEquals(-1, cpu.update(ticks(1200, 0, 1300)), "a baseline again, no value");
        assertEquals(20, cpu.update(ticks(1220, 0, 1380)));
        final PortUtilisation port = portAfterASecond(8, 0, 1_000_000, 100);
        port.forget();
        assertEquals(-1, port.update(1_000_000, 0, 64, 8, 2 * SECOND));
        assertEquals(50, port.update(1_500_000, 0, 64, 8, 3 * SECOND));
    }
}
