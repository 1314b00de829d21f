package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;

class MeasurementSchedulerTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong tickets = new AtomicLong(100);
    private final ConnectionTable table = new ConnectionTable(List.of(row(3, "ws1"), row(4, "ws1"), row(5, "ws3")));
    private final MeasurementScheduler scheduler = new MeasurementScheduler(table, new EngineSettings(CpuThresholds.DEFAULT, 1.0,
        1000, 30 * SECOND, 0, 2, 20, 20_000, 0, PortBands.THESIS, 0, MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 7L);

    private static ConnectionRow row(final int indexRef, final String client) {
        return ConnectionRow.initial(new ConnectionSpec((short) indexRef, client, (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 3, 0, null), 0);
    }

    private void publish(final ConnectionRow before, final ConnectionRow after) {
        scheduler.track(table.row(after.spec().indexRef()), after);
        table.publish(after.withNextVersion(7));
    }

    private ConnectionRow get(final int indexRef) {
        return table.row((short) indexRef);
    }

    private void request(final int indexRef, final long nowNanos) {
        publish(get(indexRef), scheduler.request(get(indexRef), nowNanos));
    }

    @Test
    void aSecondRequestOfOneClientWorkstationWaitsDueAndOpensWhenTheFirstCloses() {
        request(3, 0);
        request(4, 0);
        request(5, 0);
        assertNotNull(get(3).pending());
        assertNull(get(4).pending(), "ws1's agent measures one at a time");
        assertNotEquals(ConnectionRow.NOT_DUE, get(4).measurementDueNanos());
        assertNotNull(get(5).pending(), "another workstation's request takes the second slot");
        assertEquals(0, scheduler.tick(SECOND, this::publish));
        publish(get(3), get(3).withMeasurementRequest(null, ConnectionRow.NOT_DUE, 0));
        assertEquals(1, scheduler.tick(2 * SECOND, this::publish));
        assertNotNull(get(4).pending());
    }

    @Test
    void aRequestPastItsDeadlineIsReissuedWithANewTicket() {
        request(3, 0);
        final long first = get(3).pending().ticket();
        assertEquals(0, scheduler.tick(30 * SECOND, this::publish), "at the deadline, not past it");
        assertEquals(1, scheduler.tick(30 * SECOND + 1, this::publish));
        assertNotEquals(first, get(3).pending().ticket());
        assertEquals(2, get(3).pending().attempt());
    }
}
