package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.config.ConnectionSpecs;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.table.ConnectionSpec;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.Variable;

/**
 * The poller against in-test SNMP agents on loopback that answer from a script: misses of every kind
 * make a source UNKNOWN, and it recovers by itself; a silent agent does not slow the others.
 */
@Isolated // runs alone (junit-platform.properties): counts polls in a second and reads rates over time
class PollerAgainstScriptedAgentTest {

    private static final String COMMUNITY_ENV = "TEST_COMMUNITY";
    private static final String COMMUNITY = "s3cret-test";
    /** The environment the poller reads its secrets from: only the community's variable is set. */
    private static final Function<String, String> RIGHT_COMMUNITY = name -> COMMUNITY_ENV.equals(name) ? COMMUNITY : null;
    private static final long POLL_MILLIS = 40;
    private static final int UNKNOWN_AFTER = 3;
    /*
     * The objects the scripted agents answer, by their numbers in the MIBs (as net-snmp and the
     * snmp-emulator serve them; that the server polls the emulator's is checked in system-tests):
     * written out here, so that this module's tests need no other module built before them.
     */
    /** SNMPv2-MIB sysUpTime.0, TimeTicks. */
    private static final OID SYS_UPTIME = new OID("1.3.6.1.2.1.1.3.0");
    /** UCD-SNMP-MIB ssCpuRawUser.0, Counter32 ticks. */
    private static final OID SS_CPU_RAW_USER = new OID("1.3.6.1.4.1.2021.11.50.0");
    /** UCD-SNMP-MIB ssCpuRawNice.0, Counter32 ticks. */
    private static final OID SS_CPU_RAW_NICE = new OID("1.3.6.1.4.1.2021.11.51.0");
    /** UCD-SNMP-MIB ssCpuRawSystem.0, Counter32 ticks. */
    private static final OID SS_CPU_RAW_SYSTEM = new OID("1.3.6.1.4.1.2021.11.52.0");
    /** UCD-SNMP-MIB ssCpuRawIdle.0, Counter32 ticks. */
    private static final OID SS_CPU_RAW_IDLE = new OID("1.3.6.1.4.1.2021.11.53.0");
    /** IF-MIB ifHCInOctets column (Counter64). */
    private static final OID IF_HC_IN_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.6");
    /** IF-MIB ifHCOutOctets column (Counter64). */
    private static final OID IF_HC_OUT_OCTETS = new OID("1.3.6.1.2.1.31.1.1.1.10");
    /** IF-MIB ifHighSpeed column (Gauge32, Mbps). */
    private static final OID IF_HIGH_SPEED = new OID("1.3.6.1.2.1.31.1.1.1.15");
    /** the polled port's ifIndex */
    private static final int IF_INDEX = 3;

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<PolledValues> delivered = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (final AutoCloseable c : closing) {
            c.close();
        }
    }

    /** CPU counters that move 3 busy ticks per idle tick at every request (75 %), from a base. */
    private static final class BusyCpu {
        private final AtomicLong polls = new AtomicLong();
        private volatile long base;
        private volatile long uptimeBase = 100_000;

        Variable value(final OID oid) {
            if (oid.equals(SYS_UPTIME)) {
                return new TimeTicks(uptimeBase + polls.get());
            }
            if (oid.equals(SS_CPU_RAW_USER)) {
                return counter32(base + 3 * polls.incrementAndGet());
            }
            if (oid.equals(SS_CPU_RAW_NICE) || oid.equals(SS_CPU_RAW_SYSTEM)) {
                return counter32(base);
            }
            if (oid.equals(SS_CPU_RAW_IDLE)) {
                return counter32(base + polls.get());
            }
            return null;
        }
    }

    /** A Counter32 holds its value modulo 2^32. */
    private static Counter32 counter32(final long value) {
        return new Counter32(value & 0xFFFF_FFFFL);
    }

    private ScriptedAgent agent() throws Exception {
        final ScriptedAgent agent = new ScriptedAgent(COMMUNITY);
        closing.add(0, agent);
        return agent;
    }

    private static SnmpAccess v2c(final ScriptedAgent agent, final SnmpAccess.CpuSource cpu, final long timeoutMillis) {
        return new SnmpAccess(agent.address(), SnmpAccess.Version.V2C, COMMUNITY_ENV, null, null, null, null, null, cpu,
            timeoutMillis, 0);
    }

    private void start(final List<NodeConfig> nodes, final List<LinkConfig> links, final List<ConnectionSpec> connections,
                       final Function<String, String> environment) throws Exception {
        final SnmpPoller poller = new SnmpPoller(nodes, links, connections, POLL_MILLIS, UNKNOWN_AFTER, environment,
            delivered::add, System::nanoTime);
        closing.add(0, poller);
        poller.start();
    }

    /**
     * Polls ws1's CPU from the agent for connection 7, whose peer ws2 pushes its values: only the
     * client side is polled.
     *
     * @param environment looks up the community's environment variable
     */
    private void startPollingTheClient(final ScriptedAgent agent, final SnmpAccess.CpuSource cpu, final long timeoutMillis,
                                       final Function<String, String> environment) throws Exception {
        final NodeConfig client = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.SNMP,
            v2c(agent, cpu, timeoutMillis));
        final NodeConfig peer = new NodeConfig("ws2", (short) 2, WorkstationType.TAC_4, MibSource.PUSH, null);
        start(List.of(client, peer), List.of(), List.of(ConnectionSpecs.of((short) 7, client, peer, null, 256, 3, 0, null)),
            environment);
    }

    /** As {@link #startPollingTheClient(ScriptedAgent, SnmpAccess.CpuSource, long, Function)}, with the right community. */
    private void startPollingTheClient(final ScriptedAgent agent, final SnmpAccess.CpuSource cpu, final long timeoutMillis)
        throws Exception {
        startPollingTheClient(agent, cpu, timeoutMillis, RIGHT_COMMUNITY);
    }


    private PolledValues await(final String what, final Predicate<PolledValues> condition, final long timeoutMillis)
        throws InterruptedException {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (System.nanoTime() < deadline) {
            final PolledValues last = delivered.isEmpty() ? null : delivered.get(delivered.size() - 1);
            if (last != null && condition.test(last)) {
                return last;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not seen within " + timeoutMillis + " ms: " + what + "; delivered " + delivered);
    }

    @Test
    void aPolledClientIsReadThenUnknownAfterMissesOfEveryKindAndRecoversByItself() throws Exception {
        final ScriptedAgent agent = agent();
        final BusyCpu cpu = new BusyCpu();
        cpu.base = 5_000;
        agent.script(cpu::value);
        startPollingTheClient(agent, SnmpAccess.CpuSource.UCD_RAW, 100);

        PolledValues values = await("client at 75 %", v -> v.clientCpuPercent() == 75, 3000);
        assertEquals(7, values.indexRef());
        assertTrue(values.clientPolled() && !values.peerPolled() && !values.portPolled(), values.toString());

        // noSuchInstance for a required counter
        agent.script(oid -> oid.equals(SS_CPU_RAW_IDLE) ? null : cpu.value(oid));
        await("client unknown after noSuchInstance", v -> v.clientCpuPercent() == -1, 3000);
        agent.script(cpu::value);
        await("client recovered", v -> v.clientCpuPercent() == 75, 3000);

        // a string where a counter belongs
        agent.script(oid -> oid.equals(SS_CPU_RAW_USER) ? new OctetString("garbage") : cpu.value(oid));
        await("client unknown after garbage", v -> v.clientCpuPercent() == -1, 3000);
        agent.script(cpu::value);
        await("client recovered", v -> v.clientCpuPercent() == 75, 3000);

        // silence: timeouts
        agent.silent(true);
        await("client unknown after timeouts", v -> v.clientCpuPercent() == -1, 3000);
        agent.silent(false);
        await("client recovered", v -> v.clientCpuPercent() == 75, 3000);
    }

    @Test
    void fewerMissesThanTheLimitKeepTheLastValue() throws Exception {
        final ScriptedAgent agent = agent();
        final BusyCpu cpu = new BusyCpu();
        agent.script(cpu::value);
        startPollingTheClient(agent, SnmpAccess.CpuSource.UCD_RAW, 1000);
        await("client at 75 %", v -> v.clientCpuPercent() == 75, 3000);
        // One request with a long timeout is in flight at a time: two missed answers are two misses, fewer than 3.
        final int before = agent.requests();
        agent.silent(true);
        Thread.sleep(1500);
        agent.silent(false);
        // The second unanswered request times out about 2 s after the silence began; then polling resumes.
        Thread.sleep(1500);
        assertTrue(agent.requests() > before, "polling resumed");
        assertFalse(delivered.stream().anyMatch(v -> v.clientCpuPercent() == -1), "never unknown: " + delivered);
    }

    @Test
    void anAgentRestartWithCountersStartingOverGivesNoSpikeAndTheUtilisationGoesOn() throws Exception {
        final ScriptedAgent agent = agent();
        final BusyCpu cpu = new BusyCpu();
        cpu.base = 3_000_000_000L;
        agent.script(cpu::value);
        startPollingTheClient(agent, SnmpAccess.CpuSource.UCD_RAW, 200);
        await("client at 75 %", v -> v.clientCpuPercent() == 75, 3000);
        final int deliveredBefore = delivered.size();
        // Restart: uptime and all counters start over near 0 (the user counter would read as a huge wrap).
        cpu.uptimeBase = 0;
        cpu.base = 0;
        cpu.polls.set(0);
        Thread.sleep(20 * POLL_MILLIS);
        assertEquals(deliveredBefore, delivered.size(), "nothing changed, no spike: " + delivered);
    }

    @Test
    void aPolledPortIsReadAgainstItsSpeedAndTheCountersMayBeCounter64() throws Exception {
        final ScriptedAgent agent = agent();
        final long startNanos = System.nanoTime();
        // 1,000,000 octets/s in = 8 Mbit/s, out half of it; ifHighSpeed 16 Mbit/s: 50 %.
        agent.script(oid -> {
            final long octets = (System.nanoTime() - startNanos) / 1000;
            if (oid.equals(SYS_UPTIME)) {
                return new TimeTicks(octets / 10_000);
            }
            if (oid.equals(new OID(IF_HC_IN_OCTETS).append(IF_INDEX))) {
                return new Counter64(-1_000_000L + octets); // wraps past 2^64 after a second
            }
            if (oid.equals(new OID(IF_HC_OUT_OCTETS).append(IF_INDEX))) {
                return new Counter64(octets / 2);
            }
            return oid.equals(new OID(IF_HIGH_SPEED).append(IF_INDEX)) ? new org.snmp4j.smi.Gauge32(16) : null;
        });
        final NodeConfig a = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.PUSH, null);
        final NodeConfig b = new NodeConfig("ws2", (short) 2, WorkstationType.TAC_4, MibSource.PUSH, null);
        final LinkConfig link = new LinkConfig("port-3", MibSource.SNMP, v2c(agent, null, 200), IF_INDEX, 0);
        start(List.of(a, b), List.of(link), List.of(ConnectionSpecs.of((short) 9, a, b, link, 256, 3, 0, null)), RIGHT_COMMUNITY);
        final PolledValues values = await("port near 50 %", v -> v.portPercent() >= 40 && v.portPercent() <= 60, 3000);
        assertTrue(values.portPolled() && !values.clientPolled() && !values.peerPolled(), values.toString());
        Thread.sleep(1500);
        final PolledValues after = delivered.get(delivered.size() - 1);
        assertTrue(after.portPercent() >= 40 && after.portPercent() <= 60, "after the Counter64 wrap still near 50 %: " + delivered);
    }

    @Test
    void aSilentAgentWithALongTimeoutDoesNotSlowThePollingOfTheOthers() throws Exception {
        final ScriptedAgent dead = agent();
        dead.silent(true);
        final ScriptedAgent alive = agent();
        alive.script(new BusyCpu()::value);
        final NodeConfig slow = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.SNMP,
            v2c(dead, SnmpAccess.CpuSource.UCD_RAW, 5000));
        final NodeConfig fast = new NodeConfig("ws2", (short) 2, WorkstationType.TAC_4, MibSource.SNMP,
            v2c(alive, SnmpAccess.CpuSource.UCD_RAW, 5000));
        start(List.of(slow, fast), List.of(), List.of(ConnectionSpecs.of((short) 7, slow, fast, null, 256, 3, 0, null)),
            RIGHT_COMMUNITY);
        Thread.sleep(1000);
        // 1000 ms / 40 ms = 25 polls; allow for a loaded machine.
        assertTrue(alive.requests() >= 12, "the live agent was asked " + alive.requests() + " times in 1 s");
    }

    @Test
    void aMissingSecretVariableIsRefusedNamingIt() throws Exception {
        final ScriptedAgent agent = agent();
        final NodeConfig client = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.SNMP,
            v2c(agent, SnmpAccess.CpuSource.UCD_RAW, 100));
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new SnmpPoller(List.of(client), List.of(), List.of(), POLL_MILLIS, UNKNOWN_AFTER, name -> null,
                delivered::add, System::nanoTime));
        assertTrue(e.getMessage().contains(COMMUNITY_ENV), e.getMessage());
    }

    @Test
    void theWrongCommunityIsNeverAnsweredSoTheSourceBecomesUnknownFromTheStart() throws Exception {
        final ScriptedAgent agent = agent();
        agent.script(ScriptedAgent.of(Map.of()));
        startPollingTheClient(agent, SnmpAccess.CpuSource.UCD_RAW, 50, name -> "public");
        // Never answered from the start: UNKNOWN is delivered, so a row restored with old values is marked stale.
        final PolledValues values = await("client unknown", v -> v.clientCpuPercent() == -1, 3000);
        assertEquals(1, delivered.size(), "delivered once: " + delivered);
        assertTrue(values.clientPolled(), values.toString());
        assertEquals(0, agent.requests(), "the agent ignored the wrong community");
    }

    @Test
    void hrProcessorLoadIsAveragedOverTheProcessorsAndAnAgentWithoutItIsUnknown() throws Exception {
        final ScriptedAgent agent = agent();
        final String load = "1.3.6.1.2.1.25.3.3.1.2.";
        final java.util.TreeMap<OID, Variable> table = new java.util.TreeMap<>();
        table.put(SYS_UPTIME, new TimeTicks(500));
        table.put(new OID(load + "196608"), new org.snmp4j.smi.Integer32(30));
        table.put(new OID(load + "196609"), new org.snmp4j.smi.Integer32(50));
        table.put(new OID("1.3.6.1.2.1.25.3.4.1.1.1"), new org.snmp4j.smi.Integer32(7)); // the next column
        agent.walkable(table);
        startPollingTheClient(agent, SnmpAccess.CpuSource.HR_PROCESSOR_LOAD, 100);
        await("the mean of 30 % and 50 %", v -> v.clientCpuPercent() == 40, 3000);
        // As net-snmp answered here: no hrProcessorLoad rows at all.
        table.remove(new OID(load + "196608"));
        table.remove(new OID(load + "196609"));
        agent.walkable(table);
        await("unknown without hrProcessorLoad rows", v -> v.clientCpuPercent() == -1, 3000);
    }

    @Test
    void anAnswerReachesTheSinkSoonAfterItArrivesNotAtTheNextPoll() throws Exception {
        final ScriptedAgent agent = agent();
        final java.util.TreeMap<OID, Variable> table = new java.util.TreeMap<>();
        table.put(SYS_UPTIME, new TimeTicks(500));
        table.put(new OID("1.3.6.1.2.1.25.3.3.1.2.196608"), new org.snmp4j.smi.Integer32(70)); // no baseline needed
        table.put(new OID("1.3.6.1.2.1.25.3.4.1.1.1"), new org.snmp4j.smi.Integer32(7));
        agent.walkable(table);
        final NodeConfig client = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.SNMP,
            v2c(agent, SnmpAccess.CpuSource.HR_PROCESSOR_LOAD, 1000));
        final NodeConfig peer = new NodeConfig("ws2", (short) 2, WorkstationType.TAC_4, MibSource.PUSH, null);
        // Polled once a minute: the first poll's answer must not wait for the second poll to be delivered.
        final SnmpPoller poller = new SnmpPoller(List.of(client, peer), List.of(),
            List.of(ConnectionSpecs.of((short) 7, client, peer, null, 256, 3, 0, null)), 60_000, UNKNOWN_AFTER, RIGHT_COMMUNITY,
            delivered::add, System::nanoTime);
        closing.add(0, poller);
        poller.start();
        await("the first poll's 70 %, a fraction of the minute after it was asked", v -> v.clientCpuPercent() == 70, 20_000);
    }

    @Test
    void cpuCounter32sWrappingWhilePolledKeepTheUtilisationSteady() throws Exception {
        final ScriptedAgent agent = agent();
        final BusyCpu cpu = new BusyCpu();
        // The user counter passes 2^32 after 10 requests, the idle counter after 30.
        cpu.base = 0x1_0000_0000L - 30;
        agent.script(cpu::value);
        startPollingTheClient(agent, SnmpAccess.CpuSource.UCD_RAW, 200);
        await("client at 75 %", v -> v.clientCpuPercent() == 75, 3000);
        while (cpu.polls.get() < 40) {
            Thread.sleep(POLL_MILLIS);
        }
        assertEquals(List.of((short) 75), delivered.stream().map(PolledValues::clientCpuPercent).distinct().toList(),
            "only 75 % across both wraps");
    }
}
