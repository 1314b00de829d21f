package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.StaleInputs;

class LoadClassificationTest {

    private static final long SECOND = 1_000_000_000L;

    private final LoadClassification bands = new LoadClassification(new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000,
        30 * SECOND, 0, 2, 20, 20_000, 0, PortBands.of(List.of(95, 98)), 0, MeasurementPacing.NONE, 1));

    private static ConnectionRow row() {
        return ConnectionRow.initial(new ConnectionSpec((short) 1, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 1, 0, "p"), 0);
    }

    private static MibReading mib(final int client, final int peer, final int port) {
        return new MibReading((short) client, (short) peer, (short) port);
    }

    @Test
    void valuesReadAsTheLoadStateOfEachEndAndThePortsBand() {
        final var load = bands.loadOf(row(), mib(10, 80, 97));
        assertEquals(CpuState.LOW, load.cpu().client());
        assertEquals(CpuState.HIGH, load.cpu().peer());
        assertEquals(PortState.loaded(98), load.port(), "97 % lies in the 96-98 band, served as its upper edge");
        assertEquals(PortState.UNKNOWN, bands.loadOf(row(), mib(10, 80, -1)).port());
        assertEquals(PortState.NORMAL, bands.restored(mib(10, 10, 90)).port(), "90 % is not loaded");
    }

    @Test
    void aPointOfMovementPerEndIsNoiseButAnEndBecomingUnknownIsNot() {
        assertTrue(LoadClassification.withinJitter(mib(10, 20, 30), mib(11, 19, 30)));
        assertFalse(LoadClassification.withinJitter(mib(10, 20, 30), mib(12, 20, 30)));
        assertFalse(LoadClassification.withinJitter(mib(10, 20, 30), mib(10, -1, 30)));
        assertTrue(LoadClassification.withinJitter(mib(10, -1, 30), mib(10, -1, 31)));
    }

    @Test
    void theStaleReasonNamesTheUnknownValues() {
        assertEquals(StaleInputs.NONE, LoadClassification.staleInputs(row().spec(), mib(10, 20, 30)));
        assertEquals("client workstation CPU utilisation unknown", LoadClassification.staleInputs(row().spec(), mib(-1, 20, 30)).reason());
        assertEquals("CPU utilisation of both workstations unknown; switch port utilisation unknown",
            LoadClassification.staleInputs(row().spec(), mib(-1, -1, -1)).reason());
    }
}
