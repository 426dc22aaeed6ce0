/* tool_run.h -- run a built program as a child, its output caught in files.
 *
 * The tool tests (test_client_e2e, test_client_hint, test_client_explain_e2e,
 * test_generate_e2e) run the built `sudoku` (or `sudoku-bench`) from
 * SUDOKU_BIN_DIR the way a user would: fork/exec, stdin from a file or
 * /dev/null, stdout and stderr to DIR/out.txt and DIR/err.txt, then wait for
 * the exit code and read both files back.  A failed fork or wait fails the
 * calling cmocka test; a child that cannot set up its files exits 126, one
 * that cannot exec exits 127, so the test sees it in the status.
 */
#ifndef SUDOKU_TESTS_TOOL_RUN_H
#define SUDOKU_TESTS_TOOL_RUN_H

#include <stddef.h>

#define TOOL_RUN_OUT_MAX (1 << 20) /* largest stdout/stderr a run reads into memory */

/* What one run of a program gave. */
struct tool_run {
    int status;                 /* exit code, or 128 + signal */
    long maxrss_kb;             /* the child's max RSS, from wait4 */
    char out[TOOL_RUN_OUT_MAX]; /* stdout, NUL-terminated, cut at TOOL_RUN_OUT_MAX - 1 */
    char err[TOOL_RUN_OUT_MAX]; /* stderr, likewise */
};

/* Run SUDOKU_BIN_DIR/prog with argv (NULL-terminated; argv[0] is the name it
 * is given), stdin from in_path (NULL: /dev/null), stdout and stderr to
 * dir/out.txt and dir/err.txt (left there for the caller to remove), and
 * fill r.  Fails the test when fork or wait4 fails. */
void tool_run_prog(struct tool_run *r, const char *dir, const char *in_path, const char *prog,
                   const char *const *argv);

/* Join head and tail (each NULL-terminated; tail may be NULL) into argv[0..cap),
 * NULL-terminated.  Fails the test when they do not fit.  Returns the count
 * of arguments (without the NULL). */
size_t tool_run_argv(const char **argv, size_t cap, const char *const *head,
                     const char *const *tail);

/* Read at most cap - 1 bytes of path into buf and NUL-terminate it; a file
 * that cannot be opened reads as "". */
void tool_run_slurp(const char *path, char *buf, size_t cap);

/* In a child about to exec: open path with flags (mode 0600) onto fd, or
 * _exit(126). */
void tool_run_redirect(const char *path, int fd, int flags);

#endif
