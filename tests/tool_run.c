/* tool_run.c -- run a built program as a child, its output caught in files.
 *
 * One home for what the tool tests used to copy: the redirections in the
 * child, the fork/exec/wait4, and reading the output back (tool_run.h has
 * the contracts).  The child touches nothing but its three descriptors
 * before exec and leaves with _exit, so a failure there never runs the
 * parent's cmocka machinery twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tool_run.h"

#define PATH_SIZE 512 /* dir/out.txt and SUDOKU_BIN_DIR/prog */

void tool_run_slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

void tool_run_redirect(const char *path, int fd, int flags)
{
    int f = open(path, flags, 0600);
    if (f < 0 || dup2(f, fd) < 0)
        _exit(126);
    close(f);
}

size_t tool_run_argv(const char **argv, size_t cap, const char *const *head,
                     const char *const *tail)
{
    size_t n = 0;
    for (; head && *head; head++) {
        assert_true(n + 1 < cap);
        argv[n++] = *head;
    }
    for (; tail && *tail; tail++) {
        assert_true(n + 1 < cap);
        argv[n++] = *tail;
    }
    argv[n] = NULL;
    return n;
}

/* snprintf that fails the test rather than cut a path short. */
static void join_path(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_SIZE, "%s/%s", dir, name);
    assert_true(n > 0 && n < PATH_SIZE);
}

void tool_run_prog(struct tool_run *r, const char *dir, const char *in_path, const char *prog,
                   const char *const *argv)
{
    char out_path[PATH_SIZE], err_path[PATH_SIZE], prog_path[PATH_SIZE];
    struct rusage ru;
    int wst = 0;

    join_path(out_path, dir, "out.txt");
    join_path(err_path, dir, "err.txt");
    join_path(prog_path, SUDOKU_BIN_DIR, prog);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        tool_run_redirect(in_path ? in_path : "/dev/null", 0, O_RDONLY);
        tool_run_redirect(out_path, 1, O_WRONLY | O_CREAT | O_TRUNC);
        tool_run_redirect(err_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
        execv(prog_path, (char *const *)argv);
        _exit(127);
    }
    assert_int_equal(wait4(pid, &wst, 0, &ru), pid);
    r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
    r->maxrss_kb = ru.ru_maxrss;
    tool_run_slurp(out_path, r->out, sizeof(r->out));
    tool_run_slurp(err_path, r->err, sizeof(r->err));
}
