package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.latencyserver.core.input.InputFaultsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snmp4j.smi.Counter32;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.OID;

class CounterModelTest {
    private static final long SECOND_MICROS = 1_000_000L;

    /** A scenario and the counter model of it; the tests look at its first node or link. */
    private record Modelled(Scenario scenario, CounterModel model) {
        static Modelled of(String yaml) throws InputFaultsException {
            Scenario scenario = ScenarioLoader.parse(yaml, "test.yaml");
            return new Modelled(scenario, new CounterModel(scenario));
        }

        NodeSpec node() {
            return scenario.nodes().get(0);
        }

        LinkSpec link() {
            return scenario.links().get(0);
        }
    }

    /** Utilisation as a poller computes it: non-idle share of the tick delta, in percent. */
    private static double cpuPercentBetween(CounterModel model, NodeSpec node, long fromMicros, long toMicros) {
        CounterModel.CpuTicks a = model.cpuTicks(node, fromMicros);
        CounterModel.CpuTicks b = model.cpuTicks(node, toMicros);
        double busy = b.busyTicks() - a.busyTicks();
        double total = b.totalTicks() - a.totalTicks();
        return 100.0 * busy / total;
    }

    @ParameterizedTest
    @CsvSource({"0,1", "10,2", "33,2", "50,4", "67,1", "85,2", "100,8"})
    void twoReadingsWithinAStepGiveExactlyTheScenarioCpuPercent(int percent, int cores) throws Exception {
        Modelled m = Modelled.of("nodes: [ { name: ws1, port: 0, cores: " + cores + " } ]\n"
                + "steps: [ { cpu: { ws1: " + percent + " } } ]\n");
        CounterModel model = m.model();
        NodeSpec node = m.node();
        assertEquals(percent, cpuPercentBetween(model, node, 1 * SECOND_MICROS, 3 * SECOND_MICROS), 1e-9);
        // 100 Hz per core: 2 s are 200 ticks per core, whatever the utilisation.
        long totalDelta = model.cpuTicks(node, 3 * SECOND_MICROS).totalTicks()
                - model.cpuTicks(node, 1 * SECOND_MICROS).totalTicks();
        assertEquals(200L * cores, totalDelta);
    }

    @Test
    void readingsAcrossAStepChangeGiveTheTimeWeightedMean() throws Exception {
        Modelled m = Modelled.of("step_seconds: 10\nnodes: [ { name: ws1, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 20 } }, { cpu: { ws1: 80 } } ]\n");
        // 4 s at 20 % then 6 s at 80 %.
        double expected = (4 * 20 + 6 * 80) / 10.0;
        assertEquals(expected, cpuPercentBetween(m.model(), m.node(), 6 * SECOND_MICROS, 16 * SECOND_MICROS), 1e-9);
    }

    @Test
    void aLoopingTimelineRepeatsAndAHoldingOneKeepsItsLastStep() throws Exception {
        String body = "step_seconds: 10\nnodes: [ { name: ws1, port: 0 } ]\n"
                + "steps: [ { cpu: { ws1: 20 } }, { cpu: { ws1: 80 } } ]\n";
        Modelled looping = Modelled.of(body);
        Modelled holding = Modelled.of("loop: false\n" + body);
        long in3rdStep = 25 * SECOND_MICROS;
        assertEquals(20, looping.scenario().percentAt("ws1", in3rdStep));
        assertEquals(80, holding.scenario().percentAt("ws1", in3rdStep));
        assertEquals(20.0, cpuPercentBetween(looping.model(), looping.node(), 21 * SECOND_MICROS, 29 * SECOND_MICROS), 1e-9);
        assertEquals(80.0, cpuPercentBetween(holding.model(), holding.node(), 21 * SECOND_MICROS, 29 * SECOND_MICROS), 1e-9);
    }

    @Test
    void cpuCountersNeverGoBackwardsAtAnyUtilisation() throws Exception {
        Modelled m = Modelled.of("step_seconds: 0.37\nnodes: [ { name: ws1, port: 0, cores: 3 } ]\n"
                + "steps: [ { cpu: { ws1: 100 } }, { cpu: { ws1: 0 } }, { cpu: { ws1: 33 } }, { cpu: { ws1: 67 } } ]\n");
        CounterModel model = m.model();
        NodeSpec node = m.node();
        Random random = new Random(42);
        long t = 0;
        CounterModel.CpuTicks previous = model.cpuTicks(node, t);
        for (int i = 0; i < 20_000; i++) {
            t += random.nextInt(20_000);
            CounterModel.CpuTicks now = model.cpuTicks(node, t);
            assertTrue(now.userTicks() >= previous.userTicks() && now.systemTicks() >= previous.systemTicks()
                    && now.idleTicks() >= previous.idleTicks(), "counters went back at " + t + " µs: " + previous + " -> " + now);
            previous = now;
        }
    }

    @Test
    void linkOctetsAdvanceAtSpeedTimesUtilisationOverEight() throws Exception {
        Modelled m = Modelled.of("links: [ { name: atm, port: 0, if_index: 3, speed_mbps: 155 } ]\n"
                + "steps: [ { port: { atm: 50 } } ]\n");
        long delta = m.model().octets(m.link(), 3 * SECOND_MICROS) - m.model().octets(m.link(), 1 * SECOND_MICROS);
        assertEquals(155e6 * 0.50 / 8 * 2, delta, 0.0);
    }

    @Test
    void servedCpuCounterWrapsModulo2To32LikeACounter32() throws Exception {
        Modelled m = Modelled.of("nodes: [ { name: ws1, port: 0, cores: 1024 } ]\nsteps: [ { cpu: { ws1: 100 } } ]\n");
        long elapsed = 60_000 * SECOND_MICROS; // 1024 cores × 100 Hz × 60,000 s × ¾ user = 4.6e9 ticks > 2^32
        long unwrapped = m.model().cpuTicks(m.node(), elapsed).userTicks();
        assertTrue(unwrapped > 0xFFFF_FFFFL);
        EmulatedMib mib = EmulatedMib.forNode(m.model(), m.node());
        Counter32 served = (Counter32) mib.get(EmulatedMib.SS_CPU_RAW_USER, elapsed);
        assertEquals(unwrapped % (1L << 32), served.getValue());
    }

    @Test
    void servedLinkMibHasHighSpeedAndEqualInAndOutOctets() throws Exception {
        Modelled m = Modelled.of("links: [ { name: atm, port: 0, if_index: 7, speed_mbps: 10000 } ]\n"
                + "steps: [ { port: { atm: 91 } } ]\n");
        EmulatedMib mib = EmulatedMib.forLink(m.model(), m.link());
        long t = 12 * SECOND_MICROS;
        OID in = new OID(EmulatedMib.IF_HC_IN_OCTETS).append(7);
        OID out = new OID(EmulatedMib.IF_HC_OUT_OCTETS).append(7);
        assertEquals(10_000e6 * 0.91 / 8 * 12, ((Counter64) mib.get(in, t)).getValue(), 0.0);
        assertEquals(mib.get(in, t), mib.get(out, t));
        assertEquals("10000", mib.get(new OID(EmulatedMib.IF_HIGH_SPEED).append(7), t).toString());
        assertEquals(null, mib.get(new OID(EmulatedMib.IF_HIGH_SPEED).append(8), t));
    }

    @Test
    void aNodeWithACounterRefreshServesCountersThatChangeOnlyAtEachRefresh() throws Exception {
        Modelled m = Modelled.of("nodes: [ { name: ws1, port: 0, counter_refresh_seconds: 5 } ]\nsteps: [ { cpu: { ws1: 40 } } ]\n");
        EmulatedMib mib = EmulatedMib.forNode(m.model(), m.node());
        long at5s = ((Counter32) mib.get(EmulatedMib.SS_CPU_RAW_IDLE, 5 * SECOND_MICROS)).getValue();
        assertEquals(at5s, ((Counter32) mib.get(EmulatedMib.SS_CPU_RAW_IDLE, 9_999_999L)).getValue());
        long at10s = ((Counter32) mib.get(EmulatedMib.SS_CPU_RAW_IDLE, 10 * SECOND_MICROS)).getValue();
        // 5 s × 2 cores × 100 Hz × 60 % idle = 600 ticks between two refreshes.
        assertEquals(600, at10s - at5s);
    }
}
