/* plugin.h -- the sudokud solver plugin ABI.
 *
 * A solver plugin is a shared object that exports exactly one symbol,
 * SDK_ENTRY_SYMBOL ("sudoku_plugin_entry"), a function returning a pointer to
 * a constant descriptor (struct sdk_plugin).  The host (sudokud, sudoku-bench)
 * dlopen()s the file, checks the descriptor and then calls solve() from any
 * number of threads at once.
 *
 * Versioning: the descriptor and every struct the host hands in carry their
 * own size.  Structs only ever grow at the end; a reader must look at the
 * size before touching a field that came with a later minor version.  A new
 * major version means an incompatible change and the host refuses the plugin.
 *
 * Rules for plugins (the host relies on them):
 *   - no mutable globals: solve() is called concurrently from worker threads;
 *   - no printing, no exit(), no abort(): report through sdk_host.log and the
 *     returned status;
 *   - no malloc on the 9x9 hot path; larger grids may allocate their working
 *     memory once per call, never during the search;
 *   - the one exception: a plugin whose search allocates as it goes (a SAT
 *     solver growing its learned clauses, as sat on CaDiCaL does) is allowed
 *     off the host's hot path only (never the default for 9x9, where answers
 *     take microseconds), and only when it bounds what one job may allocate
 *     (a documented cap: a job that reaches it returns SDK_FAILED instead of
 *     growing) and has freed all of it before solve() returns;
 *   - poll sdk_job_should_stop() often enough to return within 10 ms of a
 *     cancel request or of the deadline;
 *   - build with -fvisibility=hidden and -Wl,-z,defs, export only the entry.
 *
 * This header is self-contained and installed as <sudoku/plugin.h>.  It
 * compiles as strict ISO C11 and C17 (-std=c11 -pedantic, where <time.h>
 * hides POSIX: the two POSIX names it needs are then declared here) and as
 * C++17 (std::atomic<int> for the cancel flag, layout-compatible with C's
 * atomic_int); ctest header_std compiles it each way.
 */
#ifndef SUDOKU_PLUGIN_H
#define SUDOKU_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
#include <atomic>
typedef std::atomic<int> sdk_atomic_int; /* the cancel flag's type */
#define SDK_ATOMIC_LOAD_RELAXED(p) ((p)->load(std::memory_order_relaxed))
extern "C" {
#else
#include <stdatomic.h>
typedef atomic_int sdk_atomic_int; /* the cancel flag's type */
#define SDK_ATOMIC_LOAD_RELAXED(p) atomic_load_explicit((p), memory_order_relaxed)
#endif

#ifdef CLOCK_MONOTONIC
#define SDK_CLOCK_MONOTONIC CLOCK_MONOTONIC
#else
/* Strict ISO C: <time.h> declares struct timespec but hides POSIX's clock;
 * these are Linux's (clockid_t is an int there). */
extern int clock_gettime(int clock_id, struct timespec *ts);
#define SDK_CLOCK_MONOTONIC 1
#endif

#define SDK_ABI_MAJOR    1                     /* incompatible changes bump this */
#define SDK_ABI_MINOR    0                     /* fields added at the end bump this */
#define SDK_ENTRY_SYMBOL "sudoku_plugin_entry" /* the one exported symbol */
#define SDK_MAX_N        25                    /* largest supported side */
#define SDK_MAX_CELLS    (SDK_MAX_N * SDK_MAX_N)

/* Grid sizes a plugin can take (sdk_plugin.sizes). */
#define SDK_SIZE_4   (1u << 0) /* 4x4, boxes of 2x2 */
#define SDK_SIZE_9   (1u << 1) /* 9x9, boxes of 3x3 */
#define SDK_SIZE_16  (1u << 2) /* 16x16, boxes of 4x4 */
#define SDK_SIZE_25  (1u << 3) /* 25x25, boxes of 5x5 */
#define SDK_SIZE_ALL (SDK_SIZE_4 | SDK_SIZE_9 | SDK_SIZE_16 | SDK_SIZE_25)

/* Capability flags (sdk_plugin.caps). */
#define SDK_CAP_COUNT     (1u << 0) /* honours limit > 1 (uniqueness, counting) */
#define SDK_CAP_REENTRANT (1u << 1) /* safe to call from several threads at once */
#define SDK_CAP_CANCEL    (1u << 2) /* polls the cancel flag and the deadline */
#define SDK_CAP_PROMPT    (1u << 3) /* stops within microseconds of them: may run on the loop */

/* Log levels, syslog numbering (sdk_host.log). */
#define SDK_LOG_ERR     3
#define SDK_LOG_WARNING 4
#define SDK_LOG_INFO    6
#define SDK_LOG_DEBUG   7

/* Result of a solve call. */
enum sdk_status {
    SDK_SOLVED = 0,     /* at least one solution; the first is in job->solution */
    SDK_UNSOLVABLE = 1, /* no solution exists (count == 0) */
    SDK_CANCELLED = 2,  /* *job->cancel became non-zero */
    SDK_TIMEDOUT = 3,   /* job->deadline_ns passed */
    SDK_FAILED = 4      /* the plugin could not work (out of memory, bad job) */
};

/* What the host hands a plugin: a table of function pointers, so plugins
 * link against nothing in the host.  Only grows at the end. */
struct sdk_host {
    uint32_t size; /* sizeof(struct sdk_host) as the host was built */
    void *ctx;     /* opaque, passed back to every callback */
    /* Log one line (no trailing newline needed).  Thread-safe. */
    void (*log)(void *ctx, int level, const char *msg);
};

/* One solve request.  The host owns every buffer; the plugin writes only the
 * fields marked out. */
struct sdk_job {
    uint32_t size;                /* sizeof(struct sdk_job) as the host was built */
    uint32_t n;                   /* side: 4, 9, 16 or 25 */
    const uint8_t *cells;         /* n*n cells, row-major, 0 = blank, else 1..n */
    uint64_t limit;               /* stop after this many solutions (>= 1) */
    const sdk_atomic_int *cancel; /* non-zero asks the plugin to stop; may be NULL */
    uint64_t deadline_ns;         /* CLOCK_MONOTONIC ns to stop at; 0 = none */
    uint8_t *solution;            /* out: n*n cells, the first solution found */
    uint64_t count;               /* out: solutions found, 0..limit */
    uint64_t guesses;             /* out: work done (guesses or search nodes) */
};

/* The descriptor a plugin's entry function returns.  Constant, owned by the
 * plugin, valid until the plugin is unloaded.  Only grows at the end. */
struct sdk_plugin {
    uint16_t abi_major;      /* SDK_ABI_MAJOR the plugin was built with */
    uint16_t abi_minor;      /* SDK_ABI_MINOR the plugin was built with */
    uint32_t struct_size;    /* sizeof(struct sdk_plugin) the plugin was built with */
    const char *name;        /* short unique name: [a-z0-9_-]{1,31} */
    const char *version;     /* the plugin's own version, free text */
    const char *description; /* one line for humans */
    uint32_t sizes;          /* SDK_SIZE_* the plugin accepts */
    uint32_t caps;           /* SDK_CAP_* */
    /* Optional.  Called once after loading; may set *state (passed to solve
     * and fini).  Returns 0 or a negative errno; non-zero refuses the load. */
    int (*init)(const struct sdk_host *host, void **state);
    /* Optional.  Called once before unloading, never while solving. */
    void (*fini)(void *state);
    /* Required.  Solve job->cells; fill solution, count, guesses.  Returns an
     * enum sdk_status.  Must not keep pointers into job after returning. */
    int (*solve)(void *state, const struct sdk_host *host, struct sdk_job *job);
};

/* The type of the exported entry function. */
typedef const struct sdk_plugin *(*sdk_entry_fn)(void);

/* Monotonic clock in nanoseconds, the clock of sdk_job.deadline_ns. */
static inline uint64_t sdk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(SDK_CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Returns SDK_CANCELLED or SDK_TIMEDOUT when the job must stop, else 0.
 * Costs one atomic load and one vDSO clock read: call it every few thousand
 * search nodes, not on every node. */
static inline int sdk_job_should_stop(const struct sdk_job *job)
{
    if (job->cancel && SDK_ATOMIC_LOAD_RELAXED(job->cancel))
        return SDK_CANCELLED;
    if (job->deadline_ns && sdk_now_ns() >= job->deadline_ns)
        return SDK_TIMEDOUT;
    return 0;
}

/* Box side for a grid side n (2, 3, 4, 5), or 0 when n is not supported. */
static inline uint32_t sdk_box_side(uint32_t n)
{
    switch (n) {
    case 4:
        return 2;
    case 9:
        return 3;
    case 16:
        return 4;
    case 25:
        return 5;
    default:
        return 0;
    }
}

/* The SDK_SIZE_* bit for side n, or 0. */
static inline uint32_t sdk_size_bit(uint32_t n)
{
    switch (n) {
    case 4:
        return SDK_SIZE_4;
    case 9:
        return SDK_SIZE_9;
    case 16:
        return SDK_SIZE_16;
    case 25:
        return SDK_SIZE_25;
    default:
        return 0;
    }
}

/* Declare the entry function of a plugin:
 *     SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);  */
#define SDK_PLUGIN_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_PLUGIN_H */
