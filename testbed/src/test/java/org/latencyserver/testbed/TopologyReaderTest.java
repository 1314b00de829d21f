package org.latencyserver.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.input.InputFaultsException;

class TopologyReaderTest {

    private static final String ONE = String.join("\n",
        "name: one",
        "switches: [ { name: sw1, management_address: 198.18.0.254/24 } ]",
        "hosts:",
        "  - { name: srv, switch: sw1, address: 198.18.0.1/24 }",
        "  - { name: ws2, switch: sw1, address: 198.18.0.3/24, bottleneck: { rate_mbit: 20 } }",
        "");

    @Test
    void theShippedExamplesRead() throws Exception {
        final Topology one = TopologyReader.load(Path.of("../examples/testbed/one-switch.yaml"));
        assertEquals("one", one.name());
        assertEquals(List.of("srv", "ws1", "ws2"), one.hosts().stream().map(HostSpec::name).toList());
        final Bottleneck toWs2 = one.host("ws2").orElseThrow().bottleneck().orElseThrow();
        assertEquals(new Bottleneck(20, 10, 25), toWs2);
        final Topology two = TopologyReader.load(Path.of("../examples/testbed/two-switches.yaml"));
        final LinkSpec trunk = two.link("trunk").orElseThrow();
        assertEquals("sw2", trunk.towardSwitch().orElseThrow());
        assertEquals("sw1", trunk.limitedEnd().orElseThrow());
        assertEquals(List.of("ws2"), two.hostsReachedFrom("sw2", trunk).stream().map(HostSpec::name).toList());
        assertEquals(List.of("srv", "ws1"), two.hostsReachedFrom("sw1", trunk).stream().map(HostSpec::name).toList());
    }

    @Test
    void aHostMayHaveACpuCoreOfItsOwnAndOneThisMachineLacksIsRefused() throws Exception {
        final Topology one = TopologyReader.load(Path.of("../examples/testbed/one-switch.yaml"));
        assertEquals(java.util.Optional.of(0), one.host("ws1").orElseThrow().cpuCore());
        assertEquals(java.util.Optional.empty(), one.host("srv").orElseThrow().cpuCore(), "srv reports the whole machine");
        final int cores = Runtime.getRuntime().availableProcessors();
        final String message = refused(ONE.replace("address: 198.18.0.1/24 }", "address: 198.18.0.1/24, cpu_core: " + cores + " }"));
        assertTrue(message.contains("hosts[0].cpu_core: must be 0.." + (cores - 1) + ", was " + cores), message);
    }

    @Test
    void defaultsFillBurstAndLatency() throws Exception {
        final Bottleneck b = TopologyReader.parse(ONE, "t.yaml").host("ws2").orElseThrow().bottleneck().orElseThrow();
        assertEquals(Bottleneck.DEFAULT_BURST_KBYTES, b.burstKbytes());
        assertEquals(Bottleneck.DEFAULT_LATENCY_MILLIS, b.latencyMillis());
    }

    @Test
    void anAddressOutsideTheBenchmarkingRangeIsRefusedNamingTheField() {
        final String message = refused(ONE.replace("198.18.0.1/24", "10.0.0.1/24"));
        assertTrue(message.contains("t.yaml:4:") && message.contains("hosts[0].address")
            && message.contains("198.18.0.0/15") && message.contains("10.0.0.1/24"), message);
    }

    /** One edit of the one-switch topology each, refused with the fault named. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        a host on an unknown switch | switch: sw1, address: 198.18.0.1 | switch: sw9, address: 198.18.0.1 | \
            hosts[0].switch: no switch 'sw9'; the switches are [sw1]
        a bad rate | rate_mbit: 20 | rate_mbit: 0 | \
            hosts[1].bottleneck.rate_mbit: must be in [0.001, 100000], was 0
        an unknown key, with the closest one | rate_mbit: 20 | rate_mbits: 20 | \
            hosts[1].bottleneck.rate_mbits: unknown key 'rate_mbits' - did you mean 'rate_mbit'?
        a host outside its switch's network | 198.18.0.1/24 | 198.18.1.1/24 | \
            hosts[0].address: must be in switch 'sw1''s network 198.18.0.254/24
        a name too long for an interface | name: srv | name: averyverylongname | \
            hosts[0].name: must be a-z then a-z0-9 or '-', up to 13 characters, was 'averyverylongname'
        a testbed name with a hyphen | name: one | name: one-switch | \
            name: must be a-z then a-z0-9, up to 12 characters (no '-'), was 'one-switch'
        """)
    void anEditedTopologyIsRefusedNamingTheFault(final String edit, final String from, final String to, final String fault) {
        final String message = refused(ONE.replace(from, to));
        assertTrue(message.contains(fault), message);
    }

    @Test
    void duplicateNamesAndAddressesAreRefused() {
        final String message = refused(ONE.replace("name: ws2, switch: sw1, address: 198.18.0.3", "name: srv, switch: sw1, address: 198.18.0.1"));
        assertTrue(message.contains("hosts[1].name: 'srv' is already the name at hosts[0].name"), message);
        assertTrue(message.contains("hosts[1].address: 198.18.0.1 is already the address at hosts[0].address"), message);
    }

    @Test
    void linksThatCloseALoopAreRefused() {
        final String message = refused("""
            name: loop
            switches:
              - { name: a, management_address: 198.18.0.251/24 }
              - { name: b, management_address: 198.18.0.252/24 }
              - { name: c, management_address: 198.18.0.253/24 }
            hosts: [ { name: h, switch: a, address: 198.18.0.1/24 } ]
            links:
              - { name: ab, between: [a, b] }
              - { name: bc, between: [b, c] }
              - { name: ca, between: [c, a] }
            """);
        assertTrue(message.contains("links[2].between: the link closes a loop between c and a"), message);
    }

    @Test
    void aLinkBottleneckTowardASwitchNotOnTheLinkIsRefused() {
        final String message = refused("""
            name: two
            switches:
              - { name: a, management_address: 198.18.0.251/24 }
              - { name: b, management_address: 198.18.0.252/24 }
            hosts: [ { name: h, switch: a, address: 198.18.0.1/24 } ]
            links: [ { name: ab, between: [a, b], bottleneck: { toward: c, rate_mbit: 10 } } ]
            """);
        assertTrue(message.contains("links[0].bottleneck.toward: must be one of the link's switches [a, b], was 'c'"), message);
    }

    @Test
    void missingSectionsAreAllReportedAtOnce() {
        final String message = refused("name: x\n");
        assertTrue(message.contains("switches: missing: at least one switch"), message);
        assertTrue(message.contains("hosts: missing: at least one host"), message);
    }

    private static String refused(final String yaml) {
        return assertThrows(InputFaultsException.class, () -> TopologyReader.parse(yaml, "t.yaml")).getMessage();
    }
}
