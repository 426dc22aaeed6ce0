/* daemon.c -- the daemon's side of a bench: its pid, memory, CPU, idle connections.
 *
 * What every run through sudokud reads about the daemon itself: its pid
 * (SO_PEERCRED on a connection to its socket), its resident memory (VmRSS,
 * VmHWM from /proc/PID/status) and CPU time (/proc/PID/stat), and the
 * footprint check of `sudoku-bench --idle-connections K`, which opens K
 * connections and reads the memory they cost.
 */
#define _GNU_SOURCE /* struct ucred */
#include "bench/daemon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <sudoku/client.h>

/* ---------------------------------------------------------------- footprint */

/* The pid of the process listening on path, from SO_PEERCRED.  Returns 0 or
 * a negative errno. */
static int peer_pid(const char *path, long long *pid)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    struct ucred cred;
    socklen_t len = sizeof(cred);
    char resolved[sizeof(sa.sun_path)];
    int fd, rc;

    rc = sudoku_client_socket_path(path, resolved, sizeof(resolved));
    if (rc < 0)
        return rc;
    memcpy(sa.sun_path, resolved, strlen(resolved) + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    rc = 0;
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
        rc = -errno;
    else
        *pid = cred.pid;
    close(fd);
    return rc;
}

/* Read the "Key:  N kB" line of /proc/pid/status.  Returns 0 or a negative errno. */
static int proc_status_kib(long long pid, const char *key, long long *kib)
{
    char path[64], line[256];
    size_t klen = strlen(key);
    FILE *f;
    int rc = -ENOENT;

    snprintf(path, sizeof(path), "/proc/%lld/status", pid);
    f = fopen(path, "r");
    if (!f)
        return -errno;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            *kib = strtoll(line + klen + 1, NULL, 10);
            rc = 0;
            break;
        }
    }
    fclose(f);
    return rc;
}

void daemon_memory(const char *path, long long *rss, long long *hwm)
{
    long long pid;

    *rss = *hwm = -1;
    if (peer_pid(path, &pid) < 0)
        return;
    if (proc_status_kib(pid, "VmRSS", rss) < 0)
        *rss = -1;
    if (proc_status_kib(pid, "VmHWM", hwm) < 0)
        *hwm = -1;
}

/* The CPU time (user + system, all threads) of the daemon on path, from
 * /proc/PID/stat.  Returns 0 or a negative errno. */
int daemon_cpu_ns(const char *path, uint64_t *ns)
{
    char file[64], buf[1024], *p;
    unsigned long long utime, stime;
    long long pid;
    long hz = sysconf(_SC_CLK_TCK);
    size_t n;
    FILE *f;
    int rc = peer_pid(path, &pid);

    if (rc < 0)
        return rc;
    snprintf(file, sizeof(file), "/proc/%lld/stat", pid);
    f = fopen(file, "r");
    if (!f)
        return -errno;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* fields 14 and 15, counted after the ")" that closes the name */
    p = strrchr(buf, ')');
    if (!p || hz <= 0 ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) !=
            2)
        return -EINVAL;
    *ns = (utime + stime) * (1000000000ull / (unsigned long long)hz);
    return 0;
}

/* ---------------------------------------------------------------- idle connections */

/* Open and ping k connections into cs[].  Returns 0 or DAEMON_UNREACHABLE. */
static int open_idle(const char *socket, unsigned k, struct sudoku_client **cs, char *err,
                     size_t err_size)
{
    struct sudoku_client_error cerr;

    for (unsigned i = 0; i < k; i++) {
        if (sudoku_client_connect(socket, &cs[i], &cerr) < 0 ||
            sudoku_client_ping(cs[i], NULL, &cerr) < 0) {
            snprintf(err, err_size, "connection %u of %u: %s", i + 1, k, cerr.message);
            return DAEMON_UNREACHABLE;
        }
    }
    return 0;
}

int daemon_idle(const char *socket, unsigned k, struct bench_idle_result *out, char *err,
                size_t err_size)
{
    struct sudoku_client **cs = calloc(k, sizeof(*cs));
    int rc = -ENOMEM;

    memset(out, 0, sizeof(*out));
    out->connections = k;
    snprintf(err, err_size, "out of memory");
    if (!cs)
        return rc;
    rc = peer_pid(socket, &out->daemon_pid);
    if (rc < 0) {
        snprintf(err, err_size, "cannot reach the daemon (%s): %s",
                 socket ? socket : "default socket", strerror(-rc));
        rc = DAEMON_UNREACHABLE;
        goto done;
    }
    rc = proc_status_kib(out->daemon_pid, "VmRSS", &out->daemon_rss_base_kib);
    if (rc == 0)
        rc = open_idle(socket, k, cs, err, err_size);
    if (rc == 0)
        rc = proc_status_kib(out->daemon_pid, "VmRSS", &out->daemon_rss_kib);
    if (rc == 0)
        rc = proc_status_kib(out->daemon_pid, "VmHWM", &out->daemon_hwm_kib);
    if (rc < 0 && rc != DAEMON_UNREACHABLE)
        snprintf(err, err_size, "/proc/%lld/status: %s", out->daemon_pid, strerror(-rc));
done:
    for (unsigned i = 0; i < k; i++)
        sudoku_client_free(cs[i]);
    free(cs);
    return rc;
}
