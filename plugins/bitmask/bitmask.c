/* bitmask.c -- the bitmask solver plugin: descriptor, job checks, dispatch.
 *
 * The default solver of sudokud.  Classic 9x9 jobs go to the band-oriented
 * solver in fast9.c (no heap, the speed path), and so do 9x9 X-sudoku and
 * windoku (extra houses on square boxes: bm_fast9_takes()); classic jobs of
 * every other side go to the generic candidate-mask solver in generic.c;
 * every other job with variant rules (any kind, any side) goes to
 * variant.c.  This file only checks that a job is well formed and picks
 * the engine; it keeps no state, so init/fini are not needed and solve()
 * is safe to call from any number of threads at once.
 */
#include "bitmask.h"

#include <stddef.h>

/* Returns 1 when the job can be handed to an engine: a supported side, the
 * buffers present, a positive limit and every cell in 0..n. */
static int bm_job_ok(const struct sdk_job *job)
{
    if (!job || job->size < offsetof(struct sdk_job, guesses) + sizeof(job->guesses))
        return 0;
    if (!sdk_box_side(job->n) || !job->cells || !job->solution || job->limit == 0)
        return 0;
    for (uint32_t c = 0; c < job->n * job->n; c++)
        if (job->cells[c] > job->n)
            return 0;
    return 1;
}

static int bm_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    (void)state;
    (void)host;
    if (!bm_job_ok(job))
        return SDK_FAILED;
    if (job->size >= offsetof(struct sdk_job, rules) + sizeof(job->rules) && job->rules)
        return job->n == 9 && bm_fast9_takes(job->rules) ? bm_fast9_solve(job, job->rules)
                                                         : bm_variant_solve(job);
    if (job->n == 9)
        return bm_fast9_solve(job, NULL);
    return bm_generic_solve(job);
}

static const struct sdk_plugin bm_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "bitmask",
    .version = "1.0",
    .description = "candidate bitmasks, singles propagation, fewest-candidates guessing (default)",
    .sizes = SDK_SIZE_ALL,
    .caps = SDK_CAP_COUNT | SDK_CAP_REENTRANT | SDK_CAP_CANCEL | SDK_CAP_PROMPT,
    .init = NULL,
    .fini = NULL,
    .solve = bm_solve,
    .explain = NULL,
    .explain_sizes = 0,
    .rules = SDK_RULE_ALL,
    .explain_rules = 0,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

/* The one exported symbol.  Returns a constant descriptor owned by the plugin. */
SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &bm_plugin;
}
