/* crash9.c -- solver plugins that break every rule, for the isolation tests.
 *
 * Built once per way of failing, CRASH_HOW choosing it (tests/daemon.cmake);
 * each plugin is named after its way and fails on every solve:
 *
 *   crash_segv     writes through a NULL pointer
 *   crash_exit     calls exit(7)
 *   crash_abort    calls abort()
 *   crash_overrun  writes 64 KiB past the end of its solution buffer
 *   crash_socket   opens a Unix socket and binds it to the marker path
 *   crash_exec     becomes /bin/sh, which writes the marker file
 *   crash_write    opens the marker file for writing (creating it)
 *   crash_fork     forks a child that creates the marker file
 *   crash_thread   starts a thread and joins it: not an escape, answers
 *                  SDK_TIMEDOUT when that worked, SDK_FAILED when not
 *   spin_prompt    claims SDK_CAP_PROMPT and SDK_CAP_CANCEL, then spins
 *                  without looking at either (yielding the CPU each turn)
 *
 * The marker path is $SUDOKU_CRASH9_DIR/<name>.  An escape that was refused
 * answers SDK_FAILED; one that got through leaves the marker behind (and
 * answers SDK_FAILED too, or never returns, for exec): the test looks for
 * the file.  The seccomp filter of an isolated worker refuses all four.
 *
 * Built next to the tests, never into the plugin directory.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sudoku/plugin.h>

#define HOW_SEGV    1
#define HOW_EXIT    2
#define HOW_ABORT   3
#define HOW_OVERRUN 4
#define HOW_SOCKET  5
#define HOW_EXEC    6
#define HOW_SPIN    7
#define HOW_WRITE   8
#define HOW_FORK    9
#define HOW_THREAD  10

#define SPIN_LIMIT_S 600u /* a safety net, never reached by a test */

/* The marker path in buf.  Returns 0, or -1 without SUDOKU_CRASH9_DIR. */
static int marker(char *buf, size_t size)
{
    const char *dir = getenv("SUDOKU_CRASH9_DIR");
    int len;

    if (!dir)
        return -1;
    len = snprintf(buf, size, "%s/%s", dir, CRASH_NAME);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

/* A Unix socket bound to the marker path (creating it). */
static int try_socket(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    if (fd < 0)
        return SDK_FAILED;
    if (strlen(path) < sizeof(sa.sun_path))
        memcpy(sa.sun_path, path, strlen(path) + 1);
    (void)bind(fd, (const struct sockaddr *)&sa, sizeof(sa));
    close(fd);
    return SDK_FAILED;
}

/* Write the marker file. */
static int try_write(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    if (fd < 0)
        return SDK_FAILED;
    (void)write(fd, "escaped\n", 8);
    close(fd);
    return SDK_FAILED;
}

/* A shell that writes the marker file, in this process's place. */
static int try_exec(const char *path)
{
    execl("/bin/sh", "sh", "-c", "echo escaped > \"$1\"", "sh", path, (char *)NULL);
    return SDK_FAILED;
}

/* A child process that writes the marker file. */
static int try_fork(const char *path)
{
    pid_t pid = fork();

    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        _exit(fd >= 0 ? 0 : 1);
    }
    if (pid > 0)
        (void)waitpid(pid, NULL, 0);
    return SDK_FAILED;
}

static void *idle_thread(void *arg)
{
    return arg;
}

/* SDK_TIMEDOUT when a thread could be started and joined. */
static int try_thread(void)
{
    pthread_t t;
    void *got = NULL;
    int here = 1;

    if (pthread_create(&t, NULL, idle_thread, &here) != 0)
        return SDK_FAILED;
    if (pthread_join(t, &got) != 0 || got != &here)
        return SDK_FAILED;
    return SDK_TIMEDOUT;
}

/* The escapes: each answers without solving. */
static int escape(void)
{
    char path[512];

    if (CRASH_HOW == HOW_THREAD)
        return try_thread();
    if (marker(path, sizeof(path)) < 0)
        return SDK_FAILED;
    switch (CRASH_HOW) {
    case HOW_SOCKET:
        return try_socket(path);
    case HOW_WRITE:
        return try_write(path);
    case HOW_EXEC:
        return try_exec(path);
    default:
        return try_fork(path);
    }
}

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
    case HOW_EXEC:
    case HOW_WRITE:
    case HOW_FORK:
    case HOW_THREAD:
        return escape();
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
