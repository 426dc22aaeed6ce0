/* test_sdnotify.c -- daemon/sdnotify.c against a fake service manager.
 *
 * Built twice (tests/systemd.cmake): once wrapping libsystemd and once with
 * the hand-written protocol, so both halves of sdnotify.c are held to the same
 * behaviour.  The "manager" is this process: it binds the NOTIFY_SOCKET
 * datagram socket, puts listening sockets on fd 3 and sets the LISTEN_* and
 * WATCHDOG_* variables the way systemd does before exec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/sdnotify.h"

#define LISTEN_FD 3 /* where socket activation puts the first fd */

/* ------------------------------------------------------------ helpers */

static void set_env_pid(const char *name, pid_t pid)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%ld", (long)pid);
    assert_int_equal(setenv(name, buf, 1), 0);
}

static void clear_env(void)
{
    unsetenv("NOTIFY_SOCKET");
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    unsetenv("WATCHDOG_USEC");
    unsetenv("WATCHDOG_PID");
}

/* A socket of the given type bound at path (or abstract when path starts
 * with '@'), listening when it is a stream socket.  Returns the fd. */
static int bound_socket(int type, const char *path)
{
    struct sockaddr_un addr;
    size_t len = strlen(path);
    socklen_t alen;
    int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

    assert_true(fd >= 0);
    assert_true(len < sizeof(addr.sun_path));
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    memcpy(addr.sun_path, path, len);
    alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    if (path[0] == '@')
        addr.sun_path[0] = '\0';
    else
        alen++;
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, alen), 0);
    if (type == SOCK_STREAM)
        assert_int_equal(listen(fd, 8), 0);
    return fd;
}

/* Receive one datagram (without blocking forever) as a C string. */
static void recv_line(int fd, char *buf, size_t size)
{
    struct timeval tv = {.tv_sec = 5};
    ssize_t n;

    assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
    n = recv(fd, buf, size - 1, 0);
    assert_true(n >= 0);
    buf[n] = '\0';
}

struct fixture {
    char dir[64];  /* private temporary directory */
    char path[96]; /* a socket path inside it */
    int saved_fd3; /* whatever the test runner had on fd 3, or -1 */
};

static int setup(void **state)
{
    static struct fixture fx;

    memset(&fx, 0, sizeof(fx));
    snprintf(fx.dir, sizeof(fx.dir), "/tmp/sdn-test-XXXXXX");
    if (mkdtemp(fx.dir) == NULL)
        return -1;
    snprintf(fx.path, sizeof(fx.path), "%s/sock", fx.dir);
    fx.saved_fd3 = fcntl(LISTEN_FD, F_DUPFD_CLOEXEC, 10);
    clear_env();
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    clear_env();
    unlink(fx->path);
    rmdir(fx->dir);
    if (fx->saved_fd3 >= 0) {
        dup2(fx->saved_fd3, LISTEN_FD);
        close(fx->saved_fd3);
    } else {
        close(LISTEN_FD);
    }
    return 0;
}

/* Put fd on LISTEN_FD as systemd would and announce count fds for pid. */
static void activate(int fd, pid_t pid, const char *count)
{
    if (fd != LISTEN_FD) {
        assert_int_equal(dup2(fd, LISTEN_FD), LISTEN_FD);
        close(fd);
    }
    set_env_pid("LISTEN_PID", pid);
    assert_int_equal(setenv("LISTEN_FDS", count, 1), 0);
}

/* ------------------------------------------------------------ sdn_notify */

static void test_notify_without_manager_is_noop(void **state)
{
    (void)state;
    assert_int_equal(sdn_notify("READY=1"), 0);
    assert_int_equal(sdn_notify(NULL), -EINVAL);
}

static void test_notify_reaches_path_socket(void **state)
{
    struct fixture *fx = *state;
    int fd = bound_socket(SOCK_DGRAM, fx->path);
    char buf[256];

    assert_int_equal(setenv("NOTIFY_SOCKET", fx->path, 1), 0);
    assert_int_equal(sdn_notify("READY=1\nSTATUS=3 solvers loaded"), 0);
    recv_line(fd, buf, sizeof(buf));
    assert_string_equal(buf, "READY=1\nSTATUS=3 solvers loaded");
    assert_int_equal(sdn_notify("WATCHDOG=1"), 0);
    recv_line(fd, buf, sizeof(buf));
    assert_string_equal(buf, "WATCHDOG=1");
    /* The variable stays: later STOPPING=1 and watchdog pings need it. */
    assert_non_null(getenv("NOTIFY_SOCKET"));
    close(fd);
}

static void test_notify_reaches_abstract_socket(void **state)
{
    char name[64];
    char buf[64];
    int fd;

    (void)state;
    snprintf(name, sizeof(name), "@sudoku-sdn-test-%ld", (long)getpid());
    fd = bound_socket(SOCK_DGRAM, name);
    assert_int_equal(setenv("NOTIFY_SOCKET", name, 1), 0);
    assert_int_equal(sdn_notify("STOPPING=1"), 0);
    recv_line(fd, buf, sizeof(buf));
    assert_string_equal(buf, "STOPPING=1");
    close(fd);
}

static void test_notify_to_missing_socket_fails(void **state)
{
    struct fixture *fx = *state;

    assert_int_equal(setenv("NOTIFY_SOCKET", fx->path, 1), 0); /* nothing bound */
    assert_true(sdn_notify("READY=1") < 0);
}

/* ------------------------------------------------------------ sdn_listen_fd */

static void test_listen_not_activated(void **state)
{
    (void)state;
    assert_int_equal(sdn_listen_fd(), -1);
}

static void test_listen_inherited_unix_listener(void **state)
{
    struct fixture *fx = *state;

    activate(bound_socket(SOCK_STREAM, fx->path), getpid(), "1");
    assert_int_equal(sdn_listen_fd(), LISTEN_FD);
    /* Not passed on to children, in the environment or across exec. */
    assert_null(getenv("LISTEN_PID"));
    assert_null(getenv("LISTEN_FDS"));
    assert_true(fcntl(LISTEN_FD, F_GETFD) & FD_CLOEXEC);
    /* A second call sees no activation: the variables are consumed. */
    assert_int_equal(sdn_listen_fd(), -1);
}

static void test_listen_for_another_pid_is_ignored(void **state)
{
    struct fixture *fx = *state;

    activate(bound_socket(SOCK_STREAM, fx->path), getppid(), "1");
    assert_int_equal(sdn_listen_fd(), -1);
    assert_null(getenv("LISTEN_FDS"));
}

static void test_listen_two_fds_refused(void **state)
{
    struct fixture *fx = *state;
    int a = bound_socket(SOCK_STREAM, fx->path);

    /* fd 4 must exist too, or libsystemd's own checks differ from ours. */
    activate(a, getpid(), "2");
    assert_int_equal(dup2(LISTEN_FD, LISTEN_FD + 1), LISTEN_FD + 1);
    assert_true(sdn_listen_fd() < -1);
    close(LISTEN_FD + 1);
}

static void test_listen_datagram_refused(void **state)
{
    struct fixture *fx = *state;

    activate(bound_socket(SOCK_DGRAM, fx->path), getpid(), "1");
    assert_true(sdn_listen_fd() < -1);
}

static void test_listen_regular_file_refused(void **state)
{
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

    (void)state;
    assert_true(fd >= 0);
    activate(fd, getpid(), "1");
    assert_true(sdn_listen_fd() < -1);
}

static void test_listen_garbage_count_refused(void **state)
{
    struct fixture *fx = *state;

    /* LISTEN_FDS=0 and a non-number are a broken manager, not "no activation"
     * (libsystemd says -EINVAL for both). */
    activate(bound_socket(SOCK_STREAM, fx->path), getpid(), "0");
    assert_true(sdn_listen_fd() < -1);
    set_env_pid("LISTEN_PID", getpid());
    assert_int_equal(setenv("LISTEN_FDS", "x1", 1), 0);
    assert_true(sdn_listen_fd() < -1);
}

/* ------------------------------------------------------------ watchdog */

static void test_watchdog(void **state)
{
    (void)state;
    /* One row per environment the manager might give us. */
    assert_int_equal(sdn_watchdog_usec(), 0); /* WatchdogSec= unset */
    assert_int_equal(setenv("WATCHDOG_USEC", "4000000", 1), 0);
    assert_int_equal(sdn_watchdog_usec(), 4000000); /* no WATCHDOG_PID: ours */
    set_env_pid("WATCHDOG_PID", getpid());
    assert_int_equal(sdn_watchdog_usec(), 4000000); /* for this process */
    set_env_pid("WATCHDOG_PID", getppid());
    assert_int_equal(sdn_watchdog_usec(), 0); /* meant for the parent */
    unsetenv("WATCHDOG_PID");
    assert_int_equal(setenv("WATCHDOG_USEC", "soon", 1), 0);
    assert_int_equal(sdn_watchdog_usec(), 0); /* garbage */
    assert_int_equal(setenv("WATCHDOG_USEC", "0", 1), 0);
    assert_int_equal(sdn_watchdog_usec(), 0); /* zero means off */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_notify_without_manager_is_noop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notify_reaches_path_socket, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notify_reaches_abstract_socket, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notify_to_missing_socket_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_not_activated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_inherited_unix_listener, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_for_another_pid_is_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_two_fds_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_datagram_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_regular_file_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listen_garbage_count_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watchdog, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
