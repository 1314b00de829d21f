package org.latencyserver.mirror;

/**
 * The torn-read tests' values: every field of a record is derived from one counter {@code n}, so
 * that a copy mixing two writes has fields that disagree. {@code src/test/c/mirror_torn_read_test.c}
 * implements the same rule (keep them equal).
 *
 * <pre>
 * index_ref = slot            qos = 1 + n % 4              kind = (n / 4) % 2
 * flags     = n % 16 (bit 0 has_estimate, 1 update_pending, 2 stale, 3 interpolated)
 * stale_reason = (n / 3) % 4  cpu_state = 10 × (1 + n % 3) + 1 + (n / 3) % 3
 * port_state = 0 if n % 12 == 10, −1 if n % 12 == 11, else 91 + n % 12
 * value_ms = n   interval_lower = n − 1   interval_upper = n + 1
 * bound_percent = 1 + n % 100 confidence_level = (n % 1000) / 1000.0
 * computed_epoch_millis = 2n  mirrored_epoch_millis = 3n
 * </pre>
 *
 * <p>Every record keeps {@link RecordCheck}'s rules, so an accepted copy reads {@code OK}.
 */
final class TornReadPattern {

    private TornReadPattern() {
    }

    /** Fills {@code record} with the values of counter {@code n} for {@code slot}. */
    static MirrorRecord fill(final MirrorRecord record, final int slot, final long n) {
        final int p = (int) (n % 12);
        return record.indexRef(slot)
            .qos((int) (1 + n % 4))
            .kind((int) ((n / 4) % 2))
            .hasEstimate((n & 1) != 0)
            .updatePending((n & 2) != 0)
            .stale((n & 4) != 0)
            .interpolated((n & 8) != 0)
            .staleReason((int) ((n / 3) % 4))
            .cpuState((int) (10 * (1 + n % 3) + 1 + (n / 3) % 3))
            .portState(p == 10 ? 0 : p == 11 ? -1 : 91 + p)
            .valueMillis(n)
            .intervalLower(n - 1)
            .intervalUpper(n + 1)
            .boundPercent(1 + n % 100)
            .confidenceLevel((n % 1000) / 1000.0)
            .computedEpochMillis(2 * n)
            .mirroredEpochMillis(3 * n);
    }

    /**
     * @return null if {@code record} is exactly the values of the counter its {@code valueMillis}
     *     names for {@code slot}, else a description of the first disagreement
     */
    static String inconsistency(final MirrorRecord record, final int slot, final MirrorRecord scratch) {
        final long n = (long) record.valueMillis();
        if (n < 0 || n != record.valueMillis()) {
            return "value_ms " + record.valueMillis() + " is not a counter: " + record;
        }
        fill(scratch, slot, n);
        if (!scratch.sameValues(record)) {
            return "torn record: expected " + scratch + " but read " + record;
        }
        return null;
    }
}
