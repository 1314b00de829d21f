package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import org.junit.jupiter.api.Test;
import org.latencyserver.testkit.MetricsText;

class GaugeFamilyTest {

    @Test
    void aFamilyWithSeriesIsServedAndOneWithoutIsLeftOff() {
        final GaugeFamily filled = new GaugeFamily("test_wait_seconds", Unit.SECONDS, "waits", "who", "what");
        filled.add(0.25, "a", "b");
        final GaugeFamily empty = new GaugeFamily("test_nothing", null, "nothing", "who");
        final MetricsText page = CollectorScrape.of(() -> MetricSnapshots.of(filled.build(), empty.build()));
        assertEquals(0.25, page.get("test_wait_seconds", "who", "a", "what", "b"));
        assertEquals("gauge", page.types().get("test_wait_seconds"));
        assertFalse(page.types().containsKey("test_nothing"), page::toString);
    }
}
