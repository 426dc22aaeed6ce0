/* tplugin.c -- tiny test-only plugins for the loader and answer-check tests.
 *
 * One source, built once per TP_KIND into tests/badplugins/ (never into the
 * real plugin directory).  Each kind breaks exactly one rule of the ABI, or
 * (TP_KIND_GOOD) keeps them all with a plain backtracker for 4x4, or
 * (TP_KIND_LIAR) loads fine and then answers wrongly in a way chosen by
 * job->limit, so the host's answer checks can be tested one by one.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sudoku/plugin.h>

#define TP_KIND_GOOD      1  /* a correct 4x4 solver named TP_NAME */
#define TP_KIND_BADABI    2  /* abi_major 99 */
#define TP_KIND_NOSOLVE   3  /* solve == NULL */
#define TP_KIND_BADNAME   4  /* name with a space and capitals */
#define TP_KIND_NOSIZES   5  /* sizes == 0 */
#define TP_KIND_NULLENTRY 6  /* entry returns NULL */
#define TP_KIND_INITFAIL  7  /* init returns -EIO */
#define TP_KIND_SMALL     8  /* struct_size too small */
#define TP_KIND_LIAR      9  /* loads, then lies (see liar_solve) */
#define TP_KIND_ESCDESC   10 /* description with an ANSI escape */
#define TP_KIND_CRVER     11 /* version with a carriage return */
#define TP_KIND_LATIN1    12 /* description in Latin-1, not UTF-8 */
#define TP_KIND_C1DESC    13 /* description with U+0085 (NEL), a C1 control */
#define TP_KIND_LONGVER   14 /* version of 32 bytes */

/* Every kind uses only some of the functions below. */
#define TP_UNUSED __attribute__((unused))

#ifndef TP_NAME
#define TP_NAME "tgood"
#endif

/* Can value v go at cell i of the n x n grid g? */
TP_UNUSED static int tp_fits(const uint8_t *g, uint32_t n, uint32_t i, uint8_t v)
{
    uint32_t b = sdk_box_side(n), r = i / n, c = i % n;
    uint32_t br = r / b * b, bc = c / b * b;

    for (uint32_t k = 0; k < n; k++) {
        if (g[r * n + k] == v || g[k * n + c] == v)
            return 0;
        if (g[(br + k / b) * n + bc + k % b] == v)
            return 0;
    }
    return 1;
}

TP_UNUSED static void tp_search(uint8_t *g, uint32_t i, struct sdk_job *job)
{
    uint32_t cells = job->n * job->n;

    while (i < cells && g[i])
        i++;
    if (i == cells) {
        if (job->count++ == 0)
            memcpy(job->solution, g, cells);
        return;
    }
    for (uint8_t v = 1; v <= job->n && job->count < job->limit; v++) {
        if (!tp_fits(g, job->n, i, v))
            continue;
        job->guesses++;
        g[i] = v;
        tp_search(g, i + 1, job);
        g[i] = 0;
    }
}

TP_UNUSED static int good_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    uint8_t g[SDK_MAX_CELLS];

    (void)state;
    (void)host;
    memcpy(g, job->cells, (size_t)job->n * job->n);
    job->count = 0;
    job->guesses = 0;
    tp_search(g, 0, job);
    return job->count ? SDK_SOLVED : SDK_UNSOLVABLE;
}

TP_UNUSED static int good_init(const struct sdk_host *host, void **state)
{
    (void)state;
    host->log(host->ctx, SDK_LOG_INFO, "hello from init");
    return 0;
}

TP_UNUSED static int fail_init(const struct sdk_host *host, void **state)
{
    (void)host;
    (void)state;
    return -EIO;
}

/* The liar: job->limit picks the lie.
 *   1 wrong values     2 count > limit      3 status 42
 *   4 SOLVED, count 0  5 UNSOLVABLE, count 1  6 SDK_FAILED
 *   7 a valid grid that ignores the givens
 *   8 honest UNSOLVABLE, after logging one line
 * and four that tamper with the job so that the answer would pass a check
 * that read the job back after the call:
 *   9 writes the pattern grid into the givens (cells is const only by
 *     declaration) and returns it
 *  10 points cells at an empty grid and returns the pattern grid
 *  11 sets n to 4 and returns a 4x4 pattern grid for a larger puzzle
 *  12 raises limit to 100 and reports 50 solutions
 * and 13 SDK_EXHAUSTED (a budget of guesses spent: a lie unless the job
 * set one). */
/* The pattern grid: row r is 1..n shifted by (r % b) * b + r / b. */
TP_UNUSED static void tp_pattern(uint8_t *g, uint32_t n)
{
    uint32_t b = sdk_box_side(n);

    for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 0; c < n; c++)
            g[r * n + c] = (uint8_t)((c + (r % b) * b + r / b) % n + 1);
}

TP_UNUSED static const uint8_t tp_empty[SDK_MAX_CELLS]; /* constant, all blank */

/* Lies 9..12 (see liar_solve).  Returns the status to report. */
TP_UNUSED static int tamper_solve(struct sdk_job *job)
{
    switch (job->limit) {
    case 9:
        tp_pattern((uint8_t *)(uintptr_t)job->cells, job->n);
        break;
    case 10:
        job->cells = tp_empty;
        break;
    case 11:
        job->n = 4;
        break;
    default:
        job->limit = 100;
        tp_pattern(job->solution, job->n);
        job->count = 50;
        return SDK_SOLVED;
    }
    tp_pattern(job->solution, job->n);
    return SDK_SOLVED;
}

TP_UNUSED static int liar_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    uint32_t n = job->n;

    (void)state;
    memset(job->solution, 1, (size_t)n * n);
    job->count = 1;
    switch (job->limit) {
    case 1:
        return SDK_SOLVED;
    case 2:
        job->count = 3;
        return SDK_SOLVED;
    case 3:
        return 42;
    case 4:
        job->count = 0;
        return SDK_SOLVED;
    case 5:
        return SDK_UNSOLVABLE;
    case 6:
        return SDK_FAILED;
    case 7:
        tp_pattern(job->solution, n);
        return SDK_SOLVED;
    case 9:
    case 10:
    case 11:
    case 12:
        return tamper_solve(job);
    case 13:
        job->count = 0;
        return SDK_EXHAUSTED;
    default:
        job->count = 0;
        host->log(host->ctx, SDK_LOG_WARNING, "nothing to say");
        return SDK_UNSOLVABLE;
    }
}

#if TP_KIND == TP_KIND_LIAR
#define TP_SOLVE liar_solve
#define TP_SIZES SDK_SIZE_ALL
#elif TP_KIND == TP_KIND_NOSOLVE
#define TP_SOLVE NULL
#else
#define TP_SOLVE good_solve
#endif

#ifndef TP_SIZES
#define TP_SIZES (TP_KIND == TP_KIND_NOSIZES ? 0u : SDK_SIZE_4)
#endif

static const struct sdk_plugin tp_desc = {
    .abi_major = TP_KIND == TP_KIND_BADABI ? 99 : SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = TP_KIND == TP_KIND_SMALL ? 8 : sizeof(struct sdk_plugin),
    .name = TP_KIND == TP_KIND_BADNAME    ? "Bad Name"
            : TP_KIND == TP_KIND_LIAR     ? "liar"
            : TP_KIND == TP_KIND_INITFAIL ? "initfail"
                                          : TP_NAME,
    .version = TP_KIND == TP_KIND_CRVER     ? "1.0\r"
               : TP_KIND == TP_KIND_LONGVER ? "0123456789abcdef0123456789abcdef"
                                            : "0",
    /* The good one's has a multiplication sign: valid UTF-8 is welcome. */
    .description = TP_KIND == TP_KIND_ESCDESC  ? "test \x1b[31mplugin"
                   : TP_KIND == TP_KIND_LATIN1 ? "caf\xe9 plugin"
                   : TP_KIND == TP_KIND_C1DESC ? "test\xc2\x85plugin"
                                               : "test plugin, 4\xc3\x97"
                                                 "4 only",
    .sizes = TP_SIZES,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT,
    .init = TP_KIND == TP_KIND_INITFAIL ? fail_init : good_init,
    .fini = NULL,
    .solve = TP_SOLVE,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return TP_KIND == TP_KIND_NULLENTRY ? NULL : &tp_desc;
}
