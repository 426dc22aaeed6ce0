/* spin9.c -- a solver plugin that never gives up, for the stuck-worker tests.
 *
 * It ignores the cancel flag and the deadline and spins (yielding the CPU on
 * every turn, so a busy test machine is not starved) for SPIN_LIMIT_S
 * seconds, far longer than any test, then says it ran out of time.  It
 * declares SDK_CAP_REENTRANT but not SDK_CAP_PROMPT, so the daemon must
 * never try it on its event loop.  Built next to the tests, never into the
 * plugin directory; the daemon under test ends at SIGTERM without waiting
 * for it.
 */
#include <sched.h>

#include <sudoku/plugin.h>

#define SPIN_LIMIT_S 600u /* then give up: a safety net, never reached by a test */

static int spin_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    uint64_t end = sdk_now_ns() + SPIN_LIMIT_S * 1000000000ull;

    (void)state;
    (void)host;
    while (sdk_now_ns() < end)
        sched_yield();
    job->count = 0;
    job->guesses = 0;
    return SDK_TIMEDOUT;
}

static const struct sdk_plugin spin_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = "spin9",
    .version = "0",
    .description = "test plugin: 9x9 only, ignores its deadline and spins",
    .sizes = SDK_SIZE_9,
    .caps = SDK_CAP_REENTRANT,
    .solve = spin_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &spin_plugin;
}
