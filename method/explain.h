/* explain.h -- the explain method: the steps a person would take.
 *
 * explain_ops (method.h) runs host_explain() on one thread: the unique
 * solution is found with a counting plugin, the explaining plugin (`logic`)
 * works step by step, and the host replays every step against the solution
 * before anything is read.  The answer also holds what the plugin cannot
 * say: a `reveal` step when logic is stuck (one cell of the solution, so a
 * hint always helps) and, when the player's progress or pencil marks
 * disagree with the solution, only a `mistake` step (docs/protocol.md,
 * explain).  Below level 4 a step keeps only what its level gives (its
 * technique and rating, the house core/house.c names, the pattern cells):
 * explain_step_at() hands out the graded step, so the answer map and the
 * tool's --local give the same.  The
 * daemon packs it as the answer map; the sudoku tool's --local reads the
 * same steps through explain_result() and explain_step_at().
 *
 * rate (rate.h) runs the same work without text or pattern cells: the
 * explain_work_* functions below are its share, for method/ only.
 */
#ifndef SUDOKU_METHOD_EXPLAIN_H
#define SUDOKU_METHOD_EXPLAIN_H

#include <stdint.h>

#include "core/house.h"
#include "method/method.h"

extern const struct method_ops explain_ops;

/* One step of an explanation, borrowed from its call until method_end. */
struct explain_step {
    const char *technique;                     /* "hidden_single", "reveal", "mistake", ... */
    double rating;                             /* the technique's */
    const struct sdk_cell_value *placements;   /* cells the step solves */
    uint32_t placements_len;                   /* entries in placements */
    const struct sdk_cell_value *eliminations; /* candidates it removes */
    uint32_t eliminations_len;                 /* entries in eliminations */
    const uint16_t *cells;                     /* the pattern's cells, NULL when none */
    uint32_t cells_len;                        /* entries in cells */
    const char *text;                          /* one sentence, "" when none */
    const struct sdk_cell_value *restore;      /* a marks mistake: candidates to mark again */
    uint32_t restore_len;                      /* entries in restore (0: not such a step) */
    struct house_ref house;                    /* levels 2 and 3: where to look; else NONE */
};

/* The summary of an explanation, borrowed from its call until method_end. */
struct explanation {
    uint32_t status;        /* SDK_EXPLAIN_SOLVED, _PARTIAL (a mistake too) or _STUCK */
    unsigned n;             /* side of the puzzle */
    double rating;          /* the hardest step's */
    double ep, ed;          /* Sudoku Explainer's pearl and diamond, 0 when not rated */
    const char *difficulty; /* its band's name */
    const char *hardest;    /* its technique, "" when none */
    const char *solver;     /* the explaining plugin's name */
    uint64_t elapsed_us;    /* time it took */
    uint32_t steps_len;     /* steps, the reveal or the mistake included */
    unsigned level;         /* how much of each step it gives, 1..4 (EXPLAIN_LEVEL_*) */
};

/* How much of each step an explanation gives (the explain option level). */
#define EXPLAIN_LEVEL_TECHNIQUE 1 /* technique and rating */
#define EXPLAIN_LEVEL_HOUSE     2 /* and the house */
#define EXPLAIN_LEVEL_PATTERN   3 /* and the pattern cells */
#define EXPLAIN_LEVEL_WHOLE     4 /* placements, eliminations, cells, text, restore */

/* The result of a call of explain_ops whose outcome was RPC_OK; its steps
 * are explain_step_at(call, 0 .. out->steps_len). */
/* Pack the grade both explain's and rate's answers carry, as three pairs
 * of their map: rating, difficulty, hardest.  Returns 0 or -ENOMEM. */
int explain_pack_grade(msgpack_packer *pk, double rating, const char *difficulty,
                       const char *hardest);

/* Pack Sudoku Explainer's pearl and diamond ratings, as two pairs of the
 * answer's map: ep, ed.  Returns 0 or -ENOMEM. */
int explain_pack_pearl(msgpack_packer *pk, double ep, double ed);

/* Pack the two pairs that close explain's and rate's answers: solver and
 * elapsed_us.  Returns 0 or -ENOMEM. */
int explain_pack_by(msgpack_packer *pk, const char *solver, uint64_t elapsed_us);

void explain_result(const struct method_call *call, struct explanation *out);
void explain_step_at(const struct method_call *call, uint32_t i, struct explain_step *out);

/* ------------------------------------------------ shared with rate.c */

/* Validate an explain or a rate request (req->method says which) into
 * call: the givens, the explaining plugin (named, or the first that
 * explains the size), the progress (explain only), the counting plugin;
 * a method_ops.validate. */
enum rpc_code explain_work_validate(struct method_call *call, const struct rpc_request *req,
                                    char *msg, size_t msg_size);
void explain_work_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns);
enum rpc_code explain_work_outcome(const struct method_call *call, char *msg, size_t msg_size);
void explain_work_destroy(struct method_call *call);

/* The job host_explain() ran, its outputs set. */
const struct sdk_explain *explain_work_job(const struct method_call *call);

#endif /* SUDOKU_METHOD_EXPLAIN_H */
