/* marshal.h -- a plugin job and its answer as flat bytes, both ways.
 *
 * For a plugin that runs in another process (sudokud's worker processes,
 * host_set_runner): the host puts a job into a buffer (shared memory),
 * the worker gets it back into storage of its own, runs the plugin, puts
 * the answer, and the host gets that into the caller's job.  Every get
 * checks every length and range against the job's own bounds before it
 * writes anything, so a truncated or hostile buffer (a plugin scribbling
 * on the shared memory) is -EBADMSG, never a read or write out of bounds;
 * each byte of the buffer is read once.  What the answer says is the
 * gate's and verify.c's to judge, as for an in-process plugin.
 *
 * Thread-safe: no state; every call works on what it is handed.
 */
#ifndef SUDOKU_MARSHAL_H
#define SUDOKU_MARSHAL_H

#include <stddef.h>
#include <stdint.h>

#include <sudoku/plugin.h>

#define MARSHAL_MAGIC    0x4d4b4453u              /* "SDKM", first word of every message */
#define MARSHAL_SOLVE    1u                       /* message kind: a solve */
#define MARSHAL_EXPLAIN  2u                       /* message kind: an explain */
#define MARSHAL_HOUSES   (3 * SDK_MAX_N + 2 + 16) /* most houses: 3n, diagonals, windows */
#define MARSHAL_PAIRS    (SDK_MAX_CELLS * 8)      /* most pairs in differ or nonconsec */
#define MARSHAL_TECH_MAX 31                       /* longest technique name */

/* A job's variant rules, in storage of their own. */
struct marshal_rules {
    struct sdk_rules r;                          /* points into the arrays below */
    uint16_t houses[MARSHAL_HOUSES * SDK_MAX_N]; /* r.houses */
    uint8_t region[SDK_MAX_CELLS];               /* r.region */
    uint16_t differ[2 * MARSHAL_PAIRS];          /* r.differ */
    uint16_t nonconsec[2 * MARSHAL_PAIRS];       /* r.nonconsec */
    struct sdk_cage cages[SDK_MAX_CELLS];        /* r.cages */
    uint16_t cage_cells[SDK_MAX_CELLS];          /* r.cage_cells */
};

/* A solve job as the worker gets it. */
struct marshal_job {
    struct sdk_job job;              /* cancel NULL: the getter's to set */
    uint8_t cells[SDK_MAX_CELLS];    /* job.cells */
    uint8_t solution[SDK_MAX_CELLS]; /* job.solution */
    struct marshal_rules rules;      /* job.rules when it has any */
};

/* An explain job as the worker gets it; the output arrays are one block
 * (arrays), freed by marshal_explain_close(). */
struct marshal_explain {
    struct sdk_explain job;                        /* cancel NULL: the getter's to set */
    uint8_t cells[SDK_MAX_CELLS];                  /* job.cells */
    uint8_t progress[SDK_MAX_CELLS];               /* job.progress when there is one */
    uint8_t solution[SDK_MAX_CELLS];               /* job.solution when there is one */
    uint8_t grid[SDK_MAX_CELLS];                   /* job.grid when asked */
    uint8_t candidates[SDK_MAX_CELLS * SDK_MAX_N]; /* job.candidates when there are */
    struct marshal_rules rules;                    /* job.rules when it has any */
    void *arrays;                                  /* malloc'ed output arrays, or NULL */
    size_t arrays_size;                            /* bytes in arrays */
};

/* Gives a technique name a pointer that outlives the call (the host's
 * table of names), or NULL to refuse it. */
typedef const char *marshal_intern_fn(void *ctx, const char *name);

/* The kind of message in buf (MARSHAL_SOLVE, MARSHAL_EXPLAIN), or 0 when
 * it is not one. */
uint32_t marshal_kind(const void *buf, size_t len);

/* Host: put job's inputs (n, cells, limit, deadline_ns,
 * max_guesses, rules) into buf.
 * Returns the bytes used, or -EINVAL (bad job) / -ENOSPC (cap too small). */
long marshal_put_job(void *buf, size_t cap, const struct sdk_job *job);

/* Worker: get a job put by marshal_put_job into st (st->job points into
 * st).  Returns 0 or -EBADMSG. */
int marshal_get_job(const void *buf, size_t len, struct marshal_job *st);

/* Worker: put the plugin's answer to job (status, count, guesses, the
 * solution).  Returns the bytes used or -ENOSPC. */
long marshal_put_solved(void *buf, size_t cap, int status, const struct sdk_job *job);

/* Host: get an answer into job (same n: count, guesses, solution) and
 * *status.  Returns 0 or -EBADMSG (job untouched but for its solution). */
int marshal_get_solved(const void *buf, size_t len, struct sdk_job *job, int *status);

/* Host: put an explain job's inputs and its arrays' capacities.  Returns
 * the bytes used, or -EINVAL / -ENOSPC. */
long marshal_put_explain(void *buf, size_t cap, const struct sdk_explain *job);

/* Worker: get an explain job into st, with output arrays of the
 * capacities asked (within what side n can need).  st->arrays must be NULL
 * or a block from an earlier get (reused or grown).  Returns 0, -EBADMSG
 * or -ENOMEM. */
int marshal_get_explain(const void *buf, size_t len, struct marshal_explain *st);

/* Free st's arrays.  Accepts a zeroed st. */
void marshal_explain_close(struct marshal_explain *st);

/* Worker: put explain()'s return value rc and job's out fields and arrays.
 * Returns the bytes used, or -ENOSPC. */
long marshal_put_explained(void *buf, size_t cap, int rc, const struct sdk_explain *job);

/* Host: get an answer into job (its arrays and capacities as put) and *rc;
 * technique names through intern.  Returns 0 or -EBADMSG. */
int marshal_get_explained(const void *buf, size_t len, struct sdk_explain *job, int *rc,
                          marshal_intern_fn *intern, void *ctx);

#endif /* SUDOKU_MARSHAL_H */
