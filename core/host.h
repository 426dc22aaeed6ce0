/* host.h -- the plugin host: load solver plugins, run them, check their answers.
 *
 * Shared by sudokud and sudoku-bench (built as the static library
 * sudoku_host).  Plugins are loaded with dlopen(RTLD_NOW | RTLD_LOCAL) and
 * never unloaded while the host lives.  A file that is not a plugin, has the
 * wrong ABI major, lacks solve(), repeats a loaded name, is not a regular
 * file or could be changed by someone other than root and the running user
 * is refused with one log line naming the file and the reason; the others
 * still load.
 *
 * Thread safety: loading is single-threaded (at start-up).  Once loaded,
 * host_solve() may be called from any number of threads at once.
 */
#ifndef SUDOKU_HOST_H
#define SUDOKU_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

/* Log sink for the host and, through sdk_host, for plugins.  level is one of
 * the SDK_LOG_* values.  Must be thread-safe. */
typedef void host_log_fn(void *ctx, int level, const char *msg);

struct host; /* opaque */

/* One loaded plugin.  Owned by the host; valid until host_free(). */
struct host_plugin {
    const struct sdk_plugin *desc; /* the plugin's descriptor */
    void *state;                   /* from desc->init, or NULL */
    void *dl;                      /* dlopen handle */
    char *path;                    /* file it came from */
};

/* Create an empty host that logs through log(ctx, ...).  log may be NULL (no
 * logging).  Returns NULL on out of memory.  Free with host_free(). */
struct host *host_new(host_log_fn *log, void *ctx);

/* Unload every plugin (calling fini) and free the host.  Accepts NULL.  No
 * solve may be running. */
void host_free(struct host *h);

/* Load one plugin file.  The file is first judged by core/trust.h (sshd's
 * StrictModes: owners and modes of the resolved file and of every directory
 * up to "/"), then opened once and loaded through that descriptor
 * (dlopen("/proc/self/fd/N")), so the file checked is the file loaded.
 * Returns 0, or a negative errno after logging why the file was refused:
 *   -ENOENT   no such file (or another errno from resolving or opening it);
 *   -ENOEXEC  not a plugin, or not a regular file (a FIFO, a directory);
 *   -EPROTO   wrong ABI or bad descriptor;
 *   -EEXIST   duplicate name;
 *   -EPERM    an owner other than root or the running user, or a mode that
 *             lets others write, on the file or a directory on its path;
 *   -ENOSYS   /proc/self/fd is not there (/proc not mounted). */
int host_load_file(struct host *h, const char *path);

/* Load every "*.so" in dir, in name order.  Refused files are logged and
 * skipped.  Returns the number loaded, or a negative errno when dir cannot be
 * read or fails the same ownership and mode check (-EPERM): dir itself must
 * not be writable by group or others even when sticky. */
int host_load_dir(struct host *h, const char *dir);

/* The default plugin directory: <dir of the running executable>/../lib/
 * sudokud/plugins when that exists (build tree and installed tree alike), else
 * the compiled-in install directory.  Writes a NUL-terminated path into out.
 * Returns 0 or -ENAMETOOLONG. */
int host_default_plugin_dir(char *out, size_t out_size);

/* Number of loaded plugins, and the i-th (0 <= i < count) in load order. */
size_t host_count(const struct host *h);
const struct host_plugin *host_plugin_at(const struct host *h, size_t i);

/* The plugin called name, or NULL. */
const struct host_plugin *host_find(const struct host *h, const char *name);

/* The default solver: the one host_set_default() named, else "bitmask" when
 * loaded, else the first loaded, else NULL. */
const struct host_plugin *host_default(const struct host *h);

/* The default solver for grids of side side: the one host_set_default()
 * named, for every size; else "sat" for 25 when it is loaded (bitmask and dlx
 * time out on every real 25x25 puzzle; sat answers them), else
 * host_default(h).  NULL when h is NULL or empty. */
const struct host_plugin *host_default_for(const struct host *h, int side);

/* Make the plugin called name the default for every size (sudokud
 * --default-solver).  Call after loading, before solving.  Returns 0 or
 * -ENOENT when no such plugin is loaded. */
int host_set_default(struct host *h, const char *name);

/* Run plugin p on job and check its answer.  job->size, n, cells, limit,
 * cancel, deadline_ns and solution must be set by the caller; n must be
 * supported by p (else -ENOTSUP, nothing run) and the givens must already
 * have passed grid_check_givens().  Returns the sdk_status the plugin
 * returned (>= 0), or a negative errno:
 *   -ENOTSUP  p does not take this size;
 *   -EIO      the plugin failed, returned a bad status or count, or gave a
 *             solution that breaks the rules or the givens (logged with the
 *             plugin name; the wrong answer never leaves this function).
 * Thread-safe. */
int host_solve(const struct host_plugin *p, struct sdk_job *job);

/* Does p implement explain() (ABI minor 1, sdk_plugin_has_explain())?  A
 * minor-0 plugin loads and solves but cannot explain.  Thread-safe. */
int host_plugin_has_explain(const struct host_plugin *p);

/* The first loaded plugin that explains side n (host_plugin_has_explain
 * and n in its explain_sizes), or NULL: the default explainer and rater. */
const struct host_plugin *host_explainer_for(const struct host *h, unsigned n);

/* Explain a puzzle with plugin p, every step checked.  The caller owns
 * every buffer and sets in job: size (sizeof), n, cells (givens, already
 * valid by grid_check_givens), progress (NULL, or a grid keeping every
 * given), candidates (NULL, or the player's pencil marks: n*n*n bytes,
 * candidates[cell * n + d - 1] non-zero when d is marked), max_steps,
 * cancel, deadline_ns, and the output arrays with their
 * capacities: steps, placements and eliminations are required; cells_out,
 * text and grid are optional (NULL).  Capacities of n*n*n steps, n*n
 * placements and n*n*n eliminations never run out (every step changes a
 * candidate); text needs about 200 bytes a step.
 *
 * First the unique solution is found with solver (a normal solver, e.g.
 * host_default()) and written to solution (n*n bytes).  p then works on
 * copies of the inputs and writes into the arrays; the host replays every
 * step from the start position (its candidates cut down to the pencil
 * marks, when there are some): a placement must be the solution's value,
 * an elimination must remove a candidate the solution does not use, each
 * step must change the candidates, and a "solved" answer must end at the
 * solution, and the rating must be the hardest step's (a stuck one may be
 * higher).  On success job's out fields (status, *_len, rating, hardest:
 * the hardest step's technique or NULL without steps, grid: the position
 * reached) are set.  Returns 0, or a negative errno:
 *   -EINVAL     bad job (missing array, bad size or givens);
 *   -ENOTSUP    p has no explain(), or not for this size (nothing run);
 *   -EDOM       the puzzle has no solution;
 *   -ENOTUNIQ   it has more than one (solution holds one of them);
 *   -EBADMSG    progress drops a given or disagrees with the solution
 *               (compare it with solution to name the mistakes);
 *   -ENODATA    the pencil marks lack the solution's value of an open cell
 *               of the start position (compare them with solution to name
 *               the candidates to restore);
 *   -ECANCELED, -ETIMEDOUT  stopped before the plugin ran (a stop while it
 *               runs is job->status SDK_EXPLAIN_CANCELLED or _TIMEDOUT);
 *   -EIO        the solver or p failed, or a step was unsound (logged with
 *               the plugin's name; nothing of the answer is to be used).
 * Thread-safe. */
int host_explain(const struct host_plugin *p, const struct host_plugin *solver,
                 struct sdk_explain *job, uint8_t *solution);

/* Bytes of text and pattern cells a step may take, on average, at most,
 * in the arrays of host_explain_arrays. */
#define HOST_TEXT_PER_STEP  192
#define HOST_CELLS_PER_STEP 4

/* The output arrays of an explain job on side n (1..SDK_MAX_N), in one
 * block: steps, placements and eliminations sized never to run out; with
 * with_text also cells_out and text.  Points job's arrays into the block
 * and sets their capacities; nothing else of job is touched.  Returns the
 * block, which the caller frees with free() once done with job, or NULL
 * (out of memory). */
void *host_explain_arrays(struct sdk_explain *job, unsigned n, int with_text);

#endif /* SUDOKU_HOST_H */
