package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When the writer compacts, forces and appends readings: the thresholds at their edges. */
class SavePolicyTest {

    private static final long MS = 1_000_000L;

    @Test
    void aJournalIsCompactedOnceItHoldsTheLeastAndAsMuchAsTheStateFile() {
        final SavePolicy policy = new SavePolicy(1_000);
        assertFalse(policy.compactionDue(999, 10));
        assertTrue(policy.compactionDue(1_000, 10));
        assertFalse(policy.compactionDue(4_999, 5_000), "a state file is paid for by as many bytes of journal");
        assertTrue(policy.compactionDue(5_000, 5_000));
    }

    @Test
    void theJournalIsForcedAndReadingsAppendedOnceTheirIntervalsPassed() {
        final SavePolicy policy = new SavePolicy(SavePolicy.COMPACT_JOURNAL_MIN_BYTES);
        final long start = 7 * MS;
        assertFalse(policy.forceDue(start + SavePolicy.JOURNAL_FORCE_INTERVAL_MILLIS * MS - 1, start));
        assertTrue(policy.forceDue(start + SavePolicy.JOURNAL_FORCE_INTERVAL_MILLIS * MS, start));
        assertFalse(policy.readingsDue(start + SavePolicy.READINGS_SAVE_INTERVAL_MILLIS * MS - 1, start));
        assertTrue(policy.readingsDue(start + SavePolicy.READINGS_SAVE_INTERVAL_MILLIS * MS, start));
    }
}
