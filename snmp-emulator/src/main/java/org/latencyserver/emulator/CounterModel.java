package org.latencyserver.emulator;

import java.math.BigInteger;

/**
 * Turns a scenario's utilisation timeline into the counters net-snmp serves, so that a poller
 * computing utilisation from two readings gets the scenario's time-weighted utilisation
 * between them.
 *
 * <p>CPU: Linux ticks at 100 Hz per core; busy ticks are {@code ∫ percent dt × cores / 100}
 * and idle ticks {@code ∫ (100 − percent) dt × cores / 100}, each floored separately so both
 * counters only ever go up. Busy ticks are split ¾ user, ¼ system, nice stays 0.
 * Links: octets in (and out) advance at {@code speed × percent / 100 / 8} bytes per second.
 *
 * <p>Stateless (pure functions of the immutable scenario and the time passed in) and thread-safe.
 */
public final class CounterModel {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    /** 100 ticks per second per core over percent: ticks = percent·µs × cores / (100 · 10^6 / 100). */
    private static final long PERCENT_MICROS_PER_TICK = 1_000_000L;
    private static final BigInteger PERCENT_MICROS_TIMES_MBPS_PER_OCTET = BigInteger.valueOf(800);

    private final Scenario scenario;

    /** @param scenario the validated scenario whose timeline drives the counters */
    public CounterModel(Scenario scenario) {
        this.scenario = scenario;
    }

    /** @return the scenario this model follows */
    public Scenario scenario() {
        return scenario;
    }

    /** Raw CPU tick counters of one node at one instant, as unbounded (unwrapped) longs. Immutable and thread-safe. */
    public record CpuTicks(long userTicks, long niceTicks, long systemTicks, long idleTicks) {
        /** @return user + nice + system */
        public long busyTicks() {
            return userTicks + niceTicks + systemTicks;
        }

        /** @return all ticks */
        public long totalTicks() {
            return busyTicks() + idleTicks;
        }
    }

    /**
     * @param node a node of the scenario
     * @param elapsedMicros time since the emulator started, at least 0
     * @return the node's raw CPU tick counters at that time (not yet wrapped to 32 bits)
     */
    public CpuTicks cpuTicks(NodeSpec node, long elapsedMicros) {
        long busyIntegral = scenario.percentMicrosIntegral(node.name(), elapsedMicros);
        long idleIntegral = 100L * elapsedMicros - busyIntegral;
        long busy = busyIntegral * node.cores() / PERCENT_MICROS_PER_TICK;
        long idle = idleIntegral * node.cores() / PERCENT_MICROS_PER_TICK;
        long system = busy / 4;
        return new CpuTicks(busy - system, 0, system, idle);
    }

    /**
     * @param link a link of the scenario
     * @param elapsedMicros time since the emulator started, at least 0
     * @return octets carried in each direction since start, modulo 2^64 (as Counter64 wraps)
     */
    public long octets(LinkSpec link, long elapsedMicros) {
        long integral = scenario.percentMicrosIntegral(link.name(), elapsedMicros);
        return BigInteger.valueOf(integral).multiply(BigInteger.valueOf(link.speedMbps()))
                .divide(PERCENT_MICROS_TIMES_MBPS_PER_OCTET).longValue();
    }

    /**
     * @param elapsedMicros time since the emulator started, at least 0
     * @return sysUpTime in hundredths of a second, modulo 2^32 (TimeTicks wraps)
     */
    public static long upTimeCentis(long elapsedMicros) {
        return (elapsedMicros / (MICROS_PER_SECOND / 100)) & 0xFFFF_FFFFL;
    }
}
