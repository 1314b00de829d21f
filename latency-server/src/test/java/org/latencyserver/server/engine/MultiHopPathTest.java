package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.PathProfiles;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;
import org.latencyserver.server.table.StaleInputs;

/**
 * A connection whose path crosses two switch ports: each hop has its own state, a change of either is a state change,
 * the thesis's port state is the worst hop, a QoS 2 bound with both hops loaded is composed and says by which method,
 * and an unknown hop makes the estimate stale with the hop named.
 */
class MultiHopPathTest {

    private static final long SECOND = 1_000_000_000L;
    private static final short BOUND = 2;
    private static final short MEAN = 1;
    private static final List<String> PATH = List.of("sw1-p3", "sw2-p1");

    private final AtomicLong tickets = new AtomicLong(1);
    private final AtomicLong epochMillis = new AtomicLong(1_000_000);

    private UpdateEngine engine(final BoundMethod method) {
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        final ConnectionSpec bound = new ConnectionSpec(BOUND, "ws1", (short) 1, type, "ws2", (short) 2, type, PATH, 256, 2, 96,
            "paths", CalibrationMode.THESIS, 0.0, method);
        final ConnectionSpec mean = new ConnectionSpec(MEAN, "ws1", (short) 1, type, "ws2", (short) 2, type, PATH, 256, 1, 0,
            "paths", CalibrationMode.THESIS, 0.0, method);
        final Profile profile = PathProfiles.profile();
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(bound, 0), ConnectionRow.initial(mean, 0))),
            Map.of(profile.name(), profile), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20,
                20_000, 0, PortBands.of(List.of(95, 98)), 0, MeasurementPacing.NONE, 1), tickets::incrementAndGet,
            epochMillis::get);
    }

    private static MibReading mib(final int... ports) {
        final short[] percents = new short[ports.length];
        for (int i = 0; i < ports.length; i++) {
            percents[i] = (short) ports[i];
        }
        return new MibReading((short) 10, (short) 10, PortPercents.of(percents));
    }

    private static void poll(final UpdateEngine engine, final MibReading reading, final long nowNanos) {
        for (final short indexRef : new short[] {BOUND, MEAN}) {
            assertTrue(engine.applyPolledMib(indexRef, reading, nowNanos));
        }
    }

    @Test
    void eachHopHasItsOwnStateAndTheThesisPortStateIsTheWorst() {
        final UpdateEngine engine = engine(BoundMethod.UNION);
        poll(engine, mib(95, 50), SECOND);
        final ConnectionRow row = engine.table().row(BOUND);
        assertEquals(List.of(PortState.loaded(95), PortState.NORMAL), row.load().hops());
        assertEquals(PortState.loaded(95), row.load().port());
        assertEquals(95, row.latest().portPercent(), "the thesis's one port value is the worst hop's");
        poll(engine, mib(95, 97), 2 * SECOND);
        assertEquals(PortState.loaded(98), engine.table().row(BOUND).load().port(), "97 % lies in the band up to 98 %");
        poll(engine, mib(50, 97), 3 * SECOND);
        assertEquals(PortState.loaded(98), engine.table().row(BOUND).load().port(), "the worst hop is the same");
        assertTrue(engine.table().row(BOUND).load().isStateChangeFrom(row.load()), "yet another hop moved: a new state");
    }

    @Test
    void oneLoadedHopServesThatHopsCellAndTwoAreComposedByTheConfiguredMethod() {
        final UpdateEngine union = engine(BoundMethod.UNION);
        poll(union, mib(95, 50), SECOND);
        assertEquals(19.6, union.table().row(BOUND).estimate().valueMillis(), 1e-9, "the 91-95 % cell's 96 % bound");
        assertNull(union.table().row(BOUND).served().composed(), "nothing composed with one loaded hop");

        poll(union, mib(95, 97), 2 * SECOND);
        final ConnectionRow composed = union.table().row(BOUND);
        assertNotNull(composed.estimate(), composed.unavailableReason());
        assertEquals(19.8 + 28.9, composed.estimate().valueMillis(), 1e-9, "each part at its 98 % share, summed");
        assertEquals(BoundMethod.UNION, composed.served().composed().served());
        assertTrue(composed.served().composed().independentMillis() > 0
            && composed.served().composed().independentMillis() < composed.served().composed().unionMillis());

        final UpdateEngine independent = engine(BoundMethod.INDEPENDENT);
        poll(independent, mib(95, 97), SECOND);
        final ConnectionRow tighter = independent.table().row(BOUND);
        assertEquals(BoundMethod.INDEPENDENT, tighter.served().composed().served());
        assertEquals(tighter.served().composed().independentMillis(), tighter.estimate().valueMillis(), 1e-9);
        assertTrue(tighter.estimate().basis().endsWith("composed by independent hops"), tighter.estimate().basis());

        // QoS 1: the first loaded hop's cell mean plus what the second queue adds over the idle cell.
        assertEquals(15.05 + 24.05, union.table().row(MEAN).estimate().valueMillis(), 1e-9);
    }

    @Test
    void anUnknownHopMakesTheEstimateStaleNamingItAndSaysWhatWasAssumedUntilItReturns() {
        final UpdateEngine engine = engine(BoundMethod.UNION);
        poll(engine, mib(95, 97), SECOND);
        final double served = engine.table().row(BOUND).estimate().valueMillis();
        poll(engine, mib(95, -1), 2 * SECOND);
        final ConnectionRow stale = engine.table().row(BOUND);
        assertTrue(stale.staleInputs().contains(StaleInputs.Input.PORT));
        assertEquals(List.of("sw2-p1"), stale.staleInputs().unknownPorts());
        assertEquals("switch port utilisation unknown at hop sw2-p1", stale.staleInputs().reason());
        assertEquals(PortState.UNKNOWN, stale.load().port(), "the thesis's port state: not known");
        assertEquals(19.6, stale.estimate().valueMillis(), 1e-9, "the known loaded hop alone, the unknown one taken as idle");
        assertTrue(stale.estimate().notes().contains("hop 2 of the path not observed: taken as at or below its loaded threshold"),
            stale.estimate().notes().toString());

        poll(engine, mib(95, 97), 3 * SECOND);
        assertFalse(engine.table().row(BOUND).staleInputs().isStale());
        assertEquals(served, engine.table().row(BOUND).estimate().valueMillis());
    }
}
