/*
 * The C reader (latency_mirror.h, layout version 1) against the Java writer: run by
 * CReaderAgainstJavaWriterTest while a Java thread rewrites records FIRST_SLOT.. as fast as it can.
 *
 *   mirror_torn_read_test PATH WRITER_PID FIRST_SLOT SLOT_COUNT DURATION_MS MAX_ACCEPTED_PER_THREAD
 *       Opens PATH; checks the header (writer pid, server link), the two fixed records the Java
 *       side wrote with known values (layout agreement), the statuses of an unwritten slot and of
 *       out-of-range index refs; then 2 threads read the rewritten slots until DURATION_MS or
 *       MAX_ACCEPTED_PER_THREAD accepted reads each, checking that every accepted copy is one
 *       write's values (TornReadPattern.java's rule) and that sequences never go back. Every 64th
 *       read also copies a record without the seqlock to show that unguarded copies do tear.
 *       Prints one line: accepted=N busy=B newer=U raw_torn=R raw_checked=C fixed_checked=F
 *       Exit 0 if every check passed, 1 (with the reason on stderr) if not, 2 on bad arguments.
 *
 *   mirror_torn_read_test --open-only PATH
 *       Prints "opened" and exits 0, or prints lm_open's message and exits 3.
 *
 *   mirror_torn_read_test --read-one PATH SLOT [TRUNCATE_TO]
 *       Opens PATH, truncates the file to TRUNCATE_TO bytes if given (under the mapping) and waits
 *       two LM_LENGTH_CHECK_PERIOD_NANOS, reads
 *       SLOT and prints "status=S alive=A link=L" (the lm_status, lm_alive, lm_server_link); exit 0,
 *       or 3 if lm_open fails.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_mirror.h"

#define READERS 2

static lm_mirror mirror;
static int first_slot;
static int slot_count;
static int64_t deadline_millis;
static long long max_accepted_per_thread;
static atomic_int failed;

typedef struct reader_result {
    long long accepted;
    long long busy;
    long long newer;
    long long raw_torn;
    long long raw_checked;
} reader_result;

static void fail(const char* what, int slot, const lm_record* r) {
    if (atomic_exchange(&failed, 1) == 0) {
        fprintf(stderr,
            "FAILED: %s (slot %d): sequence=%" PRId64 " index_ref=%d qos=%d kind=%d flags=%u stale_reason=%d cpu_state=%d"
            " port_state=%d value_ms=%.17g interval=[%.17g, %.17g] bound_percent=%.17g confidence_level=%.17g"
            " computed=%" PRId64 " mirrored=%" PRId64 "\n",
            what, slot, r->sequence, r->index_ref, r->qos, r->kind, r->flags, r->stale_reason, r->cpu_state,
            r->port_state, r->value_ms, r->interval_lower, r->interval_upper, r->bound_percent, r->confidence_level,
            r->computed_epoch_millis, r->mirrored_epoch_millis);
    }
}

/* TornReadPattern.java: every field of a write is derived from one counter n (value_ms). */
static int consistent(const lm_record* r, int slot) {
    const int64_t n = (int64_t)r->value_ms;
    if (n < 0 || (double)n != r->value_ms) {
        return 0;
    }
    const int p = (int)(n % 12);
    return r->index_ref == slot
        && r->qos == (int)(1 + n % 4)
        && r->kind == (int)((n / 4) % 2)
        && r->flags == (unsigned)(n % 16)
        && r->stale_reason == (int)((n / 3) % 4)
        && r->cpu_state == (int)(10 * (1 + n % 3) + 1 + (n / 3) % 3)
        && r->port_state == (p == 10 ? 0 : p == 11 ? -1 : 91 + p)
        && r->interval_lower == (double)(n - 1)
        && r->interval_upper == (double)(n + 1)
        && r->bound_percent == (double)(1 + n % 100)
        && r->confidence_level == (double)(n % 1000) / 1000.0
        && r->computed_epoch_millis == 2 * n
        && r->mirrored_epoch_millis == 3 * n;
}

/* A copy without the seqlock: what a reader that ignores the sequence would see. */
static void raw_copy(int slot, lm_record* out) {
    const unsigned char* r = mirror.base + LM_HEADER_BYTES + (size_t)slot * LM_RECORD_BYTES;
    out->sequence = lm_load_i64(r + LM_SEQUENCE_OFFSET, __ATOMIC_RELAXED);
    out->index_ref = lm_load_i16(r + LM_INDEX_REF_OFFSET);
    out->qos = (int8_t)lm_load_u8(r + LM_QOS_OFFSET);
    out->kind = (int8_t)lm_load_u8(r + LM_KIND_OFFSET);
    out->flags = lm_load_u8(r + LM_FLAGS_OFFSET);
    out->stale_reason = lm_load_u8(r + LM_STALE_REASON_OFFSET);
    out->cpu_state = lm_load_i16(r + LM_CPU_STATE_OFFSET);
    out->port_state = lm_load_i16(r + LM_PORT_STATE_OFFSET);
    out->value_ms = lm_load_f64(r + LM_VALUE_MS_OFFSET);
    out->interval_lower = lm_load_f64(r + LM_INTERVAL_LOWER_OFFSET);
    out->interval_upper = lm_load_f64(r + LM_INTERVAL_UPPER_OFFSET);
    out->bound_percent = lm_load_f64(r + LM_BOUND_PERCENT_OFFSET);
    out->confidence_level = lm_load_f64(r + LM_CONFIDENCE_LEVEL_OFFSET);
    out->computed_epoch_millis = lm_load_i64(r + LM_COMPUTED_EPOCH_MILLIS_OFFSET, __ATOMIC_RELAXED);
    out->mirrored_epoch_millis = lm_load_i64(r + LM_MIRRORED_EPOCH_MILLIS_OFFSET, __ATOMIC_RELAXED);
}

static void* read_records(void* arg) {
    reader_result* result = (reader_result*)arg;
    int64_t last_sequence[64] = {0};
    int64_t last_counter[64] = {0};
    lm_record record;
    long long reads = 0;
    while (result->accepted < max_accepted_per_thread && !atomic_load_explicit(&failed, memory_order_relaxed)) {
        if ((reads & 4095) == 0 && lm_now_epoch_millis() > deadline_millis) {
            break;
        }
        const int i = (int)(reads++ % slot_count);
        const int slot = first_slot + i;
        if ((reads & 63) == 0) {
            raw_copy(slot, &record);
            result->raw_checked++;
            if (!consistent(&record, slot)) {
                result->raw_torn++;
            }
        }
        const lm_status status = lm_read(&mirror, slot, &record);
        if (status == LM_BUSY) {
            result->busy++;
            continue;
        }
        if (status != LM_OK) {
            fail(status == LM_MIRROR_DEAD ? "LM_MIRROR_DEAD" : "unexpected status", slot, &record);
            break;
        }
        result->accepted++;
        if (!consistent(&record, slot)) {
            fail("torn record accepted", slot, &record);
            break;
        }
        const int64_t counter = (int64_t)record.value_ms;
        if ((record.sequence & 1) != 0 || record.sequence < last_sequence[i] || counter < last_counter[i]) {
            fail("sequence went back", slot, &record);
            break;
        }
        if (record.sequence != last_sequence[i]) {
            result->newer++;
        }
        last_sequence[i] = record.sequence;
        last_counter[i] = counter;
    }
    return NULL;
}

/* EstimateMirrorTest.boundRecord() and averageRecord(): written by the Java side before the run. */
static int check_fixed_records(void) {
    lm_record r;
    lm_status status = lm_read(&mirror, 12345, &r);
    if (status != LM_OK) {
        fprintf(stderr, "FAILED: fixed record 12345 read status %d\n", (int)status);
        return 0;
    }
    if (!(r.sequence == 2 && r.index_ref == 12345 && r.qos == 4 && r.kind == LM_KIND_BOUND
            && r.flags == (LM_FLAG_HAS_ESTIMATE | LM_FLAG_STALE | LM_FLAG_INTERPOLATED)
            && r.stale_reason == LM_STALE_INPUT_SILENT && r.cpu_state == 23 && r.port_state == 95
            && r.value_ms == 12.625 && r.interval_lower == 94.5 && r.interval_upper == 97.25
            && r.bound_percent == 96.0 && r.confidence_level == 0.95
            && r.computed_epoch_millis == INT64_C(1700000000123) && r.mirrored_epoch_millis == INT64_C(1700000000456))) {
        fail("fixed record 12345 differs from what Java wrote", 12345, &r);
        return 0;
    }
    status = lm_read(&mirror, LM_MAX_INDEX_REF, &r);
    if (status != LM_OK) {
        fprintf(stderr, "FAILED: fixed record 32767 read status %d\n", (int)status);
        return 0;
    }
    if (!(r.sequence == 2 && r.index_ref == 32767 && r.qos == 1 && r.kind == LM_KIND_AVERAGE
            && r.flags == LM_FLAG_UPDATE_PENDING && r.stale_reason == LM_STALE_NO_ESTIMATE && r.cpu_state == 0
            && r.port_state == -1 && r.value_ms == -0.5 && r.interval_lower == -1.25
            && r.interval_upper == 1.7976931348623157e308 && r.bound_percent == 0.0 && r.confidence_level == 0.99
            && r.computed_epoch_millis == -7 && r.mirrored_epoch_millis == INT64_MAX)) {
        fail("fixed record 32767 differs from what Java wrote", 32767, &r);
        return 0;
    }
    return 2;
}

/* --read-one: one read of a prepared (or, here, truncated) file. */
static int read_one(const char* path, int slot, const char* truncate_to) {
    char error[512];
    if (lm_open(path, &mirror, error, sizeof error) != 0) {
        printf("%s\n", error);
        return 3;
    }
    if (truncate_to != NULL && truncate(path, (off_t)strtoll(truncate_to, NULL, 10)) != 0) {
        perror("truncate");
        return 1;
    }
    if (truncate_to != NULL) {
        const struct timespec period = {0, 2 * LM_LENGTH_CHECK_PERIOD_NANOS}; /* lm_read measures the length again */
        nanosleep(&period, NULL);
    }
    lm_record record;
    const lm_status status = lm_read(&mirror, slot, &record);
    printf("status=%d alive=%d link=%d\n", (int)status, lm_alive(&mirror), lm_server_link(&mirror));
    lm_close(&mirror);
    return 0;
}

int main(int argc, char** argv) {
    char error[512];
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "--read-one") == 0) {
        return read_one(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
    }
    if (argc == 3 && strcmp(argv[1], "--open-only") == 0) {
        if (lm_open(argv[2], &mirror, error, sizeof error) != 0) {
            printf("%s\n", error);
            return 3;
        }
        printf("opened\n");
        lm_close(&mirror);
        return 0;
    }
    if (argc != 7) {
        fprintf(stderr, "usage: %s PATH WRITER_PID FIRST_SLOT SLOT_COUNT DURATION_MS MAX_ACCEPTED_PER_THREAD\n"
            "       %s --open-only PATH\n", argv[0], argv[0]);
        return 2;
    }
    const int64_t writer_pid = strtoll(argv[2], NULL, 10);
    first_slot = atoi(argv[3]);
    slot_count = atoi(argv[4]);
    const long long duration_millis = strtoll(argv[5], NULL, 10);
    max_accepted_per_thread = strtoll(argv[6], NULL, 10);
    if (slot_count < 1 || slot_count > 64 || first_slot < 1 || first_slot + slot_count > 12345) {
        fprintf(stderr, "FIRST_SLOT and SLOT_COUNT must name 1..64 slots from 1 below 12345\n");
        return 2;
    }
    if (lm_open(argv[1], &mirror, error, sizeof error) != 0) {
        fprintf(stderr, "FAILED: %s\n", error);
        return 1;
    }
    if (mirror.writer_pid != writer_pid) {
        fprintf(stderr, "FAILED: writer_pid %" PRId64 ", expected %" PRId64 "\n", mirror.writer_pid, writer_pid);
        return 1;
    }
    if (lm_server_link(&mirror) != LM_SERVER_LINK_POLLING
            || lm_server_contact_epoch_millis(&mirror) != INT64_C(1700000000789)) {
        fprintf(stderr, "FAILED: server link %d contact %" PRId64 ", expected 1 and 1700000000789\n",
            lm_server_link(&mirror), lm_server_contact_epoch_millis(&mirror));
        return 1;
    }
    if (!lm_alive(&mirror)) {
        fprintf(stderr, "FAILED: heartbeat is %" PRId64 " ms old\n", lm_heartbeat_age_millis(&mirror));
        return 1;
    }
    lm_record unused;
    if (lm_read(&mirror, 0, &unused) != LM_NOT_MIRRORED || lm_read(&mirror, -1, &unused) != LM_INVALID
            || lm_read(&mirror, 32768, &unused) != LM_INVALID) {
        fprintf(stderr, "FAILED: slot 0 is not LM_NOT_MIRRORED or an index_ref out of range is not LM_INVALID\n");
        return 1;
    }
    const int fixed_checked = check_fixed_records();
    if (fixed_checked != 2) {
        return 1;
    }

    deadline_millis = lm_now_epoch_millis() + duration_millis;
    pthread_t threads[READERS];
    reader_result results[READERS];
    memset(results, 0, sizeof results);
    for (int t = 0; t < READERS; t++) {
        if (pthread_create(&threads[t], NULL, read_records, &results[t]) != 0) {
            fprintf(stderr, "FAILED: pthread_create\n");
            return 1;
        }
    }
    reader_result total = {0, 0, 0, 0, 0};
    for (int t = 0; t < READERS; t++) {
        pthread_join(threads[t], NULL);
        total.accepted += results[t].accepted;
        total.busy += results[t].busy;
        total.newer += results[t].newer;
        total.raw_torn += results[t].raw_torn;
        total.raw_checked += results[t].raw_checked;
    }
    printf("accepted=%lld busy=%lld newer=%lld raw_torn=%lld raw_checked=%lld fixed_checked=%d\n", total.accepted,
        total.busy, total.newer, total.raw_torn, total.raw_checked, fixed_checked);
    fflush(stdout);
    lm_close(&mirror);
    return atomic_load(&failed) ? 1 : 0;
}
