package org.latencyserver.agent.measure;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Reads the total collection time this JVM's garbage collectors report, so that a run can say how
 * much of its own JVM's GC overlapped it: a pause of the measuring JVM lengthens every round trip
 * it is timing, so a measurer that pauses measures itself, not the path.
 *
 * <p>The collectors report milliseconds, so an overlap below 1 ms may read as 0. Thread-safe.
 */
final class GcPauseMeter {

    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();

    /** @return the summed collection time of every collector so far, ns */
    long totalCollectionNanos() {
        long millis = 0;
        for (int i = 0; i < collectors.size(); i++) { // indexed: no iterator allocated
            final long time = collectors.get(i).getCollectionTime();
            if (time > 0) {
                millis += time;
            }
        }
        return millis * 1_000_000L;
    }
}
