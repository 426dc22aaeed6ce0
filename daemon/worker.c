/* worker.c -- one plugin in a process of its own (sudokud --plugin-worker).
 *
 * The daemon (isolate.c) starts this with the socket at fd 3 and the
 * shared slot at fd 4.  The worker asks to die with the daemon, loads the
 * plugin through the same checks as the daemon (core/load.c), locks itself
 * down (no new privileges; the seccomp filter of seccomp.c, installed
 * after the plugin is loaded and the slot mapped), says it is
 * ready, and then serves one job at a time: a length arrives, the job is
 * read from the slot (core/marshal.c, every field checked), the plugin
 * runs on the worker's own copy, the answer goes back into the slot and
 * its length onto the socket.  The end of the socket ends the worker.
 *
 * Nothing here is trusted by the daemon: a plugin may do anything to this
 * process; the daemon checks every answer and outlives every crash.
 */
#define _GNU_SOURCE /* on_exit */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/host.h"
#include "core/marshal.h"
#include "daemon/isolate.h"
#include "daemon/seccomp.h"

/* What one worker keeps between jobs. */
struct worker {
    const struct host_plugin *p; /* the one plugin */
    int sock;                    /* to the daemon */
    uint8_t *slot;               /* shared with the daemon */
    size_t slot_size;            /* bytes in slot */
    struct marshal_job solve;    /* the job in hand */
    struct marshal_explain exp;  /* the explain job in hand */
};

/* host_log_fn: warnings and errors (a plugin's own lines among them) go to
 * the daemon's stderr as single writes; the load's info lines are the
 * daemon's to say. */
static void worker_log(void *ctx, int level, const char *msg)
{
    char line[600];
    int len;

    (void)ctx;
    if (level > SDK_LOG_WARNING)
        return;
    len = snprintf(line, sizeof(line), "sudokud worker %d: %s\n", (int)getpid(), msg);
    if (len > (int)sizeof(line))
        len = (int)sizeof(line);
    if (write(STDERR_FILENO, line, (size_t)len) < 0)
        return; /* nowhere else to say it */
}

/* on_exit handler: a plugin that calls exit() ends its worker here, at
 * once, with its status.  Registered as the worker starts, so it runs before every
 * handler a sanitizer runtime registered at start-up: LeakSanitizer's
 * at-exit check would start a tracer (clone of a new process, ptrace)
 * that the seccomp filter refuses, and the worker would die with LSan's
 * fatal error instead of the plugin's status.  A leak check of a process
 * that a plugin chose to end would tell nothing anyway; the worker's own
 * ends already use _exit().  The same in every build, so a plugin's exit()
 * is reported the same way everywhere. */
static void end_now(int status, void *arg)
{
    (void)arg;
    _exit(status);
}

static int say(int sock, uint32_t v)
{
    return send(sock, &v, sizeof(v), MSG_NOSIGNAL) == (ssize_t)sizeof(v) ? 0 : -EPIPE;
}

/* Run the job of len bytes in the slot.  Returns the answer's length, 0
 * for a message that is not a job. */
static uint32_t serve(struct worker *wk, uint32_t len)
{
    uint8_t *msg = wk->slot + ISOLATE_SLOT_HEAD;
    size_t cap = wk->slot_size - ISOLATE_SLOT_HEAD;
    const sdk_atomic_int *cancel = (const sdk_atomic_int *)(const void *)wk->slot;
    long out = 0;

    if (len > cap)
        return 0;
    switch (marshal_kind(msg, len)) {
    case MARSHAL_SOLVE:
        if (marshal_get_job(msg, len, &wk->solve) == 0) {
            int status;
            wk->solve.job.cancel = cancel;
            status = host_plugin_call_solve(wk->p, &wk->solve.job);
            out = marshal_put_solved(msg, cap, status, &wk->solve.job);
        }
        break;
    case MARSHAL_EXPLAIN:
        if (marshal_get_explain(msg, len, &wk->exp) == 0) {
            int rc;
            wk->exp.job.cancel = cancel;
            rc = host_plugin_call_explain(wk->p, &wk->exp.job);
            out = marshal_put_explained(msg, cap, rc, &wk->exp.job);
        }
        break;
    default:
        break;
    }
    return out > 0 ? (uint32_t)out : 0;
}

/* Map the slot at fd.  Returns 0 or -errno. */
static int map_slot(struct worker *wk, int fd)
{
    struct stat st;
    void *m;

    if (fstat(fd, &st) < 0 || st.st_size < ISOLATE_SLOT_HEAD + 64)
        return -EINVAL;
    m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -errno;
    wk->slot = m;
    wk->slot_size = (size_t)st.st_size;
    close(fd);
    return 0;
}

int isolate_worker_main(int argc, char **argv)
{
    struct worker *wk;
    struct host *h;
    sigset_t none;
    uint32_t len;
    int rc;

    /* Die with the daemon (one gone before this line closed the socket:
     * the first recv() ends the worker). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (argc != 4)
        _exit(2);
    wk = calloc(1, sizeof(*wk));
    h = host_new(worker_log, NULL);
    if (!wk || !h)
        _exit(1); /* the process ends: nothing to free */
    on_exit(end_now, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL); /* the daemon's held signals (server.h) */
    wk->sock = atoi(argv[2]);
    rc = map_slot(wk, wk->sock + 1);
    if (rc == 0)
        rc = host_load_file(h, argv[3]);
    wk->p = host_plugin_at(h, 0);
    if (rc == 0)
        rc = seccomp_lock_down(wk->sock);
    if (say(wk->sock, rc == 0 ? 0u : (uint32_t)-rc) < 0 || rc != 0)
        _exit(1);
    while (recv(wk->sock, &len, sizeof(len), 0) == (ssize_t)sizeof(len))
        if (say(wk->sock, serve(wk, len)) < 0)
            break;
    /* The daemon went: leave without running the plugin's fini or any
     * exit handler (the seccomp filter would refuse what they might do). */
    _exit(0);
}
