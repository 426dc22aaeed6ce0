/* test_client_find.c -- how the sudoku tool finds the daemon and says why not.
 *
 * The real tool against the real daemon (daemon_harness.c), run as root and
 * as an unprivileged user (uid/gid 65534, through setgid/setuid in the child):
 * the user's own socket is tried before the system one, and every failure
 * names the socket and what to do ("no socket at", "not in group", the
 * daemon's own refusal reason).  Cases that need root skip without it; the
 * system-socket case skips when /run/sudokud already exists on the machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon_harness.h"

#define NOBODY     65534
#define SYSTEM_DIR "/run/sudokud"

/* What one run of the tool printed on stderr, and its exit status. */
struct run {
    int status;
    char err[4096];
};

/* The tool, copied where an unprivileged user can run it: the build tree
 * may sit below a directory only root may search (a mktemp -d checkout). */
static char tool_dir[] = "/tmp/sudoku-find-tool-XXXXXX";
static char tool[sizeof(tool_dir) + 8];

static int copy_tool(void **state)
{
    char buf[65536];
    ssize_t n = 0;
    int in, out, rc = 0;

    (void)state;
    if (!mkdtemp(tool_dir) || chmod(tool_dir, 0755) < 0)
        return -1;
    snprintf(tool, sizeof(tool), "%s/sudoku", tool_dir);
    in = open(SUDOKU_BIN_DIR "/sudoku", O_RDONLY | O_CLOEXEC);
    out = open(tool, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)n) != n)
            rc = -1;
    if (in < 0 || out < 0 || n < 0)
        rc = -1;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) < 0)
        rc = -1;
    return rc;
}

static int remove_tool(void **state)
{
    (void)state;
    unlink(tool);
    rmdir(tool_dir);
    return 0;
}

/* Run `sudoku ARGS...` with XDG_RUNTIME_DIR=xdg (NULL: unset) as uid (0: as
 * we are), stderr captured. */
static void run_tool(struct run *r, uid_t uid, const char *xdg, const char *const *args)
{
    char path[] = "/tmp/sudoku-find-XXXXXX";
    int fd = mkstemp(path), wst = 0;
    const char *argv[16] = {"sudoku"};
    assert_true(fd >= 0);
    for (int i = 0; args[i] && i < 14; i++)
        argv[i + 1] = args[i];
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        unsetenv("SUDOKUD_SOCKET");
        if (xdg)
            setenv("XDG_RUNTIME_DIR", xdg, 1);
        else
            unsetenv("XDG_RUNTIME_DIR");
        if (uid && (setgroups(0, NULL) < 0 || setgid(uid) < 0 || setuid(uid) < 0))
            _exit(126);
        execv(tool, (char *const *)argv);
        _exit(127);
    }
    assert_int_equal(waitpid(pid, &wst, 0), pid);
    r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
    ssize_t n = pread(fd, r->err, sizeof(r->err) - 1, 0);
    r->err[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
}

static void need_root(void)
{
    if (geteuid() != 0)
        skip();
}

/* Permission denied: the advice follows the real owner and mode (as
 * docs/systemd.md says): a group to join only when that group is let in
 * and is not root's; else whose it is.  Never "start it" for a running
 * daemon. */
static void test_permission_names_group(void **state)
{
    static struct run r;
    struct dh d;
    char want[512];
    (void)state;
    need_root();
    assert_int_equal(dh_start(&d, NULL), 0);
    const char *args[] = {"-s", d.sock, "ping", NULL};
    /* a directory only root may enter: no group to join */
    assert_int_equal(chown(d.dir, 0, 0), 0);
    assert_int_equal(chmod(d.dir, 0700), 0);
    run_tool(&r, NOBODY, NULL, args);
    assert_int_equal(r.status, 3);
    snprintf(want, sizeof(want),
             "permission denied on %s: its directory (mode 0700) lets in only root", d.sock);
    assert_non_null(strstr(r.err, want));
    assert_null(strstr(r.err, "group root"));
    assert_null(strstr(r.err, "start it with"));
    /* a directory its group may enter: join that group */
    struct group *g = getgrgid(1);
    assert_non_null(g);
    assert_int_equal(chown(d.dir, 0, 1), 0);
    assert_int_equal(chmod(d.dir, 0750), 0);
    run_tool(&r, NOBODY, NULL, args);
    snprintf(want, sizeof(want), "permission denied on %s: you are not in group %s", d.sock,
             g->gr_name);
    assert_non_null(strstr(r.err, want));
    assert_non_null(strstr(r.err, "usermod -aG"));
    /* the socket itself is root's group's: whose it is, not "join root" */
    assert_int_equal(chmod(d.dir, 0755), 0);
    assert_int_equal(chown(d.sock, 0, 0), 0);
    assert_int_equal(chmod(d.sock, 0660), 0);
    run_tool(&r, NOBODY, NULL, args);
    dh_stop(&d);
    dh_cleanup(&d);
    assert_int_equal(r.status, 3);
    snprintf(want, sizeof(want),
             "permission denied on %s: the socket (mode 0660) lets in only root", d.sock);
    assert_non_null(strstr(r.err, want));
    assert_null(strstr(r.err, "group root"));
}

/* No daemon at all: both places are named, each with why. */
static void test_neither_socket_named(void **state)
{
    static struct run r;
    char xdg[] = "/tmp/sudoku-xdg-XXXXXX", want[128];
    struct stat st;
    (void)state;
    need_root();
    if (stat(SYSTEM_DIR "/sudokud.sock", &st) == 0)
        skip(); /* a system daemon may be running here */
    assert_non_null(mkdtemp(xdg));
    chmod(xdg, 0755);
    const char *args[] = {"ping", NULL};
    run_tool(&r, NOBODY, xdg, args);
    rmdir(xdg);
    assert_int_equal(r.status, 3);
    snprintf(want, sizeof(want), "no socket at %s/sudokud.sock: is sudokud running?", xdg);
    assert_non_null(strstr(r.err, want));
    assert_non_null(strstr(r.err, "no socket at " SYSTEM_DIR "/sudokud.sock"));
    assert_null(strstr(r.err, "--local")); /* ping needs the daemon */
    const char *solve[] = {"/dev/null", NULL};
    run_tool(&r, NOBODY, NULL, solve);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "without a daemon: add --local")); /* as sudoku(1) says */
}

/* The user's socket is missing: the system daemon answers. */
static void test_falls_back_to_system_socket(void **state)
{
    static struct run r;
    char xdg[] = "/tmp/sudoku-xdg-XXXXXX";
    struct dh d;
    struct stat st;
    (void)state;
    need_root();
    if (stat(SYSTEM_DIR, &st) == 0)
        skip(); /* never touch a real installation */
    assert_int_equal(mkdir(SYSTEM_DIR, 0755), 0);
    assert_int_equal(dh_init(&d), 0);
    snprintf(d.sock, sizeof(d.sock), "%s", SYSTEM_DIR "/sudokud.sock");
    const char *extra[] = {"--socket-mode", "0666", NULL};
    int rc = dh_spawn(&d, extra);
    for (int i = 0; rc == 0 && i < 500 && dh_ping(d.sock, 1000) != 0; i++)
        usleep(10000);
    assert_non_null(mkdtemp(xdg));
    chmod(xdg, 0755);
    const char *args[] = {"ping", NULL};
    run_tool(&r, NOBODY, xdg, args);
    dh_stop(&d);
    dh_cleanup(&d);
    rmdir(xdg);
    unlink(SYSTEM_DIR "/sudokud.sock");
    rmdir(SYSTEM_DIR);
    assert_int_equal(rc, 0);
    assert_int_equal(r.status, 0);
}

/* A daemon that refuses the connection (--max-connections) says why, and the
 * tool shows that reason rather than "closed". */
static void test_refusal_reason_shown(void **state)
{
    static struct run r;
    struct dh d;
    (void)state;
    const char *extra[] = {"--max-connections", "1", NULL};
    assert_int_equal(dh_start(&d, extra), 0);
    int held = dh_connect(d.sock);
    assert_true(held >= 0);
    usleep(100000); /* the daemon has accepted it */
    const char *args[] = {"-s", d.sock, "ping", NULL};
    run_tool(&r, 0, NULL, args);
    close(held);
    dh_stop(&d);
    dh_cleanup(&d);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "too many connections"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_permission_names_group),
        cmocka_unit_test(test_neither_socket_named),
        cmocka_unit_test(test_falls_back_to_system_socket),
        cmocka_unit_test(test_refusal_reason_shown),
    };
    return cmocka_run_group_tests(tests, copy_tool, remove_tool);
}
