/* texplain.c -- test-only plugins for the explain ABI (minor 1) and its checks.
 *
 * One source, built once per TX_KIND into tests/explainplugins/.  Every kind
 * solves 4x4 puzzles with a plain backtracker.  TX_KIND_MINOR0 is a plugin
 * built against ABI 1.0: its descriptor is its own copy of the 1.0 layout,
 * which ends at solve, so a host that read explain or explain_sizes would
 * read past the object (ASan sees that).  The other kinds have explain()
 * and lie in one way each, so host_explain()'s checks can be tested:
 *   TX_KIND_WRONG     places a value that is not the solution's;
 *   TX_KIND_NOCHANGE  eliminates a candidate a given already rules out;
 *   TX_KIND_SHORT     says solved after no step at all;
 *   TX_KIND_RATING    one sound step, but a rating below that step's;
 *   TX_KIND_ABOVE     says "above max_rating" (ABI minor 2) to a job that set
 *                     no ceiling.
 * TX_KIND_STUCK tells no lie: it knows no technique, so every explanation
 * is stuck at once (the host's reveal is tested with it).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sudoku/plugin.h>

#define TX_KIND_MINOR0   1
#define TX_KIND_WRONG    2
#define TX_KIND_NOCHANGE 3
#define TX_KIND_SHORT    4
#define TX_KIND_RATING   5
#define TX_KIND_ABOVE    6
#define TX_KIND_STUCK    7

/* Can value v go at cell i of the 4x4 grid g? */
static int tx_fits(const uint8_t *g, uint32_t i, uint8_t v)
{
    uint32_t r = i / 4, c = i % 4, br = r / 2 * 2, bc = c / 2 * 2;

    for (uint32_t k = 0; k < 4; k++)
        if (g[r * 4 + k] == v || g[k * 4 + c] == v || g[(br + k / 2) * 4 + bc + k % 2] == v)
            return 0;
    return 1;
}

static void tx_search(uint8_t *g, uint32_t i, struct sdk_job *job)
{
    while (i < 16 && g[i])
        i++;
    if (i == 16) {
        if (job->count++ == 0)
            memcpy(job->solution, g, 16);
        return;
    }
    for (uint8_t v = 1; v <= 4 && job->count < job->limit; v++) {
        if (!tx_fits(g, i, v))
            continue;
        job->guesses++;
        g[i] = v;
        tx_search(g, i + 1, job);
        g[i] = 0;
    }
}

static int tx_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    uint8_t g[16];

    (void)state;
    (void)host;
    if (job->n != 4)
        return SDK_FAILED;
    memcpy(g, job->cells, 16);
    job->count = 0;
    tx_search(g, 0, job);
    return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

#if TX_KIND == TX_KIND_MINOR0

/* struct sdk_plugin as ABI 1.0 defined it. */
struct tx_plugin_v0 {
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t struct_size;
    const char *name;
    const char *version;
    const char *description;
    uint32_t sizes;
    uint32_t caps;
    int (*init)(const struct sdk_host *host, void **state);
    void (*fini)(void *state);
    int (*solve)(void *state, const struct sdk_host *host, struct sdk_job *job);
};

static const struct tx_plugin_v0 tx_plugin = {
    .abi_major = 1,
    .abi_minor = 0,
    .struct_size = sizeof(struct tx_plugin_v0),
    .name = "minor0",
    .version = "1.0",
    .description = "built against ABI 1.0: solves 4x4, cannot explain",
    .sizes = SDK_SIZE_4,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT,
    .solve = tx_solve,
};

#else

/* One step at job->steps[0] with one entry in placements or eliminations. */
static void tx_step(struct sdk_explain *job, int place, uint32_t cell, uint32_t v)
{
    struct sdk_cell_value cv = {.cell = (uint16_t)cell, .value = (uint8_t)v};
    struct sdk_step s = {.technique = "liar", .rating = 1.0};

    if (place) {
        s.place_len = 1;
        job->placements[job->placements_len++] = cv;
    } else {
        s.elim_len = 1;
        job->eliminations[job->eliminations_len++] = cv;
    }
    job->steps[job->steps_len++] = s;
    job->rating = 1.0;
    job->hardest = "liar";
}

static int tx_explain(void *state, const struct sdk_host *host, struct sdk_explain *job)
{
    uint8_t sol[16];
    struct sdk_job sj = {
        .size = sizeof(sj), .n = 4, .cells = job->cells, .limit = 1, .solution = sol};
    uint32_t blank = 0;

    if (job->n != 4 || tx_solve(state, host, &sj) != SDK_SOLVED)
        return -22;
    while (blank < 16 && job->cells[blank])
        blank++;
    job->status = SDK_EXPLAIN_STUCK;
    if (TX_KIND == TX_KIND_SHORT || blank == 16) {
        job->status = SDK_EXPLAIN_SOLVED;
        return 0;
    }
    if (TX_KIND == TX_KIND_WRONG)
        tx_step(job, 1, blank, sol[blank] % 4 + 1);
    if (TX_KIND == TX_KIND_ABOVE) {
        job->status = SDK_EXPLAIN_ABOVE;
        job->rating = 9.0;
    }
    if (TX_KIND == TX_KIND_RATING) {
        tx_step(job, 1, blank, sol[blank]);
        job->rating = 0.5;
    }
    /* A blank beside a given in its row: that given's value is long gone. */
    for (uint32_t i = 0; TX_KIND == TX_KIND_NOCHANGE && i < 16 && !job->steps_len; i++) {
        for (uint32_t k = 0; !job->cells[i] && k < 4 && !job->steps_len; k++) {
            uint8_t v = job->cells[i / 4 * 4 + k];
            if (v)
                tx_step(job, 0, i, v);
        }
    }
    return 0;
}

static const struct sdk_plugin tx_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = TX_NAME,
    .version = "1.0",
    .description = "explains 4x4 puzzles wrongly, on purpose",
    .sizes = SDK_SIZE_4,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT,
    .solve = tx_solve,
    .explain = tx_explain,
    .explain_sizes = SDK_SIZE_4,
};

#endif

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return (const struct sdk_plugin *)(const void *)&tx_plugin;
}
