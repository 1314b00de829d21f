package org.latencyserver.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairPlacementTest {

    @TempDir
    Path directory;

    @Test
    void aTestbedsStatusPutsEachProcessOnItsHostWithItsNamespaceAndAddress() throws IOException {
        final Path status = directory.resolve("status.json");
        final StringBuilder hosts = new StringBuilder();
        for (int i = 0; i < StandbyPairTestbed.HOSTS.size(); i++) {
            final String host = StandbyPairTestbed.HOSTS.get(i);
            hosts.append(i == 0 ? "" : ",").append("{\"name\":\"").append(host).append("\",\"namespace\":\"lt-kt-").append(host)
                .append("\",\"address\":\"198.18.0.").append(i + 1).append("\"}");
        }
        Files.writeString(status, "{\"testbed\":\"kt\",\"hosts\":[" + hosts + "]}");

        final PairPlacement place = PairPlacement.onTestbed(status, new int[] {7800, 7801});

        assertEquals(new PairPlacement.Host("198.18.0.1", "lt-kt-nsh"), place.naming());
        assertEquals(new PairPlacement.Host("198.18.0.2", "lt-kt-pa"), place.serverA());
        assertEquals(new PairPlacement.Host("198.18.0.3", "lt-kt-pb"), place.serverB());
        assertEquals(new PairPlacement.Host("198.18.0.4", "lt-kt-ws1"), place.workstation());
        assertEquals(new PairPlacement.Host("198.18.0.5", "lt-kt-ws2"), place.peer());
        assertEquals(7800, place.replicationPortA());
        assertEquals(7801, place.replicationPortB());
        assertTrue(place.description().startsWith("testbed kt: naming service on nsh (198.18.0.1)"), place.description());
    }

    @Test
    void aStatusWithoutOneOfTheHostsIsRefusedNamingIt() throws IOException {
        final Path status = directory.resolve("status.json");
        Files.writeString(status, "{\"testbed\":\"kt\",\"hosts\":[{\"name\":\"nsh\",\"namespace\":\"lt-kt-nsh\",\"address\":\"198.18.0.1\"}]}");

        final IOException e = assertThrows(IOException.class, () -> PairPlacement.onTestbed(status, new int[] {7800, 7801}));

        assertTrue(e.getMessage().contains("no host pa"), e.getMessage());
    }

    @Test
    void onLoopbackEverythingListensOn127001InThisNamespaceWithReplicationPortsNot100Apart() {
        final PairPlacement place = PairPlacement.loopback();

        assertEquals("127.0.0.1", place.serverA().address());
        assertNull(place.workstation().namespace());
        assertTrue(Math.abs(place.replicationPortA() - place.replicationPortB()) != 100
            && place.replicationPortA() != place.replicationPortB());
    }

    @Test
    void theTopologyPutsTheFiveHostsOnOneSwitchIn198180024() {
        final String topology = new StandbyPairTestbed("kt", new int[] {7800, 7801}, directory).topology();

        assertTrue(topology.startsWith("name: kt\n"), topology);
        assertTrue(topology.contains("{ name: nsh, switch: sw1, address: 198.18.0.1/24 }"), topology);
        assertTrue(topology.contains("{ name: ws2, switch: sw1, address: 198.18.0.5/24 }"), topology);
        assertTrue(topology.contains("management_address: 198.18.0.254/24"), topology);
    }
}
