package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.server.table.ConnectionSpec;

/** {@code connections[].links}: a path through several switches, each port polled, with its bound method. */
class PathLinksConfigurationTest {

    @TempDir
    Path directory;

    /** Two polled ports on two switches, and the base's pushed port-a. */
    private static final String LINKS = String.join("\n",
        "links:",
        "  - name: port-a",
        "  - name: sw1-p3",
        "    mib_source: snmp",
        "    snmp: { address: udp:127.0.0.1/16103, version: v2c, community_env: C, if_index: 3 }",
        "  - name: sw2-p1",
        "    mib_source: snmp",
        "    snmp: { address: udp:127.0.0.1/16104, version: v2c, community_env: C, if_index: 1 }");

    private static String withPath(final String pathLines) {
        return edit(BASE, "links:\n  - name: port-a", LINKS, "    link: port-a", pathLines);
    }

    @Test
    void aPathOfSeveralPolledPortsIsKeptInOrderWithItsBoundMethod() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "path.yaml",
            withPath("    links: [sw2-p1, sw1-p3]\n    path_bound: independent")));
        final ConnectionSpec spec = configuration.connectionSpecs().get(0);
        assertEquals(List.of("sw2-p1", "sw1-p3"), spec.linkNames());
        assertEquals(2, spec.hopCount());
        assertEquals(BoundMethod.INDEPENDENT, spec.pathBound());
        assertEquals("sw2-p1 → sw1-p3", spec.pathLabel());
    }

    @Test
    void theSingleLinkStaysValidAndTheUnionBoundIsTheDefault() throws Exception {
        final ConnectionSpec spec = ConfigurationLoader.load(ConfigFixture.write(directory, "one.yaml", BASE)).connectionSpecs().get(0);
        assertEquals(List.of("port-a"), spec.linkNames());
        assertEquals(BoundMethod.UNION, spec.pathBound());
    }

    @Test
    void linkAndLinksTogetherAreRefused() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "both.yaml",
            withPath("    link: port-a\n    links: [sw1-p3, sw2-p1]"));
        assertEquals("connections[0].links", fault.path());
        assertEquals("give either link (one switch port) or links (a path's ports in order), not both", fault.reason());
    }

    @Test
    void aPushedPortOnAPathOfSeveralIsRefusedNamingIt() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "pushed.yaml", withPath("    links: [sw1-p3, port-a]"));
        assertEquals("connections[0].links", fault.path());
        assertEquals("links[1]: link 'port-a' is pushed (mib_source: push), but each port of a path of several is polled:"
            + " PutMibUpdates carries one port value per connection", fault.reason());
    }

    @Test
    void anUnknownOrRepeatedPortIsRefused() throws Exception {
        assertEquals("unknown link 'sw9'; the links are port-a, sw1-p3, sw2-p1",
            ConfigFixture.onlyFault(directory, "unknown.yaml", withPath("    links: [sw1-p3, sw9]")).reason());
        assertEquals("links[1]: link 'sw1-p3' is already on the path: a path crosses a port once",
            ConfigFixture.onlyFault(directory, "twice.yaml", withPath("    links: [sw1-p3, sw1-p3]")).reason());
    }

    @Test
    void anEmptyPathAndAnUnknownMethodAreRefused() throws Exception {
        assertEquals("a path needs at least one link; without a switch port leave links out",
            ConfigFixture.onlyFault(directory, "empty.yaml", withPath("    links: []")).reason());
        final InputFault method = ConfigFixture.onlyFault(directory, "method.yaml",
            withPath("    links: [sw1-p3, sw2-p1]\n    path_bound: sum"));
        assertEquals("connections[0].path_bound", method.path());
    }
}
