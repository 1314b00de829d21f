package org.latencyserver.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.benchmarks.stores.ComparedStore;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.RecordAccess;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/** Each store the comparison harness weighs gives back, in a fresh engine, the table as it acknowledged it. */
class ComparedStoresTest {

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(strings = {"journal", "sqlite", "mvstore", "mvstore-bg"})
    void aStoreRestoresEveryAcknowledgedChangeAndTheMeasuredRecordsWhole(final String name) throws Exception {
        final StoreWorkload testbed = StoreWorkload.testbed(work);
        final UpdateEngine engine = testbed.preparedEngine();
        final Path directory = Files.createDirectory(work.resolve(name));
        try (ComparedStore store = ComparedStore.named(name)) {
            store.open(directory, engine);
            for (long change = 1; change <= 20; change++) {
                testbed.uniqueChange(engine, change);
                store.acknowledge();
            }
        }
        final UpdateEngine restored = testbed.emptyEngine();
        assertEquals(6, ComparedStore.named(name).restore(directory, restored, testbed.maxHistogramBins()));
        final List<ConnectionRow> rows = restored.table().rows();
        for (final ConnectionRow row : rows) {
            long last = 20;
            while (testbed.uniqueChangeRef(last) != row.spec().indexRef()) {
                last--;
            }
            assertEquals(StoreWorkload.uniqueReading(last), row.latest(), "connection " + row.spec().indexRef());
        }
        // The measured connections' histograms came back: their records are as long as before.
        for (short ref = 4; ref <= 6; ref++) {
            assertTrue(RecordAccess.wholeRecord(restored.table().row(ref)).length > 20_000, "connection " + ref);
            assertEquals(RecordAccess.wholeRecord(engine.table().row(ref)).length, RecordAccess.wholeRecord(restored.table().row(ref)).length);
        }
        assertEquals(new MibReading((short) 20, (short) 0, (short) 0), StoreWorkload.uniqueReading(20));
    }
}
