/* crash9.c -- solver plugins that break every rule, for the isolation tests.
 *
 * Built once per way of failing, CRASH_HOW choosing it (tests/daemon.cmake);
 * each plugin is named after its way and fails on every solve:
 *
 *   crash_segv     writes through a NULL pointer
 *   crash_exit     calls exit(7)
 *   crash_abort    calls abort()
 *   crash_overrun  writes 64 KiB past the end of its solution buffer
 *   crash_socket   opens a socket (the worker's seccomp filter kills it)
 *   crash_exec     runs /bin/true in its place (likewise)
 *   spin_prompt    claims SDK_CAP_PROMPT and SDK_CAP_CANCEL, then spins
 *                  without looking at either (yielding the CPU each turn)
 *
 * Built next to the tests, never into the plugin directory.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sudoku/plugin.h>

#define HOW_SEGV    1
#define HOW_EXIT    2
#define HOW_ABORT   3
#define HOW_OVERRUN 4
#define HOW_SOCKET  5
#define HOW_EXEC    6
#define HOW_SPIN    7

#define SPIN_LIMIT_S 600u /* a safety net, never reached by a test */

static int crash_solve(void *state, const struct sdk_host *host, struct sdk_job *job)
{
    (void)state;
    (void)host;
    switch (CRASH_HOW) {
    case HOW_SEGV:
        *(volatile int *)(uintptr_t)job->count = 1; /* count is 0: NULL */
        break;
    case HOW_EXIT:
        exit(7);
    case HOW_ABORT:
        abort();
    case HOW_OVERRUN:
        memset(job->solution, 0x55, (size_t)job->n * job->n + 65536);
        break;
    case HOW_SOCKET:
        if (socket(AF_INET, SOCK_STREAM, 0) >= 0)
            return SDK_FAILED;
        break;
    case HOW_EXEC: {
        char *const argv[] = {"true", NULL};
        execv("/bin/true", argv);
        break;
    }
    default: {
        uint64_t end = sdk_now_ns() + SPIN_LIMIT_S * 1000000000ull;
        while (sdk_now_ns() < end)
            sched_yield();
        break;
    }
    }
    job->count = 1;
    return SDK_SOLVED; /* whatever is in the solution: the host must refuse it */
}

static const struct sdk_plugin crash_plugin = {
    .abi_major = SDK_ABI_MAJOR,
    .abi_minor = SDK_ABI_MINOR,
    .struct_size = sizeof(struct sdk_plugin),
    .name = CRASH_NAME,
    .version = "0",
    .description = "test plugin: fails on every solve, badly",
    .sizes = SDK_SIZE_9,
    .caps = SDK_CAP_REENTRANT | SDK_CAP_CANCEL | SDK_CAP_PROMPT,
    .solve = crash_solve,
};

SDK_PLUGIN_EXPORT const struct sdk_plugin *sudoku_plugin_entry(void);

const struct sdk_plugin *sudoku_plugin_entry(void)
{
    return &crash_plugin;
}
