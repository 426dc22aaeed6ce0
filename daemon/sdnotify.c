/* sdnotify.c -- socket activation, readiness and watchdog for sudokud.
 *
 * Implements daemon/sdnotify.h twice over: with HAVE_LIBSYSTEMD the calls wrap
 * sd-daemon (sd_listen_fds, sd_is_socket_unix, sd_notify,
 * sd_watchdog_enabled); without it the same small protocol is spoken by hand,
 * so a daemon built without libsystemd still runs under systemd:
 *
 *   LISTEN_PID=<our pid> LISTEN_FDS=<n>   n inherited fds starting at 3
 *   NOTIFY_SOCKET=/path | @abstract       a datagram socket for "KEY=VALUE"
 *   WATCHDOG_USEC=<us> [WATCHDOG_PID=..]  ping at least every <us>
 *
 * Everything here is a cheap no-op when the variables are absent.  Nothing
 * allocates; nothing logs (the caller decides what a failure means).
 */
#include "daemon/sdnotify.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

#define SDN_LISTEN_FDS_START 3 /* first inherited fd, fixed by the protocol */

/* A listener fd that is not usable maps to a negative errno below -1, because
 * -1 means "not socket-activated" (and -EPERM happens to be -1). */
static int sdn_errno_result(int err)
{
    if (err >= 0)
        return err;
    return err == -1 ? -EINVAL : err;
}

#ifdef HAVE_LIBSYSTEMD

/* ---------------------------------------------------------------- libsystemd */

int sdn_listen_fd(void)
{
    int n = sd_listen_fds(1);

    if (n == 0)
        return -1;
    if (n < 0)
        return sdn_errno_result(n);
    if (n != 1)
        return -EMFILE;
    if (sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1, NULL, 0) <= 0)
        return -ENOTSOCK;
    return SD_LISTEN_FDS_START;
}

int sdn_notify(const char *state)
{
    int r;

    if (state == NULL)
        return -EINVAL;
    r = sd_notify(0, state);
    return r < 0 ? r : 0;
}

uint64_t sdn_watchdog_usec(void)
{
    uint64_t usec = 0;

    if (sd_watchdog_enabled(0, &usec) <= 0)
        return 0;
    return usec;
}

#else /* !HAVE_LIBSYSTEMD */

/* ------------------------------------------------------------------ by hand */

/* Parse a decimal environment value into *out.  Returns 0, -ENOENT when the
 * variable is unset, -EINVAL when it is not a plain number. */
static int sdn_env_u64(const char *name, unsigned long long *out)
{
    const char *s = getenv(name);
    char *end = NULL;
    unsigned long long v;

    if (s == NULL)
        return -ENOENT;
    if (*s < '0' || *s > '9')
        return -EINVAL;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        return -EINVAL;
    *out = v;
    return 0;
}

/* Whether the variable pid_var names this process (unset counts as yes when
 * absent_ok, as WATCHDOG_PID does; LISTEN_PID is mandatory). */
static int sdn_env_is_our_pid(const char *pid_var, int absent_ok)
{
    unsigned long long pid;
    int r = sdn_env_u64(pid_var, &pid);

    if (r == -ENOENT)
        return absent_ok;
    return r == 0 && pid == (unsigned long long)getpid();
}

/* 1 when fd is a listening AF_UNIX stream socket, else 0. */
static int sdn_is_unix_listener(int fd)
{
    struct stat st;
    struct sockaddr_un addr;
    socklen_t len = sizeof(addr);
    int type = 0, listening = 0;
    socklen_t olen = sizeof(int);

    if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
        return 0;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &olen) < 0 || type != SOCK_STREAM)
        return 0;
    olen = sizeof(int);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &olen) < 0 || !listening)
        return 0;
    memset(&addr, 0, sizeof(addr));
    if (getsockname(fd, (struct sockaddr *)&addr, &len) < 0)
        return 0;
    return addr.sun_family == AF_UNIX;
}

int sdn_listen_fd(void)
{
    unsigned long long n = 0;
    int is_ours = sdn_env_is_our_pid("LISTEN_PID", 0);
    int r = sdn_env_u64("LISTEN_FDS", &n);
    int flags;

    /* Like sd_listen_fds(1): the variables are for us only, never inherited. */
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    if (!is_ours || r == -ENOENT)
        return -1;
    if (r < 0 || n == 0)
        return -EINVAL;
    if (n != 1)
        return -EMFILE;
    flags = fcntl(SDN_LISTEN_FDS_START, F_GETFD);
    if (flags < 0)
        return -EBADF;
    if (fcntl(SDN_LISTEN_FDS_START, F_SETFD, flags | FD_CLOEXEC) < 0)
        return sdn_errno_result(-errno);
    if (!sdn_is_unix_listener(SDN_LISTEN_FDS_START))
        return -ENOTSOCK;
    return SDN_LISTEN_FDS_START;
}

/* Fill *addr from NOTIFY_SOCKET ("/path" or "@abstract").  Returns the
 * address length, 0 when unset, or a negative errno. */
static int sdn_notify_addr(struct sockaddr_un *addr)
{
    const char *s = getenv("NOTIFY_SOCKET");
    size_t len;

    if (s == NULL || *s == '\0')
        return 0;
    if (s[0] != '/' && s[0] != '@')
        return -EAFNOSUPPORT;
    len = strlen(s);
    if (len >= sizeof(addr->sun_path))
        return -ENAMETOOLONG;
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path, s, len);
    if (s[0] == '@')
        addr->sun_path[0] = '\0'; /* abstract: no terminating NUL counted */
    else
        len++;
    return (int)(offsetof(struct sockaddr_un, sun_path) + len);
}

int sdn_notify(const char *state)
{
    struct sockaddr_un addr;
    int alen, fd, r = 0;
    size_t len;

    if (state == NULL)
        return -EINVAL;
    alen = sdn_notify_addr(&addr);
    if (alen <= 0)
        return alen;
    fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    len = strlen(state);
    if (sendto(fd, state, len, MSG_NOSIGNAL, (struct sockaddr *)&addr, (socklen_t)alen) < 0)
        r = -errno;
    close(fd);
    return r;
}

uint64_t sdn_watchdog_usec(void)
{
    unsigned long long usec = 0;

    if (sdn_env_u64("WATCHDOG_USEC", &usec) < 0 || usec == 0)
        return 0;
    if (!sdn_env_is_our_pid("WATCHDOG_PID", 1))
        return 0;
    return (uint64_t)usec;
}

#endif /* HAVE_LIBSYSTEMD */
