package org.latencyserver.benchmarks.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

class SelfLoadingSimulationTest {

    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);
    private static final double SD = Math.hypot(ShapeModelSimulation.NOISE, ShapeModelSimulation.BLOCK_NOISE);

    @Test
    void onlyTheTopStatesAreTheLoadedPortsAndAnIdlePortAddsNothing() {
        assertEquals(SelfLoadingSimulation.LOADED_STATES, java.util.stream.IntStream.range(0, ShapeModelSimulation.STATES)
            .filter(SelfLoadingSimulation::loaded).count());
        assertEquals(0.0, SelfLoadingSimulation.growthNanos(FAST, 0), 0.0);
    }

    @Test
    void aFastBurstQueuesBehindItselfOnALoadedPortAndASlowOneOnlyWhenThePortIsAlmostFull() {
        final int lowest = ShapeModelSimulation.STATES - SelfLoadingSimulation.LOADED_STATES;
        final double serviceNanos = SelfLoadingSimulation.MESSAGE_BITS / SelfLoadingSimulation.CAPACITY_BITS_PER_SECOND * 1e9;
        assertEquals(serviceNanos - 0.07 * 500_000, SelfLoadingSimulation.growthNanos(FAST, lowest), 1e-6, "93 %: S − 7 % of 0.5 ms");
        assertEquals(0.0, SelfLoadingSimulation.growthNanos(SLOW, lowest), 0.0, "93 %: 10 ms apart fits in the port's room");
        assertTrue(SelfLoadingSimulation.growthNanos(SLOW, ShapeModelSimulation.STATES - 1) > 0, "99 %: even 10 ms apart overloads");
    }

    @Test
    void theTrueP96CoversNinetySixPercentAndLiesFarAboveOnALoadedPortForAFastBurst() {
        final int top = ShapeModelSimulation.STATES - 1;
        final double p96 = SelfLoadingSimulation.trueP96(FAST, top, SD);
        assertEquals(0.96, SelfLoadingSimulation.coverage(FAST, top, p96, SD), 1e-6);
        final double idleP96 = SelfLoadingSimulation.trueP96(FAST, 0, SD);
        assertEquals(Math.exp(ShapeModelSimulation.mu(0) + ShapeModelSimulation.g(FAST)
            + ShapeModelSimulation.NORMAL.inverseCumulativeProbability(0.96) * SD), idleP96, idleP96 * 1e-6, "idle: the log-normal's");
        assertTrue(p96 > 10 * Math.exp(ShapeModelSimulation.mu(top) + ShapeModelSimulation.g(FAST)), "queued behind itself: " + p96);
    }

    @Test
    void aShapesTrueMeanIsTheLogNormalsOnAnIdlePortAndAddsItsBurstsMeanWaitOnALoadedOne() {
        final double idle = Math.exp(ShapeModelSimulation.mu(0) + ShapeModelSimulation.g(FAST) + SD * SD / 2);
        assertEquals(idle, SelfLoadingSimulation.trueMeanNanos(FAST, 0, SD), idle * 1e-12);
        final int top = ShapeModelSimulation.STATES - 1;
        final double base = Math.exp(ShapeModelSimulation.mu(top) + ShapeModelSimulation.g(FAST) + SD * SD / 2);
        final java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        double sum = 0;
        final int bursts = 2_000;
        for (int b = 0; b < bursts; b++) {
            for (int i = 0; i < FAST.burstRoundTrips(); i++) {
                sum += Math.exp(ShapeModelSimulation.mu(top) + ShapeModelSimulation.g(FAST) + SD * ShapeModelSimulation.gaussian(random))
                    + i * SelfLoadingSimulation.growthNanos(FAST, top);
            }
        }
        final double simulated = sum / bursts / FAST.burstRoundTrips();
        final double mean = SelfLoadingSimulation.trueMeanNanos(FAST, top, SD);
        assertTrue(mean > 5 * base, "a fast burst's mean on a loaded port is mostly its wait behind itself: " + mean);
        assertEquals(1.0, simulated / mean, 0.02, "the round trips drawn as the simulation does average to it");
    }
}
