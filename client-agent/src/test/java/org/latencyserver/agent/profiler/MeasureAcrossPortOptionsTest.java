package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code profile measure --peer ... --port-loads ...}: what the options make, and how a usage fault is refused. */
class MeasureAcrossPortOptionsTest {

    private static final List<String> COMPLETE = List.of("--out", "/tmp/p.json", "--peer", "peers/ws2", "--naming",
        "corbaloc::198.18.0.1:2809/NameService", "--cpu-cells-from", "profiles/measured-loopback-jacorb.json", "--port-loads",
        "0,50,95,98,100", "--port-snmp", "udp:198.18.0.254/161", "--port-if-index", "5", "--port-speed-mbps", "20",
        "--port-load-target", "198.18.0.3:5201", "--peer-snmp", "udp:198.18.0.3/161", "--sizes", "1024,64");

    @Test
    void completeOptionsMakeThePortSettings() {
        final PortSettings settings = parse(COMPLETE).portSettings(Map.of("LATENCY_SNMP_COMMUNITY", "secret")::get);
        assertEquals(List.of(0, 50, 95, 98, 100), settings.loads().percents());
        assertEquals(List.of(64, 1024), settings.sizesBytes());
        assertEquals("udp:198.18.0.254/161", settings.portAgent());
        assertEquals(5, settings.portIfIndex());
        assertEquals(20, settings.portSpeedMbps());
        assertEquals("secret", settings.community());
        assertEquals("198.18.0.3:5201", settings.loadTarget());
        assertEquals(5, settings.sharePercent());
        assertEquals(10, settings.checkSeconds());
        assertEquals(2, settings.tolerancePoints());
        assertEquals("p", settings.name());
        assertEquals(Path.of("profiles/measured-loopback-jacorb.json"), settings.cpuCellsFrom());
        assertEquals(new PortTraffic(true, 32), settings.traffic(), "bursty cross-traffic unless asked otherwise");
    }

    @Test
    void theCrossTrafficShapeIsTakenFromPortTraffic() {
        final Map<String, String> environment = Map.of("LATENCY_SNMP_COMMUNITY", "secret");
        assertEquals(PortTraffic.SMOOTH, parse(List.of(with("--port-traffic", "smooth"))).portSettings(environment::get).traffic());
        assertEquals(new PortTraffic(true, 8), parse(List.of(with("--port-traffic", "bursty:8"))).portSettings(environment::get).traffic());
        assertRefused("--port-traffic: 'jumpy' is not smooth, bursty or bursty:PACKETS", with("--port-traffic", "jumpy"));
    }

    @Test
    void portLoadsWithoutAPeerAreRefusedBecauseLoopbackHasNoPort() {
        assertRefused("--port-loads needs --peer: a switch port lies between two hosts", "--out", "/tmp/p.json", "--port-loads", "95");
    }

    @Test
    void aPeerWithNeitherPortLoadsNorAPeerStateSaysWhichToGiveAndWhy() {
        final String message = refusal("--out", "/tmp/p.json", "--peer", "peers/ws2");
        assertTrue(message.startsWith("--peer needs --peer-state STATE or --port-loads LIST"), message);
        assertTrue(message.contains("the profiler's load drivers run on this host only and cannot drive or pin the peer host's CPU"),
            message);
        assertTrue(message.contains("--cpu-cells-from"), message);
    }

    @Test
    void cpuPairsAndResumeAreRefusedWithAPeer() {
        final List<String> withPairs = new ArrayList<>(COMPLETE);
        withPairs.addAll(List.of("--pairs", "LOW/HIGH"));
        assertRefused("--pairs cannot be measured with --port-loads", withPairs.toArray(String[]::new));
        final List<String> withResume = new ArrayList<>(COMPLETE);
        withResume.add("--resume");
        assertRefused("--resume is for CPU state pairs", withResume.toArray(String[]::new));
    }

    @Test
    void everyMissingPortOptionIsNamedAtOnce() {
        final String message = refusal("--out", "/tmp/p.json", "--peer", "peers/ws2", "--port-loads", "0,95");
        assertEquals("--peer with --port-loads also needs --cpu-cells-from FILE (the CPU state pair cells the profile carries), "
            + "--port-snmp udp:HOST/PORT (the switch's agent), --port-if-index N, --port-speed-mbps MBPS, --port-load-target ADDR[:PORT]"
            + " (an iperf3 -s behind the port, to drive it)", message);
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        assertRefused("--port-loads: 101 is outside 0..100 %", with("--port-loads", "0,101"));
        assertRefused("--port-speed-mbps must be > 0, was 0.0", with("--port-speed-mbps", "0"));
        assertRefused("--port-if-index must be >= 1, was 0", with("--port-if-index", "0"));
        assertRefused("--port-snmp: '198.18.0.254' is not an SNMP agent's address like udp:198.18.0.254/161",
            with("--port-snmp", "198.18.0.254"));
        assertRefused("--peer-snmp: 'tcp:198.18.0.3/161' is not an SNMP agent's address", with("--peer-snmp", "tcp:198.18.0.3/161"));
        assertRefused("--port-load-target: '198.18.0.3:x' is not ADDR or ADDR:PORT", with("--port-load-target", "198.18.0.3:x"));
        assertRefused("--port-share-percent must be in (0, 20], was 30.0", with("--port-share-percent", "30"));
        assertRefused("--port-check-seconds must be >= 6, was 3", with("--port-check-seconds", "3"));
    }

    @Test
    void anUnsetCommunityVariableIsNamed() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> parse(List.of(with("--snmp-community-env", "TESTBED_COMMUNITY"))).portSettings(Map.<String, String>of()::get));
        assertEquals("the SNMP community is read from the environment variable TESTBED_COMMUNITY (--snmp-community-env), which is"
            + " not set", e.getMessage());
    }

    /** The complete options with one replaced. */
    private static String[] with(final String option, final String value) {
        final List<String> args = new ArrayList<>(COMPLETE);
        final int at = args.indexOf(option);
        if (at >= 0) {
            args.set(at + 1, value);
        } else {
            args.addAll(List.of(option, value));
        }
        return args.toArray(String[]::new);
    }

    private static ProfilerMain.Measure parse(final List<String> args) {
        final ProfilerMain.Measure measure = new ProfilerMain.Measure();
        new CommandLine(measure).parseArgs(args.toArray(String[]::new));
        return measure;
    }

    private static String refusal(final String... args) {
        return assertThrows(IllegalArgumentException.class,
            () -> parse(List.of(args)).portSettings(Map.of("LATENCY_SNMP_COMMUNITY", "secret")::get)).getMessage();
    }

    private static void assertRefused(final String start, final String... args) {
        final String message = refusal(args);
        assertTrue(message.startsWith(start), message);
    }
}
