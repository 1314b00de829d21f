/*
 * latency_mirror.h: read the Latency Server's estimate mirror file, layout version 1
 * (docs/mirror-layout.md, the contract; the Java side is org.latencyserver.mirror in
 * latency-mirror). Header-only: every function is static inline.
 *
 * C11 with GCC/Clang __atomic builtins; POSIX only (open, fstat, mmap, munmap, close,
 * clock_gettime). With -std=c11 define _POSIX_C_SOURCE 200809L (or _GNU_SOURCE) before any
 * #include, as this header needs CLOCK_REALTIME and O_CLOEXEC.
 *
 * Usage:
 *     lm_mirror mirror;
 *     char error[256];
 *     if (lm_open("/dev/shm/latency-mirror", &mirror, error, sizeof error) != 0) { puts(error); ... }
 *     lm_record record;
 *     if (lm_read(&mirror, 7, &record) == LM_OK) { ... record.value_ms ... }
 *     lm_close(&mirror);
 *
 * Thread-safety: after lm_open, any number of threads may call lm_read and the other query
 * functions on the same lm_mirror at once, each with its own lm_record. lm_close must not run
 * while another thread reads.
 *
 * The file is little-endian; on a big-endian host lm_open refuses it (its magic reads swapped).
 *
 * The file is input from another process and is not trusted. lm_read measures the file's length
 * (one fstat) before it touches the mapping whenever it last found the file whole more than
 * LM_LENGTH_CHECK_PERIOD_NANOS ago, and again whenever a record reads as never written or bad, so
 * a file truncated under it reads LM_FILE_TRUNCATED instead of killing the process with SIGBUS;
 * and it checks every field of a record it copies (lm_check_record) before it calls the copy LM_OK.
 * The header queries (lm_alive, lm_heartbeat_age_millis, lm_server_link, ...) measure it every
 * time. A read within the period after a truncation can still raise SIGBUS (so can any load in
 * the instant between an fstat and the load); only a process-wide signal handler could catch
 * that, which a header must not install. lm_mirror must not be defined const (lm_read records
 * when it last found the file whole).
 */
#ifndef LATENCY_MIRROR_H
#define LATENCY_MIRROR_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if !defined(CLOCK_REALTIME) || !defined(O_CLOEXEC)
#error "latency_mirror.h needs POSIX.1-2008: define _POSIX_C_SOURCE 200809L before any #include"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- layout version 1: the numbers of docs/mirror-layout.md (MirrorLayout.java repeats them) ---- */

#define LM_MAGIC INT64_C(0x524F5252494D544C) /* the bytes "LTMIRROR" read as a little-endian int64 */
#define LM_VERSION 1
#define LM_HEADER_BYTES 128
#define LM_RECORD_BYTES 128
#define LM_RECORD_COUNT 32768 /* one record per index_ref 0..32767 */
#define LM_FILE_BYTES ((size_t)LM_HEADER_BYTES + (size_t)LM_RECORD_COUNT * LM_RECORD_BYTES)
#define LM_MAX_INDEX_REF (LM_RECORD_COUNT - 1)

/* header offsets, bytes */
#define LM_MAGIC_OFFSET 0                        /* int64 */
#define LM_VERSION_OFFSET 8                      /* int32 */
#define LM_HEADER_BYTES_OFFSET 12                /* int32 */
#define LM_RECORD_BYTES_OFFSET 16                /* int32 */
#define LM_RECORD_COUNT_OFFSET 20                /* int32 */
#define LM_WRITER_PID_OFFSET 24                  /* int64 */
#define LM_STARTED_EPOCH_MILLIS_OFFSET 32        /* int64, ms since 1970 */
#define LM_HEARTBEAT_EPOCH_MILLIS_OFFSET 64      /* int64, ms since 1970, release-stored */
#define LM_HEARTBEAT_INTERVAL_MILLIS_OFFSET 72   /* int32, ms */
#define LM_SERVER_LINK_OFFSET 76                 /* int32, LM_SERVER_LINK_* */
#define LM_SERVER_CONTACT_EPOCH_MILLIS_OFFSET 80 /* int64, ms since 1970 */

/* record offsets, bytes from the record's start (LM_HEADER_BYTES + index_ref * LM_RECORD_BYTES) */
#define LM_SEQUENCE_OFFSET 0               /* int64 seqlock: 0 never written, odd being written */
#define LM_INDEX_REF_OFFSET 8              /* int16 */
#define LM_QOS_OFFSET 10                   /* int8, 1..4 */
#define LM_KIND_OFFSET 11                  /* int8, LM_KIND_* */
#define LM_FLAGS_OFFSET 12                 /* uint8, LM_FLAG_* */
#define LM_STALE_REASON_OFFSET 13          /* uint8, LM_STALE_* */
#define LM_CPU_STATE_OFFSET 14             /* int16, 10 * client + peer (1 LOW..3 HIGH), 0 unknown */
#define LM_PORT_STATE_OFFSET 16            /* int16, 0 NORMAL, 91..100 LOADED, 101 SATURATED, -1 unknown */
#define LM_VALUE_MS_OFFSET 24              /* float64, ms */
#define LM_INTERVAL_LOWER_OFFSET 32        /* float64, ms (AVERAGE) or percent (BOUND) */
#define LM_INTERVAL_UPPER_OFFSET 40        /* float64 */
#define LM_BOUND_PERCENT_OFFSET 48         /* float64, 0 for AVERAGE */
#define LM_CONFIDENCE_LEVEL_OFFSET 56      /* float64, e.g. 0.95 */
#define LM_COMPUTED_EPOCH_MILLIS_OFFSET 64 /* int64, server's clock */
#define LM_MIRRORED_EPOCH_MILLIS_OFFSET 72 /* int64, this host's clock */

#define LM_KIND_AVERAGE 0 /* value is a mean, the interval its CI in ms */
#define LM_KIND_BOUND 1   /* value is the bound at bound_percent, the interval a CI in percent */

#define LM_FLAG_HAS_ESTIMATE 0x01   /* the server serves an estimate; else only the states mean anything */
#define LM_FLAG_UPDATE_PENDING 0x02 /* a measurement of the current state is awaited (QoS 3, 4) */
#define LM_FLAG_STALE 0x04          /* stale; stale_reason says why */
#define LM_FLAG_INTERPOLATED 0x08   /* from the latency-vs-size model */

#define LM_STALE_NONE 0
#define LM_STALE_INPUT_SILENT 1 /* an input of the server stopped answering */
#define LM_STALE_SERVER_LOST 2  /* the mirror lost the server */
#define LM_STALE_NO_ESTIMATE 3  /* the server serves no estimate for this connection now */

#define LM_SERVER_LINK_PUSH 0    /* subscribed; the server pushes */
#define LM_SERVER_LINK_POLLING 1 /* the subscription failed; values are polled */
#define LM_SERVER_LINK_LOST 2    /* the server does not answer */

/* A reader treats the mirror as dead when the heartbeat is older than this many intervals. */
#define LM_DEAD_AFTER_HEARTBEAT_INTERVALS 3
/* How far ahead of the reader's clock the heartbeat may be and the mirror still count as alive, ms
 * (as EstimateMirror.HEARTBEAT_FUTURE_SLACK_MILLIS): further ahead is not credible, so dead. */
#define LM_HEARTBEAT_FUTURE_SLACK_MILLIS 1000
/* How often, at most, lm_read measures the file's length before touching the mapping, ns (as
 * EstimateMirror.LENGTH_CHECK_PERIOD_NANOS): an fstat per read would cost several reads. */
#define LM_LENGTH_CHECK_PERIOD_NANOS 1000000
/* lm_read's attempts before it returns LM_BUSY (as EstimateMirror.READ_ATTEMPTS). */
#define LM_READ_ATTEMPTS 4096

/* What lm_read found; the same values, in the same order, as the Java ReadStatus. */
typedef enum lm_status {
    LM_OK = 0,           /* a consistent copy is in *out and the heartbeat is fresh */
    LM_NOT_MIRRORED = 1, /* sequence 0: the mirror does not follow this connection; *out unchanged */
    LM_BUSY = 2,         /* the record stayed mid-write for LM_READ_ATTEMPTS tries; *out unchanged */
    LM_MIRROR_DEAD = 3,  /* a consistent copy is in *out, but the heartbeat is older than 3 intervals
                            (or more than LM_HEARTBEAT_FUTURE_SLACK_MILLIS ahead) */
    LM_BAD_RECORD = 4,   /* a consistent copy is in *out, but a field breaks the layout (lm_check_record
                            says which); never use its values */
    LM_FILE_TRUNCATED = 5, /* the file is shorter than LM_FILE_BYTES (truncated under the mapping);
                              *out unchanged; lm_close and lm_open again */
    LM_INVALID = -1      /* index_ref outside 0..32767, or a null argument; *out unchanged */
} lm_status;

/* An open mirror: the read-only mapping and the header's fixed fields. Treat as opaque. */
typedef struct lm_mirror {
    const unsigned char* base;        /* the mapping, LM_FILE_BYTES long */
    size_t length;                    /* bytes mapped */
    int fd;                           /* the file, open read-only for fstat until lm_close */
    int64_t whole_at_nanos;           /* CLOCK_MONOTONIC when lm_read last found the file whole (atomic) */
    int64_t heartbeat_interval_millis;
    int64_t writer_pid;
    int64_t started_epoch_millis;
} lm_mirror;

/* One record's values, as lm_read copies them (units as in docs/mirror-layout.md). */
typedef struct lm_record {
    int64_t sequence;              /* even and > 0 for an accepted copy; never smaller for the same record */
    int index_ref;                 /* 0..32767 */
    int qos;                       /* 1..4 */
    int kind;                      /* LM_KIND_* */
    unsigned flags;                /* LM_FLAG_* bits */
    int stale_reason;              /* LM_STALE_* */
    int cpu_state;                 /* 10 * client + peer, 0 unknown */
    int port_state;                /* 0 NORMAL, 91..100 LOADED, 101 SATURATED, -1 unknown */
    double value_ms;               /* ms */
    double interval_lower;         /* ms (AVERAGE) or percent (BOUND) */
    double interval_upper;
    double bound_percent;          /* 0 for AVERAGE */
    double confidence_level;       /* e.g. 0.95 */
    int64_t computed_epoch_millis; /* server's clock, ms since 1970 */
    int64_t mirrored_epoch_millis; /* this host's clock, ms since 1970 */
} lm_record;

/* Relaxed or acquire loads of the mapped little-endian fields (naturally aligned, see the layout). */
static inline int64_t lm_load_i64(const unsigned char* p, int order) {
    return __atomic_load_n((const int64_t*)(const void*)p, order);
}
static inline int32_t lm_load_i32(const unsigned char* p, int order) {
    return __atomic_load_n((const int32_t*)(const void*)p, order);
}
static inline int16_t lm_load_i16(const unsigned char* p) {
    return __atomic_load_n((const int16_t*)(const void*)p, __ATOMIC_RELAXED);
}
static inline uint8_t lm_load_u8(const unsigned char* p) {
    return __atomic_load_n((const uint8_t*)p, __ATOMIC_RELAXED);
}
static inline double lm_load_f64(const unsigned char* p) {
    const int64_t bits = __atomic_load_n((const int64_t*)(const void*)p, __ATOMIC_RELAXED);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/*
 * Wall-clock now, ms since 1970 (clock_gettime(CLOCK_REALTIME)), as the mirror's heartbeat.
 */
static inline int64_t lm_now_epoch_millis(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* CLOCK_MONOTONIC now, ns (a vDSO call on Linux). */
static inline int64_t lm_monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/*
 * Opens and maps the mirror file at path read-only after checking its header: magic, version,
 * header_bytes, record_bytes, record_count, the file length (header_bytes + record_count *
 * record_bytes) and heartbeat_interval_millis (>= 1).
 *
 * path:      the mirror's path, as the mirror process was given it.
 * out:       filled on success; untouched on failure.
 * error:     on failure, a NUL-terminated message naming the path, the wrong field, the value
 *            found and the value expected (or the failing system call and strerror); may be NULL.
 * error_len: size of error in bytes.
 * Returns 0 on success, -1 on failure. The file descriptor stays open (close-on-exec) until
 * lm_close, for the length checks of lm_read; the mapping too.
 */
static inline int lm_open(const char* path, lm_mirror* out, char* error, size_t error_len) {
    char scratch[1];
    if (error == NULL || error_len == 0) {
        error = scratch;
        error_len = sizeof scratch;
    }
    if (path == NULL || out == NULL) {
        snprintf(error, error_len, "lm_open: path and out must not be NULL");
        return -1;
    }
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(error, error_len, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(error, error_len, "%s: cannot fstat: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    const char* prefix = "not an estimate mirror file of layout version 1";
    if (st.st_size < LM_HEADER_BYTES) {
        snprintf(error, error_len, "%s: %s: file length is %lld bytes, expected at least %d bytes (a header), %zu in all",
            path, prefix, (long long)st.st_size, LM_HEADER_BYTES, LM_FILE_BYTES);
        close(fd);
        return -1;
    }
    const size_t length = (size_t)st.st_size;
    void* mapped = mmap(NULL, length, PROT_READ, MAP_SHARED, fd, 0);
    const int map_errno = errno;
    if (mapped == MAP_FAILED) {
        close(fd);
        snprintf(error, error_len, "%s: cannot mmap %zu bytes: %s", path, length, strerror(map_errno));
        return -1;
    }
    const unsigned char* base = (const unsigned char*)mapped;
    const int64_t magic = lm_load_i64(base + LM_MAGIC_OFFSET, __ATOMIC_RELAXED);
    const int32_t version = lm_load_i32(base + LM_VERSION_OFFSET, __ATOMIC_RELAXED);
    const int32_t header_bytes = lm_load_i32(base + LM_HEADER_BYTES_OFFSET, __ATOMIC_RELAXED);
    const int32_t record_bytes = lm_load_i32(base + LM_RECORD_BYTES_OFFSET, __ATOMIC_RELAXED);
    const int32_t record_count = lm_load_i32(base + LM_RECORD_COUNT_OFFSET, __ATOMIC_RELAXED);
    const int32_t interval = lm_load_i32(base + LM_HEARTBEAT_INTERVAL_MILLIS_OFFSET, __ATOMIC_RELAXED);
    int bad = 1;
    if (magic != LM_MAGIC) {
        snprintf(error, error_len, "%s: %s: magic is 0x%016llX, expected 0x%016llX (the bytes LTMIRROR)%s", path, prefix,
            (unsigned long long)magic, (unsigned long long)LM_MAGIC,
            (int64_t)__builtin_bswap64((uint64_t)magic) == LM_MAGIC ? "; the byte order differs" : "");
    } else if (version != LM_VERSION) {
        snprintf(error, error_len, "%s: %s: version is %d, expected %d", path, prefix, (int)version, LM_VERSION);
    } else if (header_bytes != LM_HEADER_BYTES) {
        snprintf(error, error_len, "%s: %s: header_bytes is %d, expected %d", path, prefix, (int)header_bytes,
            LM_HEADER_BYTES);
    } else if (record_bytes != LM_RECORD_BYTES) {
        snprintf(error, error_len, "%s: %s: record_bytes is %d, expected %d", path, prefix, (int)record_bytes,
            LM_RECORD_BYTES);
    } else if (record_count != LM_RECORD_COUNT) {
        snprintf(error, error_len, "%s: %s: record_count is %d, expected %d", path, prefix, (int)record_count,
            LM_RECORD_COUNT);
    } else if (length != LM_FILE_BYTES) {
        snprintf(error, error_len, "%s: %s: file length is %zu bytes, expected %zu bytes", path, prefix, length,
            LM_FILE_BYTES);
    } else if (interval < 1) {
        snprintf(error, error_len, "%s: %s: heartbeat_interval_millis is %d, expected at least 1", path, prefix,
            (int)interval);
    } else {
        bad = 0;
    }
    if (bad) {
        munmap(mapped, length);
        close(fd);
        return -1;
    }
    out->base = base;
    out->length = length;
    out->fd = fd;
    out->whole_at_nanos = lm_monotonic_nanos();
    out->heartbeat_interval_millis = interval;
    out->writer_pid = lm_load_i64(base + LM_WRITER_PID_OFFSET, __ATOMIC_RELAXED);
    out->started_epoch_millis = lm_load_i64(base + LM_STARTED_EPOCH_MILLIS_OFFSET, __ATOMIC_RELAXED);
    return 0;
}

/*
 * 1 if the mapped file is still LM_FILE_BYTES long (one fstat), 0 if it was truncated under the
 * mapping (or cannot be measured): then no field of it may be loaded.
 */
static inline int lm_file_whole(const lm_mirror* mirror) {
    struct stat st;
    return fstat(mirror->fd, &st) == 0 && st.st_size >= (off_t)LM_FILE_BYTES;
}

/*
 * How old the mirror's heartbeat is at now_epoch_millis, in ms (acquire load of
 * heartbeat_epoch_millis; negative if the heartbeat is ahead); INT64_MAX if the file was
 * truncated under the mapping (checked first).
 */
static inline int64_t lm_heartbeat_age_millis_at(const lm_mirror* mirror, int64_t now_epoch_millis) {
    if (!lm_file_whole(mirror)) {
        return INT64_MAX;
    }
    return now_epoch_millis - lm_load_i64(mirror->base + LM_HEARTBEAT_EPOCH_MILLIS_OFFSET, __ATOMIC_ACQUIRE);
}

/*
 * 0 if the file was found whole less than LM_LENGTH_CHECK_PERIOD_NANOS ago or is whole now (one
 * fstat, then remembered), 1 if it is short now.
 */
static inline int lm_truncated_since_last_check(const lm_mirror* mirror) {
    int64_t* whole_at = (int64_t*)&mirror->whole_at_nanos;
    const int64_t now = lm_monotonic_nanos();
    if (now - __atomic_load_n(whole_at, __ATOMIC_RELAXED) < LM_LENGTH_CHECK_PERIOD_NANOS) {
        return 0;
    }
    if (!lm_file_whole(mirror)) {
        return 1;
    }
    __atomic_store_n(whole_at, now, __ATOMIC_RELAXED);
    return 0;
}

/* 1 if a heartbeat this old (ms) means a live mirror: at most 3 intervals old, at most the slack ahead. */
static inline int lm_alive_at_age(const lm_mirror* mirror, int64_t age_millis) {
    return age_millis >= -LM_HEARTBEAT_FUTURE_SLACK_MILLIS
        && age_millis <= LM_DEAD_AFTER_HEARTBEAT_INTERVALS * mirror->heartbeat_interval_millis;
}

/*
 * How old the mirror's heartbeat is now (CLOCK_REALTIME), in ms.
 */
static inline int64_t lm_heartbeat_age_millis(const lm_mirror* mirror) {
    return lm_heartbeat_age_millis_at(mirror, lm_now_epoch_millis());
}

/*
 * 1 if the heartbeat is at most 3 heartbeat intervals old now and at most
 * LM_HEARTBEAT_FUTURE_SLACK_MILLIS ahead, else 0 (also for a truncated file). A dead mirror's file
 * keeps its last values; a restarted mirror renames a new file over the path: lm_close and lm_open
 * again.
 */
static inline int lm_alive(const lm_mirror* mirror) {
    return lm_alive_at_age(mirror, lm_heartbeat_age_millis(mirror));
}

/*
 * How the mirror reaches the server: LM_SERVER_LINK_PUSH, _POLLING or _LOST (acquire load); -1
 * if the file was truncated under the mapping.
 */
static inline int lm_server_link(const lm_mirror* mirror) {
    if (!lm_file_whole(mirror)) {
        return -1;
    }
    return lm_load_i32(mirror->base + LM_SERVER_LINK_OFFSET, __ATOMIC_ACQUIRE);
}

/*
 * The last time the server answered or pushed, ms since 1970 (0 if never). Load lm_server_link
 * first: the contact time is at least as new as the link code read. 0 if the file was truncated.
 */
static inline int64_t lm_server_contact_epoch_millis(const lm_mirror* mirror) {
    if (!lm_file_whole(mirror)) {
        return 0;
    }
    return lm_load_i64(mirror->base + LM_SERVER_CONTACT_EPOCH_MILLIS_OFFSET, __ATOMIC_ACQUIRE);
}

/*
 * NULL if the copy r of slot keeps the layout's contract, else which rule it breaks (a constant
 * string): index_ref equals the slot; qos 1..4; kind LM_KIND_*; stale_reason 0..3; cpu_state 0 or
 * 10 * client + peer with each 1..3; port_state -1, 0, 91..100 or 101; value_ms, interval_lower,
 * interval_upper, bound_percent, confidence_level finite; bound_percent 0..100; confidence_level
 * 0..1; with LM_FLAG_HAS_ESTIMATE: interval_lower <= interval_upper, a BOUND's bound_percent in
 * (0, 100], an AVERAGE's interval_lower <= value_ms <= interval_upper. The Java reader's
 * RecordCheck applies the same rules.
 */
static inline const char* lm_check_record(const lm_record* r, int slot) {
    if (r->index_ref != slot) return "index_ref is not the slot";
    if (r->qos < 1 || r->qos > 4) return "qos is not 1..4";
    if (r->kind != LM_KIND_AVERAGE && r->kind != LM_KIND_BOUND) return "kind is not 0 (AVERAGE) or 1 (BOUND)";
    if (r->stale_reason < LM_STALE_NONE || r->stale_reason > LM_STALE_NO_ESTIMATE) return "stale_reason is not 0..3";
    if (r->cpu_state != 0 && (r->cpu_state / 10 < 1 || r->cpu_state / 10 > 3 || r->cpu_state % 10 < 1
            || r->cpu_state % 10 > 3)) return "cpu_state is not 0 or 10 * client + peer with each 1..3";
    if (r->port_state != -1 && r->port_state != 0 && (r->port_state < 91 || r->port_state > 101))
        return "port_state is not -1, 0, 91..100 or 101";
    if (!isfinite(r->value_ms) || !isfinite(r->interval_lower) || !isfinite(r->interval_upper)
            || !isfinite(r->bound_percent) || !isfinite(r->confidence_level)) return "a value is not finite";
    if (r->bound_percent < 0 || r->bound_percent > 100) return "bound_percent is not 0..100";
    if (r->confidence_level < 0 || r->confidence_level > 1) return "confidence_level is not 0..1";
    if ((r->flags & LM_FLAG_HAS_ESTIMATE) == 0) return NULL;
    if (r->interval_lower > r->interval_upper) return "interval_lower is above interval_upper";
    if (r->kind == LM_KIND_BOUND && r->bound_percent <= 0) return "bound_percent of a BOUND is not in (0, 100]";
    if (r->kind == LM_KIND_AVERAGE && (r->value_ms < r->interval_lower || r->value_ms > r->interval_upper))
        return "value_ms of an AVERAGE is outside its interval";
    return NULL;
}

/*
 * Reads the record of index_ref under its seqlock, judging the heartbeat at now_epoch_millis:
 * first checks the file's length as the top of this header says (LM_FILE_TRUNCATED if short, also
 * when a record reads as never written or bad); loads sequence
 * (acquire); 0 returns LM_NOT_MIRRORED; odd retries; else copies the fields, issues an acquire
 * fence, loads sequence again and accepts the copy only if it is unchanged. After
 * LM_READ_ATTEMPTS tries it returns LM_BUSY. An accepted copy goes into *out and returns
 * LM_BAD_RECORD if lm_check_record finds a broken rule, else LM_MIRROR_DEAD if the heartbeat is
 * older than 3 intervals or more than LM_HEARTBEAT_FUTURE_SLACK_MILLIS ahead, else LM_OK. No
 * lock, no allocation; a system call (fstat) at most every LM_LENGTH_CHECK_PERIOD_NANOS, and for
 * a record never written or bad.
 */
static inline lm_status lm_read_at(const lm_mirror* mirror, int index_ref, lm_record* out, int64_t now_epoch_millis) {
    if (mirror == NULL || out == NULL || mirror->base == NULL || index_ref < 0 || index_ref > LM_MAX_INDEX_REF) {
        return LM_INVALID;
    }
    if (lm_truncated_since_last_check(mirror)) {
        return LM_FILE_TRUNCATED;
    }
    const unsigned char* r = mirror->base + LM_HEADER_BYTES + (size_t)index_ref * LM_RECORD_BYTES;
    for (int attempt = 0; attempt < LM_READ_ATTEMPTS; attempt++) {
        const int64_t before = lm_load_i64(r + LM_SEQUENCE_OFFSET, __ATOMIC_ACQUIRE);
        if (before == 0) {
            return lm_file_whole(mirror) ? LM_NOT_MIRRORED : LM_FILE_TRUNCATED;
        }
        if ((before & 1) == 0) {
            lm_record copy;
            copy.sequence = before;
            copy.index_ref = lm_load_i16(r + LM_INDEX_REF_OFFSET);
            copy.qos = (int8_t)lm_load_u8(r + LM_QOS_OFFSET);
            copy.kind = (int8_t)lm_load_u8(r + LM_KIND_OFFSET);
            copy.flags = lm_load_u8(r + LM_FLAGS_OFFSET);
            copy.stale_reason = lm_load_u8(r + LM_STALE_REASON_OFFSET);
            copy.cpu_state = lm_load_i16(r + LM_CPU_STATE_OFFSET);
            copy.port_state = lm_load_i16(r + LM_PORT_STATE_OFFSET);
            copy.value_ms = lm_load_f64(r + LM_VALUE_MS_OFFSET);
            copy.interval_lower = lm_load_f64(r + LM_INTERVAL_LOWER_OFFSET);
            copy.interval_upper = lm_load_f64(r + LM_INTERVAL_UPPER_OFFSET);
            copy.bound_percent = lm_load_f64(r + LM_BOUND_PERCENT_OFFSET);
            copy.confidence_level = lm_load_f64(r + LM_CONFIDENCE_LEVEL_OFFSET);
            copy.computed_epoch_millis = lm_load_i64(r + LM_COMPUTED_EPOCH_MILLIS_OFFSET, __ATOMIC_RELAXED);
            copy.mirrored_epoch_millis = lm_load_i64(r + LM_MIRRORED_EPOCH_MILLIS_OFFSET, __ATOMIC_RELAXED);
            /* the field loads above complete before the sequence is loaded again */
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (lm_load_i64(r + LM_SEQUENCE_OFFSET, __ATOMIC_RELAXED) == before) {
                if (lm_check_record(&copy, index_ref) != NULL) {
                    if (!lm_file_whole(mirror)) {
                        return LM_FILE_TRUNCATED;
                    }
                    *out = copy;
                    return LM_BAD_RECORD;
                }
                *out = copy;
                const int64_t heartbeat = lm_load_i64(mirror->base + LM_HEARTBEAT_EPOCH_MILLIS_OFFSET, __ATOMIC_ACQUIRE);
                return lm_alive_at_age(mirror, now_epoch_millis - heartbeat) ? LM_OK : LM_MIRROR_DEAD;
            }
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }
    return LM_BUSY;
}

/*
 * Reads the record of index_ref as lm_read_at does, judging the heartbeat at
 * lm_now_epoch_millis() (one clock_gettime, a vDSO call on Linux).
 * Returns LM_OK, LM_NOT_MIRRORED, LM_BUSY, LM_MIRROR_DEAD, LM_BAD_RECORD, LM_FILE_TRUNCATED, or
 * LM_INVALID for an index_ref outside 0..32767.
 */
static inline lm_status lm_read(const lm_mirror* mirror, int index_ref, lm_record* out) {
    return lm_read_at(mirror, index_ref, out, lm_now_epoch_millis());
}

/*
 * Unmaps the file and closes its descriptor; *mirror must not be used afterwards (its base
 * becomes NULL). Call it when no thread reads any more. Safe to call twice.
 */
static inline void lm_close(lm_mirror* mirror) {
    if (mirror != NULL && mirror->base != NULL) {
        munmap((void*)mirror->base, mirror->length);
        close(mirror->fd);
        mirror->fd = -1;
        mirror->base = NULL;
        mirror->length = 0;
    }
}

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_MIRROR_H */
