package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.estimate.PathProfiles;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;

/**
 * A path's band probes are kept by its worst hop's band and which hops are loaded, so that a combined state that flaps
 * as a less loaded hop moves between bands still gathers enough round trips to be served.
 */
class PathBandProbesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final short BOUND = 2;
    private static final List<String> PATH = List.of("sw1-p3", "sw2-p1");
    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);

    private final AtomicLong epochMillis = new AtomicLong(1_000_000);

    private static ConnectionSpec spec() {
        return new ConnectionSpec(BOUND, "ws1", (short) 1, TYPE, "ws2", (short) 2, TYPE, PATH, 256, 2, 96, "paths",
            CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
    }

    private static BandProbes.Window window(final long atNanos) {
        final long[] counts = new long[15];
        counts[10] = 18;
        counts[14] = 2;
        return new BandProbes.Window(LatencyHistogram.uniform(MS, counts, 0), 10.9, atNanos, 1_000_000);
    }

    @Test
    void aPathsProbesAreKeptByItsWorstHopsBandAndWhichHopsAreLoaded() {
        final ConnectionSpec spec = spec();
        final BandProbesBook book = new BandProbesBook(List.of(ConnectionRow.initial(spec, 0)));
        book.add(spec, List.of(PortState.loaded(95), PortState.loaded(98)), window(SECOND));
        assertEquals(20, book.of(spec, List.of(PortState.loaded(98), PortState.loaded(95))).roundTrips(1_000_000),
            "the same worst band with both hops loaded: one probe state, whichever hop holds it");
        assertEquals(20, book.of(spec, List.of(PortState.loaded(98), PortState.loaded(98))).roundTrips(1_000_000));
        assertSame(BandProbes.EMPTY, book.of(spec, List.of(PortState.loaded(98), PortState.NORMAL)),
            "another set of loaded hops queues elsewhere");
        assertSame(BandProbes.EMPTY, book.of(spec, List.of(PortState.loaded(95), PortState.loaded(95))),
            "another worst band");
        assertSame(BandProbes.EMPTY, book.of(spec, List.of(PortState.SATURATED, PortState.loaded(98))));
        assertTrue(book.sameProbeState(spec, List.of(PortState.loaded(95), PortState.loaded(98)),
            List.of(PortState.loaded(98), PortState.loaded(95))));
        assertFalse(book.sameProbeState(spec, List.of(PortState.loaded(98), PortState.NORMAL),
            List.of(PortState.loaded(98), PortState.loaded(95))));
    }

    @Test
    void aProbeStateHeldAcrossChangesOfALessLoadedHopsBandIsHeldSinceItBegan() {
        final ConnectionSpec spec = spec();
        final BandProbesBook book = new BandProbesBook(List.of(ConnectionRow.initial(spec, 0)));
        final List<PortState> first = List.of(PortState.loaded(95), PortState.loaded(100));
        final List<PortState> second = List.of(PortState.loaded(98), PortState.loaded(100));
        assertFalse(book.heldSince(spec, first, 0), "never entered (as after a restart): not known to have held");
        book.entered(spec, first, SECOND);
        book.entered(spec, second, 3 * SECOND);
        assertTrue(book.heldSince(spec, second, 2 * SECOND), "the probe state began at 1 s");
        assertFalse(book.heldSince(spec, second, SECOND / 2));
        book.entered(spec, List.of(PortState.NORMAL, PortState.loaded(100)), 4 * SECOND);
        book.entered(spec, second, 5 * SECOND);
        assertFalse(book.heldSince(spec, second, 4 * SECOND + SECOND / 2), "left and entered again at 5 s");
    }

    @Test
    void probesOfAFlappingCombinedStateFillAndAreServed() {
        final Profile profile = PathProfiles.profile();
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec(), 0))),
            Map.of(profile.name(), profile), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0,
                PortBands.of(List.of(95, 98)), 0, MeasurementPacing.NONE, 1), new AtomicLong(1)::incrementAndGet, epochMillis::get);
        // Hop 2 at 100 %, hop 1 moving between the 91-95 and 96-98 bands every second: the combined state never holds 2 s.
        long now = SECOND;
        assertTrue(engine.applyPolledMib(BOUND, mib(95, 100), now));
        final long[] counts = new long[15];
        counts[10] = 18;
        counts[14] = 2;
        for (int i = 0; i < 12; i++) {
            now += SECOND;
            epochMillis.addAndGet(1_000);
            assertTrue(engine.applyPolledMib(BOUND, mib(i % 2 == 0 ? 97 : 95, 100), now));
            if (i % 2 == 1) {
                assertTrue(engine.submitProbe(BOUND, "ws1", LatencyHistogram.uniform(MS, counts, 0), 10.9, 2_000, now).accepted());
            }
        }
        final ConnectionRow row = engine.table().row(BOUND);
        assertNotEquals(row.learning().stateSinceNanos(), SECOND, "the combined state changed all along");
        assertEquals(EstimateSource.BAND_PROBES, row.served().source(), row.unavailableReason());
        assertTrue(row.estimate().basis().contains("120 round trips"), row.estimate().basis());
    }

    private static MibReading mib(final int hop1, final int hop2) {
        return new MibReading((short) 10, (short) 10, PortPercents.of(new short[] {(short) hop1, (short) hop2}));
    }
}
