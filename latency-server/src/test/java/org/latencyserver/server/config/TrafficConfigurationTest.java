package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** {@code connections[].traffic}: the application's traffic shape, optional, all four keys when present. */
class TrafficConfigurationTest {

    private static final String TRAFFIC = "    qos: 3\n    traffic:\n      spacing_micros: 2000\n      burst_round_trips: 50\n"
        + "      pause_millis: 1000\n      call: octets\n";

    @TempDir
    Path directory;

    @Test
    void aConnectionWithoutATrafficBlockDeclaresNoShape() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "base.yaml", BASE));
        assertEquals(Optional.empty(), configuration.connectionSpecs().get(0).traffic());
    }

    @Test
    void aDeclaredShapeIsRead() throws Exception {
        final String yaml = edit(BASE, "    qos: 3\n", TRAFFIC);
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "shape.yaml", yaml));
        assertEquals(Optional.of(new TrafficShape(2_000, 50, 1_000, CallKind.OCTETS)), configuration.connectionSpecs().get(0).traffic());
        final String arrays = edit(yaml, "call: octets", "call: arrays");
        assertEquals(CallKind.ARRAYS, ConfigurationLoader.load(ConfigFixture.write(directory, "arrays.yaml", arrays))
            .connectionSpecs().get(0).traffic().orElseThrow().call());
    }

    @Test
    void eachMissingKeyIsRefusedNamingTheConnectionAndTheKey() throws Exception {
        final String yaml = edit(edit(BASE, "    qos: 3\n", TRAFFIC), "      burst_round_trips: 50\n", "");
        final InputFault fault = ConfigFixture.onlyFault(directory, "noburst.yaml", yaml);
        assertEquals("connections[0].traffic.burst_round_trips", fault.path());
        assertTrue(fault.reason().startsWith("missing: connection " + indexRef() + ": traffic.burst_round_trips"), fault.reason());

        final String noCall = edit(edit(BASE, "    qos: 3\n", TRAFFIC), "      call: octets\n", "");
        final InputFault callFault = ConfigFixture.onlyFault(directory, "nocall.yaml", noCall);
        assertEquals("connections[0].traffic.call", callFault.path());
        assertTrue(callFault.reason().contains("octets or arrays"), callFault.reason());
    }

    @Test
    void eachValueOutOfItsRangeIsRefusedNamingTheConnectionTheKeyAndTheRange() throws Exception {
        final String yaml = edit(edit(edit(edit(BASE, "    qos: 3\n", TRAFFIC), "spacing_micros: 2000", "spacing_micros: 10"),
            "burst_round_trips: 50", "burst_round_trips: 0"), "pause_millis: 1000", "pause_millis: -1");
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "ranges.yaml", yaml);
        assertEquals(3, faults.size(), faults::toString);
        assertEquals("connections[0].traffic.spacing_micros", faults.get(0).path());
        assertTrue(faults.get(0).reason().contains("connection " + indexRef() + ": traffic.spacing_micros must be 50..60000000")
            && faults.get(0).reason().endsWith("was 10"), faults.get(0).reason());
        assertEquals("connections[0].traffic.burst_round_trips", faults.get(1).path());
        assertTrue(faults.get(1).reason().contains("was 0"), faults.get(1).reason());
        assertEquals("connections[0].traffic.pause_millis", faults.get(2).path());
    }

    @Test
    void anUnknownCallAnUnknownKeyOrABlockThatIsNoMappingIsRefused() throws Exception {
        final InputFault call = ConfigFixture.onlyFault(directory, "call.yaml",
            edit(edit(BASE, "    qos: 3\n", TRAFFIC), "call: octets", "call: bytes"));
        assertEquals("connections[0].traffic.call", call.path());
        assertTrue(call.reason().contains("'octets'") && call.reason().contains("'arrays'") && call.reason().contains("'bytes'"),
            call.reason());

        final InputFault unknown = ConfigFixture.onlyFault(directory, "unknown.yaml",
            edit(edit(BASE, "    qos: 3\n", TRAFFIC), "      call: octets\n", "      call: octets\n      jitter_micros: 5\n"));
        assertEquals("connections[0].traffic.jitter_micros", unknown.path());
        assertTrue(unknown.reason().startsWith("unknown key 'jitter_micros'"), unknown.reason());

        final InputFault scalar = ConfigFixture.onlyFault(directory, "scalar.yaml", edit(BASE, "    qos: 3\n", "    qos: 3\n    traffic: bursty\n"));
        assertEquals("connections[0].traffic", scalar.path());
    }

    private static String indexRef() {
        final int at = BASE.indexOf("index_ref: ") + "index_ref: ".length();
        return BASE.substring(at, BASE.indexOf('\n', at)).trim();
    }
}
