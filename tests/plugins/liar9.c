/* liar9.c -- a deliberately bad solver plugin for the daemon tests.
 *
 * It declares only 9x9 (so a 4x4 request to it is `unsupported`) and
 * "solves" by returning the puzzle itself as the solution, which the plugin
 * host must catch (so a 9x9 request to it is `internal`).  Built next to the
 * tests, never into the plugin directory.
 */
#include <string.h>

#include <sudoku/plugin.h>

static int liar_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    (void)state;
    (void)host;
    memcpy(job->solution, job->cells, (size_t)job->n * job->n);
    job->count = 1;
    job->guesses = 0;
    return SDK_SOLVED;
}

static const struct sdk_plugin liar_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "liar9",
    .version = "0",
    .description = "test plugin: 9x9 only, answers wrongly",
    .sizes = SDK_SIZE_9,
    .caps = SDK_CAP_REENTRANT,
    .solve = liar_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &liar_plugin;
}
