/* explain.c -- the explain and rate methods: a job kind (job.h).
 *
 * Both run host_explain() on a worker: the unique solution is found with a
 * counting solver, the explaining plugin (`logic`) works step by step, and
 * the host replays every step against the solution before anything is
 * packed.  explain keeps the steps, their pattern cells and their text;
 * rate keeps only the counts and the rating.  What the plugin cannot say
 * the daemon adds: a `reveal` step when logic is stuck (one cell of the
 * solution, so a hint always helps) and a `mistake` step when the player's
 * progress disagrees with the solution.
 *
 * The step arrays are sized so that they never run out (every step
 * changes a candidate: at most n^3 steps and eliminations, n^2
 * placements); they are allocated with malloc, so that the pages a short
 * explanation never touches cost nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/request.h"
#include "daemon/job.h"
#include "daemon/log.h"
#include "proto/clock.h"

#define MISTAKES_LISTED 12 /* wrong cells named in a mistake's text */
#define REVEAL_RATING   10.0

struct explain_work {
    int is_rate;                      /* rate: no text, no pattern cells */
    const struct host_plugin *solver; /* finds the unique solution */
    struct sdk_explain x;             /* the request and its outputs */
    uint8_t progress[SDK_MAX_CELLS];  /* the player's grid, when x.progress */
    uint8_t grid[SDK_MAX_CELLS];      /* position reached */
    int rc;                           /* host_explain's result */
    int has_reveal;                   /* stuck: reveal_cell holds the answer */
    unsigned reveal_cell;             /* cell revealed */
    void *arrays;                     /* the block x's arrays point into, owned */
};

/* ---------------------------------------------------------------- start */

/* The progress grid must have the puzzle's size and keep every given;
 * entries that disagree with the solution are the worker's to find. */
static enum rpc_code check_progress(const struct rpc_request *req, char *msg, size_t msg_size)
{
    const struct rpc_explain_params *e = &req->explain;
    unsigned n = req->solve.n;

    if (!e->has_progress)
        return RPC_OK;
    if (e->progress_n != n) {
        snprintf(msg, msg_size, "progress is %ux%u, the puzzle %ux%u", e->progress_n, e->progress_n,
                 n, n);
        return RPC_BAD_REQUEST;
    }
    for (unsigned i = 0; i < n * n; i++)
        if (req->solve.cells[i] && e->progress[i] != req->solve.cells[i]) {
            snprintf(msg, msg_size, "progress changes the given %u at r%uc%u", req->solve.cells[i],
                     i / n + 1, i % n + 1);
            return RPC_BAD_REQUEST;
        }
    return RPC_OK;
}

/* The work and its arrays, for side n; NULL when out of memory.  The
 * caller frees it with work_free(). */
static struct explain_work *work_new(unsigned n, int is_rate)
{
    struct explain_work *w = calloc(1, sizeof(*w));

    if (!w)
        return NULL;
    w->arrays = host_explain_arrays(&w->x, n, !is_rate);
    if (!w->arrays) {
        free(w);
        return NULL;
    }
    w->is_rate = is_rate;
    return w;
}

static void work_free(struct explain_work *w)
{
    if (!w)
        return;
    free(w->arrays);
    free(w);
}

static void explain_run(struct job *job, uint64_t deadline_ns);
static enum rpc_code explain_outcome(const struct job *job, char *msg, size_t msg_size);
static int explain_pack(msgpack_packer *pk, const void *arg);
static int rate_pack(msgpack_packer *pk, const void *arg);
static void explain_destroy(struct job *job);

static const struct job_kind explain_kind = {
    .method = "explain",
    .run = explain_run,
    .outcome = explain_outcome,
    .pack = explain_pack,
    .destroy = explain_destroy,
};

static const struct job_kind rate_kind = {
    .method = "rate",
    .run = explain_run,
    .outcome = explain_outcome,
    .pack = rate_pack,
    .destroy = explain_destroy,
};

enum rpc_code explain_start(const struct host *h, const struct rpc_request *req, struct job *job,
                            char *msg, size_t msg_size)
{
    const struct rpc_solve_params *s = &req->solve;
    int is_rate = req->method == RPC_M_RATE;
    const struct host_plugin *p = NULL, *solver;
    struct explain_work *w;
    enum rpc_code code;

    if (grid_check_givens(s->n, s->cells, msg, msg_size) < 0)
        return RPC_BAD_PUZZLE;
    code = request_explainer(h, s->solver, s->n, &p, msg, msg_size);
    if (code == RPC_OK && !is_rate)
        code = check_progress(req, msg, msg_size);
    if (code != RPC_OK)
        return code;
    solver = request_counter(h, s->n);
    if (!solver) {
        snprintf(msg, msg_size, "no loaded solver can count %ux%u solutions", s->n, s->n);
        return RPC_UNSUPPORTED;
    }
    w = work_new(s->n, is_rate);
    if (!w) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    w->solver = solver;
    w->x.size = sizeof(w->x);
    w->x.n = s->n;
    w->x.cells = job->cells;
    w->x.max_steps = is_rate ? 0 : req->explain.max_steps;
    w->x.grid = w->grid;
    if (!is_rate && req->explain.has_progress) {
        memcpy(w->progress, req->explain.progress, (size_t)s->n * s->n);
        w->x.progress = w->progress;
    }
    memcpy(job->cells, s->cells, (size_t)s->n * s->n);
    job->kind = is_rate ? &rate_kind : &explain_kind;
    job->work = w;
    job->plugin = p;
    job->n = s->n;
    job->form = s->form;
    return RPC_OK;
}

static void explain_destroy(struct job *job)
{
    work_free(job->work);
    job->work = NULL;
}

/* ---------------------------------------------------------------- work */

/* Stuck: the blank cell of the position reached with the fewest values
 * left by its row, column and box (a person's likeliest next cell). */
static unsigned reveal_cell(unsigned n, const uint8_t *grid)
{
    unsigned best = 0, best_left = n + 1, box = sdk_box_side(n);

    for (unsigned i = 0; i < n * n; i++) {
        uint32_t seen = 0;
        unsigned r = i / n, c = i % n, br = r / box * box, bc = c / box * box, left = 0;
        if (grid[i])
            continue;
        for (unsigned k = 0; k < n; k++)
            seen |= 1u << grid[r * n + k] | 1u << grid[k * n + c] |
                    1u << grid[(br + k / box) * n + bc + k % box];
        for (unsigned v = 1; v <= n; v++)
            left += !(seen & (1u << v));
        if (left < best_left) {
            best = i;
            best_left = left;
        }
    }
    return best;
}

static void explain_run(struct job *job, uint64_t deadline_ns)
{
    struct explain_work *w = job->work;
    uint64_t t0 = clock_now_ns();

    w->x.cancel = &job->cancel;
    w->x.deadline_ns = deadline_ns;
    w->rc = host_explain(job->plugin, w->solver, &w->x, job->solution);
    if (w->rc == 0 && w->x.status == SDK_EXPLAIN_STUCK) {
        w->has_reveal = 1;
        w->reveal_cell = reveal_cell(job->n, w->grid);
    }
    if (w->rc == 0 && w->x.status > SDK_EXPLAIN_TIMEDOUT)
        log_msg(SDK_LOG_ERR, "%s: explain of a %ux%u puzzle ended with status %" PRIu32,
                job->plugin->desc->name, job->n, job->n, w->x.status);
    job->elapsed_us += (clock_now_ns() - t0) / 1000u;
}

static enum rpc_code explain_outcome(const struct job *job, char *msg, size_t msg_size)
{
    const struct explain_work *w = job->work;

    return request_explain_outcome(w->rc, &w->x, job->plugin, job->timeout_ms, "the daemon log",
                                   msg, msg_size);
}

/* ---------------------------------------------------------------- answers */

static int pack_pairs(msgpack_packer *pk, const struct sdk_cell_value *cv, uint32_t len)
{
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < len; i++)
        if (msgpack_pack_array(pk, 2) < 0 || msgpack_pack_uint16(pk, cv[i].cell) < 0 ||
            msgpack_pack_uint8(pk, cv[i].value) < 0)
            return -ENOMEM;
    return 0;
}

static int pack_cells(msgpack_packer *pk, const uint16_t *cells, uint32_t len)
{
    if (msgpack_pack_array(pk, len) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < len; i++)
        if (msgpack_pack_uint16(pk, cells[i]) < 0)
            return -ENOMEM;
    return 0;
}

/* One step map from its parts. */
static int pack_step_map(msgpack_packer *pk, const char *technique, double rating,
                         const struct sdk_cell_value *places, uint32_t places_len,
                         const struct sdk_cell_value *elims, uint32_t elims_len,
                         const uint16_t *cells, uint32_t cells_len, const char *text)
{
    if (msgpack_pack_map(pk, 6) < 0 || proto_pack_key(pk, PROTO_K_TECHNIQUE) < 0 ||
        rpc_pack_cstr(pk, technique) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, rating) < 0 || proto_pack_key(pk, PROTO_K_PLACEMENTS) < 0 ||
        pack_pairs(pk, places, places_len) < 0 || proto_pack_key(pk, PROTO_K_ELIMINATIONS) < 0 ||
        pack_pairs(pk, elims, elims_len) < 0 || proto_pack_key(pk, PROTO_K_CELLS) < 0 ||
        pack_cells(pk, cells, cells_len) < 0 || proto_pack_key(pk, PROTO_K_TEXT) < 0 ||
        rpc_pack_cstr(pk, text) < 0)
        return -ENOMEM;
    return 0;
}

static int pack_step(msgpack_packer *pk, const struct sdk_explain *x, const struct sdk_step *st)
{
    const uint16_t *cells = x->cells_out ? x->cells_out + st->cells_off : NULL;
    const char *text = x->text && st->text_len ? x->text + st->text_off : "";

    return pack_step_map(pk, st->technique, st->rating, x->placements + st->place_off,
                         st->place_len, x->eliminations + st->elim_off, st->elim_len, cells,
                         cells ? st->cells_len : 0, text);
}

static int pack_reveal(msgpack_packer *pk, const struct job *job, unsigned cell)
{
    struct sdk_cell_value cv = {.cell = (uint16_t)cell, .value = job->solution[cell]};
    uint16_t c16 = (uint16_t)cell;
    char text[96];

    snprintf(text, sizeof(text), "reveal: r%uc%u is %u (no technique applies)", cell / job->n + 1,
             cell % job->n + 1, cv.value);
    return pack_step_map(pk, "reveal", REVEAL_RATING, &cv, 1, NULL, 0, &c16, 1, text);
}

/* The wrong entries of the player's progress, as cells and a sentence. */
static uint32_t find_mistakes(const struct job *job, const uint8_t *progress, uint16_t *cells,
                              char *text, size_t text_size)
{
    uint32_t len = 0;
    size_t used = (size_t)snprintf(text, text_size, "mistake:");

    for (unsigned i = 0; i < job->n * job->n; i++) {
        if (!progress[i] || progress[i] == job->solution[i])
            continue;
        cells[len++] = (uint16_t)i;
        if (len <= MISTAKES_LISTED && used < text_size)
            used +=
                (size_t)snprintf(text + used, text_size - used, "%s r%uc%u is not %u",
                                 len > 1 ? ";" : "", i / job->n + 1, i % job->n + 1, progress[i]);
        else if (len == MISTAKES_LISTED + 1 && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "; and more");
    }
    return len;
}

/* The answer to a progress that disagrees with the solution. */
static int pack_mistake(msgpack_packer *pk, const struct job *job, const char *solver,
                        uint64_t elapsed_us)
{
    const struct explain_work *w = job->work;
    uint16_t cells[SDK_MAX_CELLS];
    char text[RPC_ERR_SIZE + 64];
    uint32_t len = find_mistakes(job, w->progress, cells, text, sizeof(text));

    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_STEPS) < 0 ||
        msgpack_pack_array(pk, 1) < 0 ||
        pack_step_map(pk, "mistake", 0.0, NULL, 0, NULL, 0, cells, len, text) < 0 ||
        proto_pack_key(pk, PROTO_K_STATUS) < 0 || proto_pack_key(pk, PROTO_K_PARTIAL) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, 0.0) < 0 ||
        proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(0.0)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 || rpc_pack_cstr(pk, "mistake") < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

static enum proto_key status_key(uint32_t status)
{
    return status == SDK_EXPLAIN_SOLVED    ? PROTO_K_SOLVED
           : status == SDK_EXPLAIN_PARTIAL ? PROTO_K_PARTIAL
                                           : PROTO_K_STUCK;
}

/* explain's result: {steps, status, rating, difficulty, hardest, solver,
 * elapsed_us}. */
static int explain_pack(msgpack_packer *pk, const void *arg)
{
    const struct job *job = arg;
    const struct explain_work *w = job->work;
    const struct sdk_explain *x = &w->x;
    const char *solver = job->plugin->desc->name;
    uint32_t steps = x->steps_len < x->steps_cap ? x->steps_len : x->steps_cap;

    if (w->rc == -EBADMSG)
        return pack_mistake(pk, job, solver, job->elapsed_us);
    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_STEPS) < 0 ||
        msgpack_pack_array(pk, steps + (w->has_reveal ? 1u : 0u)) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < steps; i++)
        if (pack_step(pk, x, &x->steps[i]) < 0)
            return -ENOMEM;
    if (w->has_reveal && pack_reveal(pk, job, w->reveal_cell) < 0)
        return -ENOMEM;
    if (proto_pack_key(pk, PROTO_K_STATUS) < 0 || proto_pack_key(pk, status_key(x->status)) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, x->rating) < 0 ||
        proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(x->rating)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 ||
        rpc_pack_cstr(pk, x->hardest ? x->hardest : "") < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, solver) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, job->elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

/* rate's result: {rating, difficulty, hardest, steps, logic, solver,
 * elapsed_us}. */
static int rate_pack(msgpack_packer *pk, const void *arg)
{
    const struct job *job = arg;
    const struct sdk_explain *x = &((const struct explain_work *)job->work)->x;

    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, x->rating) < 0 || proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, proto_difficulty_of(x->rating)) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 ||
        rpc_pack_cstr(pk, x->hardest ? x->hardest : "") < 0 ||
        proto_pack_key(pk, PROTO_K_STEPS) < 0 || msgpack_pack_uint32(pk, x->steps_len) < 0 ||
        proto_pack_key(pk, PROTO_K_LOGIC) < 0 ||
        (x->status == SDK_EXPLAIN_STUCK ? msgpack_pack_false(pk) : msgpack_pack_true(pk)) < 0 ||
        proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, job->plugin->desc->name) < 0 ||
        proto_pack_key(pk, PROTO_K_ELAPSED_US) < 0 || msgpack_pack_uint64(pk, job->elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}
