/* tthreads.c -- test-only plugins for how the host calls plugins: threads, cancel.
 *
 * One source, built once per TT_KIND into tests/threadplugins/ (never into
 * the real plugin directory).  Each keeps its counters in the state init()
 * allocates, never in globals, and says what it saw through its status, so
 * the test needs nothing but host_solve().  All take 4x4 only.
 *
 *   TT_KIND_SERIAL  "serial", not SDK_CAP_REENTRANT: fails (SDK_FAILED) when
 *                   it finds another call of itself running; limit 3 makes it
 *                   log "holding" and wait for its cancel flag.
 *   TT_KIND_MEET    "meet", SDK_CAP_REENTRANT: waits up to 5 s for a second
 *                   call of itself to be running at the same time; solves
 *                   when it sees one, fails when it does not.
 *   TT_KIND_LATE    "late", SDK_CAP_CANCEL: ignores its deadline and returns
 *                   SDK_TIMEDOUT 150 ms after it.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sudoku/plugin.h>

#define TT_KIND_SERIAL 1
#define TT_KIND_MEET   2
#define TT_KIND_LATE   3

struct tt_state {
    atomic_int inside; /* calls running now */
    atomic_int peak;   /* most calls ever running at once */
};

static void tt_sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

    nanosleep(&ts, NULL);
}

/* Fill solution with a valid 4x4 grid; the tests give the empty grid. */
static int tt_answer(struct sdk_job *job)
{
    static const uint8_t grid[16] = {1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1};

    memcpy(job->solution, grid, sizeof(grid));
    job->count = 1;
    return SDK_SOLVED;
}

static int tt_init(const struct sdk_host *host, void **state)
{
    (void)host;
    *state = calloc(1, sizeof(struct tt_state));
    return *state ? 0 : -ENOMEM;
}

static void tt_fini(void *state)
{
    free(state);
}

/* Enter: count this call and keep the peak.  Returns the calls running. */
static int tt_enter(struct tt_state *st)
{
    int now = atomic_fetch_add(&st->inside, 1) + 1;
    int peak = atomic_load(&st->peak);

    while (now > peak && !atomic_compare_exchange_weak(&st->peak, &peak, now))
        ;
    return now;
}

static int serial_solve(struct tt_state *st, const struct sdk_host *host, struct sdk_job *job)
{
    int alone = tt_enter(st) == 1;

    if (alone && job->limit == 3) {
        host->log(host->ctx, SDK_LOG_INFO, "holding");
        while (job->cancel && !atomic_load(job->cancel))
            tt_sleep_us(1000);
        atomic_fetch_sub(&st->inside, 1);
        return SDK_CANCELLED;
    }
    /* Stay a while so that an overlapping call would be seen. */
    for (int i = 0; i < 20 && alone; i++) {
        tt_sleep_us(100);
        alone = atomic_load(&st->inside) == 1;
    }
    atomic_fetch_sub(&st->inside, 1);
    return alone ? tt_answer(job) : SDK_FAILED;
}

static int meet_solve(struct tt_state *st, struct sdk_job *job)
{
    int met = tt_enter(st) >= 2;

    for (int i = 0; i < 5000 && !met; i++) {
        tt_sleep_us(1000);
        met = atomic_load(&st->peak) >= 2;
    }
    atomic_fetch_sub(&st->inside, 1);
    return met ? tt_answer(job) : SDK_FAILED;
}

static int late_solve(struct sdk_job *job)
{
    while (job->deadline_ns && sdk_now_ns() < job->deadline_ns + 150000000u)
        tt_sleep_us(5000);
    return SDK_TIMEDOUT;
}

static int tt_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    switch (TT_KIND) {
    case TT_KIND_SERIAL:
        return serial_solve(state, host, job);
    case TT_KIND_MEET:
        return meet_solve(state, job);
    default:
        return late_solve(job);
    }
}

static const struct sdk_plugin tt_desc = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = TT_KIND == TT_KIND_SERIAL ? "serial"
            : TT_KIND == TT_KIND_MEET ? "meet"
                                      : "late",
    .version = "0",
    .description = "test plugin: how the host calls plugins",
    .sizes = SDK_SIZE_4,
    .caps = TT_KIND == TT_KIND_SERIAL ? 0u
            : TT_KIND == TT_KIND_MEET ? SDK_CAP_REENTRANT
                                      : SDK_CAP_REENTRANT | SDK_CAP_CANCEL,
    .init = tt_init,
    .fini = tt_fini,
    .solve = tt_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &tt_desc;
}
