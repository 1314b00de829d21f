package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;
import org.latencyserver.testkit.MetricsText;

class CounterFamilyTest {

    @Test
    void aCounterIsExposedUnderTheNameItWasGivenAndNeedsTheTotalSuffix() {
        final CounterFamily family = new CounterFamily("test_things_total", "things", "kind");
        family.add(3, "a");
        family.add(4, "b");
        final MetricsText page = CollectorScrape.of(() -> MetricSnapshots.of(family.build()));
        assertEquals(3, page.get("test_things_total", "kind", "a"));
        assertEquals(4, page.get("test_things_total", "kind", "b"));
        assertEquals("counter", page.types().get("test_things_total"));
        assertThrows(IllegalArgumentException.class, () -> new CounterFamily("test_things", "things"));
    }
}
