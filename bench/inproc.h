/* inproc.h -- run puzzle files through plugins loaded in this process.
 *
 * The in-process runner behind sudoku-bench: puzzles are solved one at a time
 * on the calling thread with host_solve(), which checks every answer.  The
 * host (and so the plugins) belongs to the caller.
 */
#ifndef SUDOKU_BENCH_INPROC_H
#define SUDOKU_BENCH_INPROC_H

#include <stdint.h>

#include "bench/bench.h"
#include "core/host.h"

/* How to run each puzzle. */
struct inproc_opts {
    uint64_t limit;      /* solutions to look for (>= 1) */
    uint32_t timeout_ms; /* per-puzzle deadline, 0 = none */
    int progress;        /* non-zero: show progress on stderr */
};

/* Run every puzzle of file (line form, '#' and blank lines skipped) through
 * plugin p and fill *out (zeroed first).  Returns 0, or a negative errno when
 * the file cannot be read (the message is in err) or memory runs out. */
int inproc_run_file(const struct host_plugin *p, const char *file, const struct inproc_opts *o,
                    struct bench_result *out, char *err, size_t err_size);

#endif /* SUDOKU_BENCH_INPROC_H */
