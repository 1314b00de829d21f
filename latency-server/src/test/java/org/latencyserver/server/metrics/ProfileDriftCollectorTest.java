package org.latencyserver.server.metrics;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.engine.EngineQuery;

class ProfileDriftCollectorTest {

    @TempDir
    Path directory;

    @Test
    void aProbedProfileCellIsOneSeriesLabelledWithItsProfileAndCell() throws Exception {
        final MetricsEngineFixture fixture = MetricsEngineFixture.in(directory);
        final ProfileDriftCollector collector = new ProfileDriftCollector(fixture.loop.query()::profileDrifts);
        assertTrue(CollectorScrape.of(collector).samples("latency_server_profile_cell_drifting").isEmpty(), "nothing probed yet");
        fixture.push(1, 50, 50, 10, 1_000_000_000L);
        fixture.engine.submitProbe((short) 1, "ws1", LatencyHistogram.of(new long[] {2_000_000, 4_000_000}, new long[] {7, 2}, 1),
            2.5, 10, ProbeShapes.CLASSIC, 2_000_000_000L);
        final List<EngineQuery.CellDrift> drifts = fixture.loop.query().profileDrifts();
        assertEquals(1, drifts.size(), drifts::toString);
        final var samples = CollectorScrape.of(collector).samples("latency_server_profile_cell_drifting");
        assertEquals(1, samples.size());
        assertEquals(drifts.get(0).verdict().drifting() ? 1 : 0, samples.get(0).value());
        assertEquals("thesis-tac4-corba", samples.get(0).labels().get("profile"));
        assertEquals(drifts.get(0).cell().label(), samples.get(0).labels().get("cell"));
    }
}
