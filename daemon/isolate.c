/* isolate.c -- the daemon's end of the plugin worker processes (isolate.h).
 *
 * Each isolated plugin has a struct iso_plugin: its idle workers, how many
 * are alive, its recent crashes and the technique names its explanations
 * used (kept for the life of the daemon: answers point at them).  A call
 * takes an idle worker (or starts one, or waits for one), puts the job
 * into the worker's slot (core/marshal.c), sends the message's length and
 * waits for the answer's length, watching the job's cancel flag and
 * deadline meanwhile.  The worker's slot is the worker's memory too: what
 * comes back is read once, checked by marshal.c, then by the host.
 *
 *   slot (memfd, ISOLATE_SLOT_SIZE, mapped by both):
 *     [0, 64)   atomic cancel flag, the daemon's copy of the job's
 *     [64, ...) the message: the job, then the answer over it
 *
 * Processes are started with posix_spawn() of /proc/self/fd/N, N a
 * descriptor of /proc/self/exe opened at start (the daemon's own binary,
 * even when the file was replaced), socket at fd 3, slot at 4.  Not of
 * /proc/self/exe itself: under valgrind that names valgrind's tool, which
 * refuses to run, while valgrind answers an open of /proc/self/exe with
 * the program it runs; so the workers of a daemon under memcheck run
 * natively, as with --trace-children=no they should.
 */
#define _GNU_SOURCE /* memfd_create, ppoll */
#include "daemon/isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/host.h"
#include "core/marshal.h"
#include "core/sha256.h"
#include "daemon/log.h"
#include "daemon/seccomp.h"
#include "util/clock.h"

extern char **environ;

#define ISO_START_MS  10000     /* a worker has this long to load its plugin */
#define ISO_TICK_NS   10000000u /* while a job runs, its cancel flag is looked at this often */
#define ISO_NAMES_MAX 256       /* technique names one plugin may use */
#define ISO_REAP_MS   50        /* a dying worker gets this long to exit before SIGKILL */
#define ISO_MSG_CAP   (ISOLATE_SLOT_SIZE - ISOLATE_SLOT_HEAD)

/* One worker process. */
struct iso_worker {
    struct iso_worker *next; /* idle list */
    pid_t pid;               /* the process */
    int sock;                /* our end of its socketpair */
    uint8_t *slot;           /* its shared memory, ISOLATE_SLOT_SIZE bytes */
};

/* One isolated plugin. */
struct iso_plugin {
    struct isolate *iso;                /* owner */
    const struct host_plugin *p;        /* the plugin (the daemon's copy: descriptor only) */
    pthread_mutex_t lock;               /* everything below */
    pthread_cond_t freed;               /* a worker became idle, or one fewer lives */
    struct iso_worker *idle;            /* idle workers */
    unsigned live;                      /* workers started and not yet dropped */
    uint64_t crashes[HOST_CRASH_LIMIT]; /* when the last crashes were, ns, a ring */
    unsigned crash_next;                /* next ring slot */
    int is_disabled;                    /* after HOST_CRASH_LIMIT crashes in the window */
    const char *names[ISO_NAMES_MAX];   /* technique names seen, owned */
    unsigned names_len;                 /* in names */
};

struct isolate {
    struct host *host;          /* the plugins' host */
    unsigned max_workers;       /* per plugin */
    struct iso_plugin *plugins; /* isolated ones */
    size_t len;                 /* in plugins */
    char exe[32];               /* /proc/self/fd/N: the daemon's binary */
    int exe_fd;                 /* N, or -1 */
};

/* ----------------------------------------------------------------- modes */

int isolate_parse_mode(const char *text, enum isolate_mode *out)
{
    static const char *const words[] = {"none", "third-party", "all"};

    for (int i = 0; i < 3; i++) {
        if (strcmp(text, words[i]) == 0) {
            *out = (enum isolate_mode)i;
            return 0;
        }
    }
    return -EINVAL;
}

const char *isolate_mode_name(enum isolate_mode mode)
{
    return mode == ISOLATE_NONE ? "none" : mode == ISOLATE_ALL ? "all" : "third-party";
}

int isolate_is_builtin(const void *p)
{
    char hex[SHA256_HEX];

    sha256_hex(host_plugin_sha256(p), hex);
    for (size_t i = 0; sudokud_builtin_plugins[i]; i++)
        if (strcmp(sudokud_builtin_plugins[i], hex) == 0)
            return 1;
    return 0;
}

/* --------------------------------------------------------------- workers */

static atomic_int *slot_cancel(const struct iso_worker *w)
{
    return (atomic_int *)(void *)w->slot;
}

static uint8_t *slot_msg(const struct iso_worker *w)
{
    return w->slot + ISOLATE_SLOT_HEAD;
}

/* fd moved to a number >= 10 (close-on-exec), so that the spawn's dup2 to
 * 3 and 4 cannot overwrite the other one.  Returns it, or -errno. */
static int high_fd(int fd)
{
    int hi = fd >= 10 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 10);
    int err = errno;

    if (hi != fd)
        close(fd);
    return hi >= 0 ? hi : -err;
}

/* The memfd's pages, mapped shared: the first use of the new descriptor.
 * Kept apart from slot_new so that scripts/tsan.supp can name exactly this
 * call (see there).  Returns the mapping, or MAP_FAILED with errno set. */
static void *slot_map(int fd)
{
    return mmap(NULL, ISOLATE_SLOT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

/* The slot: a sealed-size memfd mapped here.  Returns its fd or -errno. */
static int slot_new(struct iso_worker *w)
{
    int fd = memfd_create("sudokud-slot", MFD_CLOEXEC);
    void *m;

    if (fd < 0)
        return -errno;
    if (ftruncate(fd, ISOLATE_SLOT_SIZE) < 0)
        goto fail;
    m = slot_map(fd);
    if (m == MAP_FAILED)
        goto fail;
    w->slot = m;
    return high_fd(fd);
fail:
    close(fd);
    return -errno;
}

static void worker_free(struct iso_worker *w)
{
    if (!w)
        return;
    if (w->sock >= 0)
        close(w->sock);
    if (w->slot)
        munmap(w->slot, ISOLATE_SLOT_SIZE);
    free(w);
}

/* Wait for w's process to end (it is dying: its socket closed); SIGKILL
 * it when it lingers.  Returns its wait status. */
static int reap(struct iso_worker *w)
{
    int status = 0;

    for (int i = 0; i < ISO_REAP_MS; i++) {
        pid_t got = waitpid(w->pid, &status, WNOHANG);
        if (got == w->pid || (got < 0 && errno != EINTR))
            return status;
        usleep(1000);
    }
    kill(w->pid, SIGKILL);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

/* Kill w (it overran) and reap it. */
static void worker_kill(struct iso_worker *w)
{
    kill(w->pid, SIGKILL);
    (void)reap(w);
}

/* Wait up to timeout_ns for a length on w's socket.  Returns 1 with *len,
 * 0 on timeout, or -ECHILD when the worker's end is gone. */
static int wait_len(const struct iso_worker *w, uint64_t timeout_ns, uint32_t *len)
{
    struct pollfd pfd = {.fd = w->sock, .events = POLLIN};
    struct timespec ts = {(time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u)};
    int rc = ppoll(&pfd, 1, &ts, NULL);
    ssize_t got;

    if (rc == 0 || (rc < 0 && errno == EINTR))
        return 0;
    got = recv(w->sock, len, sizeof(*len), MSG_DONTWAIT);
    if (got == (ssize_t)sizeof(*len))
        return 1;
    if (got < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    return -ECHILD;
}

/* Start a worker for ip.  Returns 0 with *out, or a negative errno: -ECHILD
 * when it died while loading the plugin (w reaped, *out the dead worker
 * for the crash report), -EAGAIN when it refused or took too long. */
static int worker_start(struct iso_plugin *ip, struct iso_worker **out)
{
    struct iso_worker *w = calloc(1, sizeof(*w));
    posix_spawn_file_actions_t fa;
    char fdarg[16];
    int sv[2] = {-1, -1}, slot = -1, rc;
    uint32_t ready = 0;

    *out = w;
    if (!w)
        return -ENOMEM;
    w->sock = -1;
    slot = slot_new(w);
    if (slot < 0)
        return slot;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        rc = -errno;
        goto done;
    }
    w->sock = sv[0];
    sv[1] = high_fd(sv[1]);
    snprintf(fdarg, sizeof(fdarg), "%d", ISOLATE_WORKER_FD);
    {
        char *argv[] = {"sudokud", "--plugin-worker", fdarg, ip->p->path, NULL};
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, sv[1], ISOLATE_WORKER_FD);
        posix_spawn_file_actions_adddup2(&fa, slot, ISOLATE_WORKER_FD + 1);
        rc = sv[1] < 0 ? -EMFILE : -posix_spawn(&w->pid, ip->iso->exe, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    if (rc < 0)
        goto done;
    close(sv[1]);
    sv[1] = -1;
    rc = wait_len(w, (uint64_t)ISO_START_MS * 1000000u, &ready);
    if (rc == 1 && ready == 0)
        rc = 0;
    else if (rc == 0 || rc == 1) {
        log_msg(SDK_LOG_ERR, "plugin %s: its worker process could not load it%s", ip->p->desc->name,
                rc == 0 ? " in time" : "");
        worker_kill(w);
        rc = -EAGAIN;
    }
done:
    if (sv[1] >= 0)
        close(sv[1]);
    if (slot >= 0)
        close(slot);
    return rc;
}

/* ------------------------------------------------------------ supervision */

/* Record a crash of ip now; disable it at HOST_CRASH_LIMIT within the
 * window.  Under ip->lock. */
static void note_crash(struct iso_plugin *ip)
{
    uint64_t now = clock_now_ns(), oldest;

    ip->crashes[ip->crash_next] = now;
    ip->crash_next = (ip->crash_next + 1) % HOST_CRASH_LIMIT;
    oldest = ip->crashes[ip->crash_next]; /* the ring's oldest entry, 0 when not full */
    if (oldest && now - oldest <= (uint64_t)HOST_CRASH_WINDOW_S * 1000000000u && !ip->is_disabled) {
        ip->is_disabled = 1;
        log_msg(SDK_LOG_ERR,
                "plugin %s disabled after %d crashes within %d s: its requests are answered "
                "unsupported until a reload (SIGHUP)",
                ip->p->desc->name, HOST_CRASH_LIMIT, HOST_CRASH_WINDOW_S);
    }
}

/* w died (its socket closed, or its answer was malformed): reap it, log
 * how it ended, count the crash, drop it. */
static void worker_crashed(struct iso_plugin *ip, struct iso_worker *w, const char *what)
{
    int status = reap(w);
    char how[96];

    if (WIFSIGNALED(status))
        snprintf(how, sizeof(how), "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(how, sizeof(how), "exit status %d", WEXITSTATUS(status));
    log_msg(SDK_LOG_ERR, "plugin %s crashed %s: worker %d %s; replaced", ip->p->desc->name, what,
            (int)w->pid, how);
    worker_free(w);
    pthread_mutex_lock(&ip->lock);
    note_crash(ip);
    ip->live--;
    pthread_cond_signal(&ip->freed);
    pthread_mutex_unlock(&ip->lock);
}

/* Drop w without counting a crash (killed for overrunning). */
static void worker_drop(struct iso_plugin *ip, struct iso_worker *w)
{
    worker_free(w);
    pthread_mutex_lock(&ip->lock);
    ip->live--;
    pthread_cond_signal(&ip->freed);
    pthread_mutex_unlock(&ip->lock);
}

static void worker_give(struct iso_plugin *ip, struct iso_worker *w)
{
    pthread_mutex_lock(&ip->lock);
    w->next = ip->idle;
    ip->idle = w;
    pthread_cond_signal(&ip->freed);
    pthread_mutex_unlock(&ip->lock);
}

/* An idle worker, a new one, or the next one freed.  Returns 0 with *out,
 * -ENOTRECOVERABLE (disabled), -ECHILD (a new one crashed while loading:
 * counted), or another negative errno. */
static int worker_take(struct iso_plugin *ip, struct iso_worker **out)
{
    int rc;

    pthread_mutex_lock(&ip->lock);
    while (!ip->is_disabled && !ip->idle && ip->live >= ip->iso->max_workers)
        pthread_cond_wait(&ip->freed, &ip->lock);
    if (ip->is_disabled || ip->idle) {
        *out = ip->idle;
        if (ip->idle)
            ip->idle = ip->idle->next;
        pthread_mutex_unlock(&ip->lock);
        return *out ? 0 : -ENOTRECOVERABLE;
    }
    ip->live++;
    pthread_mutex_unlock(&ip->lock);
    rc = worker_start(ip, out);
    if (rc == -ECHILD) {
        worker_crashed(ip, *out, "while loading");
    } else if (rc < 0) {
        worker_drop(ip, *out);
        if (rc != -EAGAIN)
            log_msg(SDK_LOG_ERR, "plugin %s: cannot start a worker: %s", ip->p->desc->name,
                    strerror(-rc));
    }
    return rc;
}

/* Send w the message of len bytes in its slot and wait for the answer's
 * length in *out_len, passing on the job's cancel flag.  Returns 0; or the
 * worker is gone: -ECHILD (crashed, counted), SDK_TIMEDOUT or
 * SDK_CANCELLED (killed ISOLATE_KILL_MS past the deadline or the cancel). */
static int exchange(struct iso_plugin *ip, struct iso_worker *w, uint32_t len,
                    const sdk_atomic_int *cancel, uint64_t deadline_ns, uint32_t *out_len)
{
    const uint64_t grace = (uint64_t)ISOLATE_KILL_MS * 1000000u;
    uint64_t kill_at = deadline_ns ? deadline_ns + grace : UINT64_MAX;
    int stop = SDK_TIMEDOUT, rc;

    atomic_store(slot_cancel(w), 0);
    if (send(w->sock, &len, sizeof(len), MSG_NOSIGNAL) != (ssize_t)sizeof(len)) {
        worker_crashed(ip, w, "while idle");
        return -ECHILD;
    }
    while ((rc = wait_len(w, ISO_TICK_NS, out_len)) == 0) {
        uint64_t now = clock_now_ns();
        if (cancel && atomic_load(cancel) && !atomic_load(slot_cancel(w))) {
            atomic_store(slot_cancel(w), 1);
            if (now + grace < kill_at) {
                kill_at = now + grace;
                stop = SDK_CANCELLED;
            }
        }
        if (now >= kill_at)
            break;
    }
    if (rc == 1)
        return 0;
    if (rc < 0) {
        worker_crashed(ip, w, "under a job");
        return -ECHILD;
    }
    log_msg(SDK_LOG_WARNING, "plugin %s: worker %d killed, still running %d ms past its %s",
            ip->p->desc->name, (int)w->pid, ISOLATE_KILL_MS,
            stop == SDK_CANCELLED ? "cancel" : "deadline");
    worker_kill(w);
    worker_drop(ip, w);
    return stop;
}

/* ---------------------------------------------------------------- runner */

static int iso_solve(void *ctx, const struct host_plugin *p, struct sdk_job *job)
{
    struct iso_plugin *ip = ctx;
    struct iso_worker *w;
    uint32_t len = 0;
    long put;
    int rc, status;

    (void)p;
    rc = worker_take(ip, &w);
    if (rc < 0)
        return rc;
    put = marshal_put_job(slot_msg(w), ISO_MSG_CAP, job);
    if (put < 0) {
        worker_give(ip, w);
        return -ENOMEM;
    }
    rc = exchange(ip, w, (uint32_t)put, job->cancel, job->deadline_ns, &len);
    if (rc != 0)
        return rc;
    if (len > ISO_MSG_CAP || marshal_get_solved(slot_msg(w), len, job, &status) < 0) {
        kill(w->pid, SIGKILL);
        worker_crashed(ip, w, "(a malformed answer)");
        return -ECHILD;
    }
    worker_give(ip, w);
    return status;
}

/* marshal_intern_fn: the plugin's table of technique names, for answers
 * that outlive the call.  NULL when the table is full or out of memory. */
static const char *intern(void *ctx, const char *name)
{
    struct iso_plugin *ip = ctx;
    const char *got = NULL;

    pthread_mutex_lock(&ip->lock);
    for (unsigned i = 0; i < ip->names_len && !got; i++)
        if (strcmp(ip->names[i], name) == 0)
            got = ip->names[i];
    if (!got && ip->names_len < ISO_NAMES_MAX) {
        got = strdup(name);
        if (got)
            ip->names[ip->names_len++] = got;
    }
    pthread_mutex_unlock(&ip->lock);
    return got;
}

static int iso_explain(void *ctx, const struct host_plugin *p, struct sdk_explain *job)
{
    struct iso_plugin *ip = ctx;
    struct iso_worker *w;
    uint32_t len = 0;
    long put;
    int rc, out;

    (void)p;
    rc = worker_take(ip, &w);
    if (rc < 0)
        return rc;
    put = marshal_put_explain(slot_msg(w), ISO_MSG_CAP, job);
    if (put < 0) {
        worker_give(ip, w);
        return -ENOMEM;
    }
    rc = exchange(ip, w, (uint32_t)put, job->cancel, job->deadline_ns, &len);
    if (rc == SDK_TIMEDOUT || rc == SDK_CANCELLED) {
        job->status = rc == SDK_TIMEDOUT ? SDK_EXPLAIN_TIMEDOUT : SDK_EXPLAIN_CANCELLED;
        job->steps_len = job->placements_len = job->eliminations_len = 0;
        job->cells_out_len = job->text_len = 0;
        return 0;
    }
    if (rc != 0)
        return rc;
    if (len > ISO_MSG_CAP || marshal_get_explained(slot_msg(w), len, job, &out, intern, ip) < 0) {
        kill(w->pid, SIGKILL);
        worker_crashed(ip, w, "(a malformed answer)");
        return -ECHILD;
    }
    worker_give(ip, w);
    return out;
}

static const struct host_runner iso_runner = {.solve = iso_solve, .explain = iso_explain};

/* ------------------------------------------------------------- lifecycle */

static int is_isolated(const struct host_plugin *p, enum isolate_mode mode)
{
    return mode == ISOLATE_ALL || (mode == ISOLATE_THIRD_PARTY && !isolate_is_builtin(p));
}

int isolate_new(struct host *h, enum isolate_mode mode, unsigned max_workers, struct isolate **out)
{
    struct isolate *iso = calloc(1, sizeof(*iso));
    size_t count = host_count(h);

    *out = NULL;
    if (!iso || !(iso->plugins = calloc(count ? count : 1, sizeof(*iso->plugins)))) {
        free(iso);
        return -ENOMEM;
    }
    iso->host = h;
    iso->max_workers = max_workers ? max_workers : 1;
    /* >= 10, so that the spawn's dup2 to 3 and 4 leaves it alone; exec
     * reads the path before it closes the descriptor */
    iso->exe_fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (iso->exe_fd >= 0)
        iso->exe_fd = high_fd(iso->exe_fd);
    if (iso->exe_fd >= 0)
        snprintf(iso->exe, sizeof(iso->exe), "/proc/self/fd/%d", iso->exe_fd);
    else
        snprintf(iso->exe, sizeof(iso->exe), "/proc/self/exe");
    for (size_t i = 0; i < count; i++) {
        const struct host_plugin *p = host_plugin_at(h, i);
        struct iso_plugin *ip = &iso->plugins[iso->len];
        if (!isolate_is_builtin(p))
            host_deny_prompt(p);
        if (!is_isolated(p, mode))
            continue;
        ip->iso = iso;
        ip->p = p;
        pthread_mutex_init(&ip->lock, NULL);
        pthread_cond_init(&ip->freed, NULL);
        host_set_runner(p, &iso_runner, ip);
        iso->len++;
        log_msg(SDK_LOG_INFO, "plugin %s runs in worker processes (isolate %s)", p->desc->name,
                isolate_mode_name(mode));
    }
    if (iso->len)
        log_msg(SDK_LOG_INFO, "plugin workers: %s", seccomp_describe());
    *out = iso;
    return 0;
}

void isolate_reenable(struct isolate *iso)
{
    for (size_t i = 0; iso && i < iso->len; i++) {
        struct iso_plugin *ip = &iso->plugins[i];
        pthread_mutex_lock(&ip->lock);
        if (ip->is_disabled)
            log_msg(LOG_LVL_NOTICE, "plugin %s enabled again", ip->p->desc->name);
        ip->is_disabled = 0;
        memset(ip->crashes, 0, sizeof(ip->crashes));
        pthread_cond_broadcast(&ip->freed);
        pthread_mutex_unlock(&ip->lock);
    }
}

void isolate_free(struct isolate *iso)
{
    if (!iso)
        return;
    for (size_t i = 0; i < iso->len; i++) {
        struct iso_plugin *ip = &iso->plugins[i];
        host_set_runner(ip->p, NULL, NULL);
        while (ip->idle) {
            struct iso_worker *w = ip->idle;
            ip->idle = w->next;
            close(w->sock); /* its recv() sees the end and it exits */
            w->sock = -1;
            (void)reap(w);
            worker_free(w);
        }
        for (unsigned k = 0; k < ip->names_len; k++)
            free((void *)(uintptr_t)ip->names[k]);
        pthread_cond_destroy(&ip->freed);
        pthread_mutex_destroy(&ip->lock);
    }
    if (iso->exe_fd >= 0)
        close(iso->exe_fd);
    free(iso->plugins);
    free(iso);
}
