package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DistinctErrorLogTest {

    private final AtomicLong epochMillis = new AtomicLong(1_000);
    private final DistinctErrorLog log = new DistinctErrorLog("test", epochMillis::get, Duration.ofSeconds(60));

    private static RuntimeException thrownAt(final int site, final String message) {
        // Each site is its own line, so its top frame differs.
        if (site == 1) {
            return new IllegalStateException(message);
        }
        return new IllegalStateException(message);
    }

    @Test
    void theSameErrorIsFirstOnceAndThenOnlyCounted() {
        final IllegalStateException one = new IllegalStateException("disk full");
        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(one));
        epochMillis.set(2_000);
        assertEquals(DistinctErrorLog.Recorded.COUNTED, log.record(one));
        epochMillis.set(3_000);
        assertEquals(DistinctErrorLog.Recorded.COUNTED, log.record(one));

        final List<ErrorCount> counts = log.snapshot();
        assertEquals(1, counts.size());
        assertEquals(3, counts.get(0).count());
        assertEquals(1_000, counts.get(0).firstEpochMillis());
        assertEquals(3_000, counts.get(0).lastEpochMillis());
        assertEquals(3, log.totalCount());
        assertEquals(1, log.distinctCount());
    }

    @Test
    void classMessageAndTopFrameEachMakeADistinctError() {
        final RuntimeException base = thrownAt(1, "a");
        final RuntimeException otherMessage = thrownAt(1, "b");
        final RuntimeException otherSite = thrownAt(2, "a");
        final RuntimeException otherClass = new IllegalArgumentException("a");
        assertEquals(ErrorKey.of(base), ErrorKey.of(thrownAt(1, "a")));
        assertNotEquals(ErrorKey.of(base), ErrorKey.of(otherSite));

        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(base));
        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(otherMessage));
        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(otherSite));
        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(otherClass));
        assertEquals(DistinctErrorLog.Recorded.COUNTED, log.record(thrownAt(1, "a")));

        assertEquals(4, log.distinctCount());
        assertEquals(5, log.totalCount());
        assertEquals(2, log.count(ErrorKey.of(base)));
        assertEquals(1, log.count(ErrorKey.of(otherClass)));
    }

    @Test
    void aRepeatIsSummarisedAtMostOncePerSummaryInterval() {
        final IllegalStateException one = new IllegalStateException("timeout");
        assertEquals(DistinctErrorLog.Recorded.FIRST_LOGGED, log.record(one));
        epochMillis.set(1_000 + 59_999);
        assertEquals(DistinctErrorLog.Recorded.COUNTED, log.record(one));
        epochMillis.set(1_000 + 60_000);
        assertEquals(DistinctErrorLog.Recorded.SUMMARISED, log.record(one));
        epochMillis.set(1_000 + 60_000 + 59_999);
        assertEquals(DistinctErrorLog.Recorded.COUNTED, log.record(one));
        epochMillis.set(1_000 + 120_000);
        assertEquals(DistinctErrorLog.Recorded.SUMMARISED, log.record(one));
        assertEquals(5, log.snapshot().get(0).count());
    }

    @Test
    void anErrorWithoutMessageOrStackHasAnEmptyKeyPart() {
        final RuntimeException bare = new RuntimeException((String) null);
        bare.setStackTrace(new StackTraceElement[0]);
        final ErrorKey key = ErrorKey.of(bare);
        assertEquals("", key.message());
        assertEquals("", key.topFrame());
        assertEquals("java.lang.RuntimeException", key.toString());
    }

    @Test
    void theSnapshotIsImmutableAndDoesNotFollowLaterRecords() {
        final IllegalStateException one = new IllegalStateException("x");
        log.record(one);
        final List<ErrorCount> before = log.snapshot();
        log.record(one);
        assertEquals(1, before.get(0).count());
        assertEquals(2, log.snapshot().get(0).count());
        org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, () -> before.add(null));
    }

    @Test
    void errorsWhoseMessagesCarryValuesStayBoundedAndAreStillCounted() {
        final DistinctErrorLog log = new DistinctErrorLog("test-bounded", () -> 0L, Duration.ofSeconds(60));
        final int thrown = DistinctErrorLog.MAX_DISTINCT_MESSAGES * 4;
        for (int i = 0; i < thrown; i++) {
            log.record(new IllegalStateException("connection " + i + " failed"));
        }
        assertEquals(thrown, log.totalCount(), "every occurrence is counted");
        assertEquals(DistinctErrorLog.MAX_DISTINCT_MESSAGES + 1, log.distinctCount(),
            "the first distinct messages, then one key for the rest of that class and frame");
    }
}
