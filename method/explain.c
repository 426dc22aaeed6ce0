/* explain.c -- the explain method, and the work it shares with rate
 * (explain.h).
 *
 * The work is allocated by validate (the puzzle, the solution, the
 * player's progress and pencil marks, the position reached, and the step arrays of
 * host_explain_arrays, which never run out and are malloc'ed so that the
 * pages a short explanation never touches cost nothing); the call keeps
 * its pointer.  After host_explain() the worker also makes the step the
 * plugin cannot give (reveal or mistake), so that the answer map and the
 * tool read the same steps from the same place.  A step map is {technique,
 * rating, placements, eliminations, cells, text} whatever made it; below
 * level 4 it is graded: {technique, rating}, then house (level 2 and 3,
 * worked out by core/house.c over every step once the run is over), then
 * cells (level 3).
 */
#include "method/explain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/rules.h"
#include "proto/protocol.h"
#include "proto/read.h"

#define MISTAKES_LISTED 12   /* wrong cells named in a mistake's text */
#define REVEAL_RATING   10.0 /* a stuck answer's least rating (docs/protocol.md) */

/* One explain or rate request's work. */
struct explain_work {
    int is_rate;                      /* rate: no text, no pattern cells, no extra step */
    unsigned level;                   /* EXPLAIN_LEVEL_*: how much of each step is given */
    struct house_ref *houses;         /* levels 2, 3: each step's house (run makes it), owned */
    const struct host_plugin *solver; /* finds the unique solution */
    struct sdk_explain x;             /* the request and its outputs */
    int rc;                           /* host_explain's result */
    void *arrays;                     /* the block x's arrays point into, owned */
    uint8_t cells[SDK_MAX_CELLS];     /* the puzzle */
    uint8_t solution[SDK_MAX_CELLS];  /* its unique solution (run writes) */
    uint8_t progress[SDK_MAX_CELLS];  /* the player's grid, when x.progress */
    uint8_t grid[SDK_MAX_CELLS];      /* position reached */
    uint8_t *marks;                   /* the pencil marks as x.candidates reads them, owned */
    struct rules *rules;              /* the variant rules x.rules points into, owned; or NULL */
    /* The step the plugin cannot give, made by run: a reveal when stuck, a
     * mistake when the progress disagrees with the solution. */
    int has_extra;                                      /* 1: extra is the last step */
    int is_mistake;                                     /* 1: extra is the only step */
    struct explain_step extra;                          /* pointing into the fields below */
    struct sdk_cell_value extra_value;                  /* the reveal's placement */
    struct sdk_cell_value extra_restore[SDK_MAX_CELLS]; /* a marks mistake's candidates */
    uint16_t extra_cells[SDK_MAX_CELLS];                /* the reveal's cell, or the wrong ones */
    char extra_text[RPC_ERR_SIZE + 64];                 /* its sentence */
};

static struct explain_work *work_of(const struct method_call *call)
{
    struct explain_work *w;

    memcpy(&w, call->work, sizeof(w));
    return w;
}

/* ---------------------------------------------------------------- validate */

/* The explaining plugin of a request on side n: the one named solver, or
 * (solver "") the first loaded that explains n. */
static enum rpc_code find_explainer(const struct host *h, const char *solver, unsigned n,
                                    const struct host_plugin **out, char *msg, size_t msg_size)
{
    int named = solver[0] != '\0';
    const struct host_plugin *p = named ? host_find(h, solver) : host_explainer_for(h, n);

    if (named && !p) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)", solver);
        return RPC_UNKNOWN_SOLVER;
    }
    if (!p) {
        snprintf(msg, msg_size, "no loaded solver can explain %ux%u puzzles", n, n);
        return RPC_UNSUPPORTED;
    }
    if (!host_plugin_has_explain(p)) {
        snprintf(msg, msg_size, "solver %s cannot explain (see `explain` in solvers)",
                 p->desc->name);
        return RPC_UNSUPPORTED;
    }
    if (!(p->desc->explain_sizes & sdk_size_bit(n))) {
        snprintf(msg, msg_size, "solver %s cannot explain %ux%u puzzles", p->desc->name, n, n);
        return RPC_UNSUPPORTED;
    }
    *out = p;
    return RPC_OK;
}

/* A player's progress must have the puzzle's side and keep every given;
 * entries that disagree with the solution are host_explain's to find. */
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

/* Pencil marks need a plugin that reads them (ABI minor 4): one built
 * before would explain from every candidate, and the host would refuse its
 * steps that change nothing in the marks. */
static enum rpc_code check_marks(const struct rpc_request *req, const struct host_plugin *p,
                                 char *msg, size_t msg_size)
{
    if (!req->explain.has_candidates || p->desc->abi_minor >= 4)
        return RPC_OK;
    snprintf(msg, msg_size,
             "solver %s cannot explain from pencil marks (plugin ABI 1.%u, 1.4 needed)",
             p->desc->name, (unsigned)p->desc->abi_minor);
    return RPC_UNSUPPORTED;
}

/* The pencil marks of e for side n as the plugin reads them: n*n*n bytes,
 * [cell * n + d - 1] non-zero when d is marked.  NULL when out of memory;
 * the caller frees it. */
static uint8_t *marks_new(const struct rpc_explain_params *e, unsigned n)
{
    uint8_t *m = malloc((size_t)n * n * n);

    for (size_t i = 0; m && i < (size_t)n * n; i++)
        for (unsigned d = 0; d < n; d++)
            m[i * n + d] = (uint8_t)(e->candidates[i] >> d & 1u);
    return m;
}

static int counts(const struct host_plugin *p, unsigned n)
{
    return p && (p->desc->caps & SDK_CAP_COUNT) && (p->desc->sizes & sdk_size_bit(n));
}

/* The plugin that finds the unique solution the steps are checked on: the
 * default for side n when it can count, else the first loaded plugin that
 * counts and takes n; NULL when none does. */
static const struct host_plugin *find_counter(const struct host *h, unsigned n)
{
    const struct host_plugin *p = host_default_for(h, (int)n);

    if (counts(p, n))
        return p;
    for (size_t i = 0; i < host_count(h); i++)
        if (counts(host_plugin_at(h, i), n))
            return host_plugin_at(h, i);
    return NULL;
}

/* The work and its arrays for req's puzzle; NULL when out of memory. */
static struct explain_work *work_new(const struct rpc_request *req, int is_rate)
{
    const struct rpc_solve_params *s = &req->solve;
    struct explain_work *w = calloc(1, sizeof(*w));

    if (!w)
        return NULL;
    w->arrays = host_explain_arrays(&w->x, s->n, !is_rate);
    if (!w->arrays) {
        free(w);
        return NULL;
    }
    w->is_rate = is_rate;
    w->level = req->explain.level ? req->explain.level : EXPLAIN_LEVEL_WHOLE;
    memcpy(w->cells, s->cells, (size_t)s->n * s->n);
    w->x.size = sizeof(w->x);
    w->x.n = s->n;
    w->x.cells = w->cells;
    w->x.max_steps = is_rate ? 0 : req->explain.max_steps;
    w->x.grid = w->grid;
    if (!is_rate && req->explain.has_progress) {
        memcpy(w->progress, req->explain.progress, (size_t)s->n * s->n);
        w->x.progress = w->progress;
    }
    if (!is_rate && req->explain.has_candidates) {
        w->marks = marks_new(&req->explain, s->n);
        if (!w->marks) {
            free(w->arrays);
            free(w);
            return NULL;
        }
        w->x.candidates = w->marks;
    }
    return w;
}

/* Does the explainer p take every rule of rules (sdk_plugin.explain_rules)?
 * RPC_OK, or RPC_UNSUPPORTED naming the first rule it does not take. */
static enum rpc_code explainer_takes(const struct host_plugin *p, const struct rules *rules,
                                     char *msg, size_t msg_size)
{
    const struct sdk_rules *r = rules_sdk(rules);
    uint32_t missing = r ? r->kinds & ~sdk_plugin_rules(p->desc, 1) : 0;

    if (!missing)
        return RPC_OK;
    snprintf(msg, msg_size, "solver %s cannot explain the rule %s", p->desc->name,
             rules_kind_name(missing & -missing));
    return RPC_UNSUPPORTED;
}

/* The plugin that finds the unique solution: for classic puzzles as
 * find_counter, else one that counts and takes every rule. */
static enum rpc_code find_rules_counter(const struct host *h, unsigned n, const struct rules *rules,
                                        const struct host_plugin **out, char *msg, size_t msg_size)
{
    const struct sdk_rules *r = rules_sdk(rules);

    if (r)
        return method_find_rules_solver(h, "", n, r->kinds, 1, out, msg, msg_size);
    *out = find_counter(h, n);
    if (*out)
        return RPC_OK;
    snprintf(msg, msg_size, "no loaded solver can count %ux%u solutions", n, n);
    return RPC_UNSUPPORTED;
}

enum rpc_code explain_work_validate(struct method_call *call, const struct rpc_request *req,
                                    char *msg, size_t msg_size)
{
    const struct rpc_solve_params *s = &req->solve;
    int is_rate = req->method == RPC_M_RATE;
    const struct host *h = call->env->host;
    const struct host_plugin *p = NULL, *solver;
    struct explain_work *w;
    struct rules *rules = NULL;
    enum rpc_code code;

    code = method_rules(&s->rules, s->n, &rules, msg, msg_size);
    if (code != RPC_OK)
        return code;
    if (rules_check_givens(rules_sdk(rules), s->n, s->cells, msg, msg_size) < 0) {
        code = RPC_BAD_PUZZLE;
        goto out;
    }
    code = find_explainer(h, s->solver, s->n, &p, msg, msg_size);
    if (code == RPC_OK)
        code = explainer_takes(p, rules, msg, msg_size);
    if (code == RPC_OK && !is_rate)
        code = check_progress(req, msg, msg_size);
    if (code == RPC_OK && !is_rate)
        code = check_marks(req, p, msg, msg_size);
    if (code == RPC_OK)
        code = find_rules_counter(h, s->n, rules, &solver, msg, msg_size);
    if (code != RPC_OK)
        goto out;
    w = work_new(req, is_rate);
    if (!w) {
        snprintf(msg, msg_size, "out of memory: try again later");
        code = RPC_OVERLOADED;
        goto out;
    }
    w->solver = solver;
    w->rules = rules; /* the work owns them now */
    w->x.rules = rules_sdk(rules);
    rules = NULL;
    memcpy(call->work, &w, sizeof(w));
    call->plugin = p;
    call->timeout_ms = s->timeout_ms;
out:
    rules_free(rules);
    return code;
}

void explain_work_destroy(struct method_call *call)
{
    struct explain_work *w = work_of(call);

    free(w->arrays);
    free(w->marks);
    free(w->houses);
    rules_free(w->rules);
    free(w);
}

const struct sdk_explain *explain_work_job(const struct method_call *call)
{
    return &work_of(call)->x;
}

/* ---------------------------------------------------------------- run */

/* The cell a stuck explanation reveals: the blank cell of grid (n*n) with
 * the fewest values left by its row, column and box (a person's likeliest
 * next cell). */
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

/* The reveal of a stuck explanation: one cell of the solution. */
static void make_reveal(struct explain_work *w)
{
    unsigned n = w->x.n, cell = reveal_cell(n, w->x.grid);

    w->extra_value = (struct sdk_cell_value){.cell = (uint16_t)cell, .value = w->solution[cell]};
    w->extra_cells[0] = (uint16_t)cell;
    snprintf(w->extra_text, sizeof(w->extra_text), "reveal: r%uc%u is %u (no technique applies)",
             cell / n + 1, cell % n + 1, w->extra_value.value);
    w->extra = (struct explain_step){.technique = "reveal",
                                     .rating = REVEAL_RATING,
                                     .placements = &w->extra_value,
                                     .placements_len = 1,
                                     .cells = w->extra_cells,
                                     .cells_len = 1,
                                     .text = w->extra_text};
    w->has_extra = 1;
}

/* The wrong entries of the player's progress, as cells and a sentence. */
static void make_mistake(struct explain_work *w)
{
    unsigned n = w->x.n;
    uint32_t len = 0;
    char *text = w->extra_text;
    size_t text_size = sizeof(w->extra_text);
    size_t used = (size_t)snprintf(text, text_size, "mistake:");

    for (unsigned i = 0; i < n * n; i++) {
        uint8_t v = w->progress[i];
        if (!v || v == w->solution[i])
            continue;
        w->extra_cells[len++] = (uint16_t)i;
        if (len <= MISTAKES_LISTED && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "%s r%uc%u is not %u",
                                     len > 1 ? ";" : "", i / n + 1, i % n + 1, v);
        else if (len == MISTAKES_LISTED + 1 && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "; and more");
    }
    w->extra = (struct explain_step){
        .technique = "mistake", .cells = w->extra_cells, .cells_len = len, .text = text};
    w->has_extra = 1;
    w->is_mistake = 1;
}

/* The pencil marks that dropped a solution's value: each cell named with
 * its digit, and the candidates to mark again (restore). */
static void make_marks_mistake(struct explain_work *w)
{
    const unsigned n = w->x.n;
    const uint8_t *start = w->x.progress ? w->x.progress : w->cells;
    uint32_t len = 0;
    char *text = w->extra_text;
    size_t text_size = sizeof(w->extra_text);
    size_t used = (size_t)snprintf(text, text_size, "mistake:");

    for (unsigned i = 0; i < n * n; i++) {
        const uint8_t v = w->solution[i];
        if (start[i] || w->marks[i * n + v - 1])
            continue;
        w->extra_restore[len] = (struct sdk_cell_value){.cell = (uint16_t)i, .value = v};
        w->extra_cells[len++] = (uint16_t)i;
        if (len <= MISTAKES_LISTED && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used,
                                     "%s %u was removed from r%uc%u but belongs there",
                                     len > 1 ? ";" : "", v, i / n + 1, i % n + 1);
        else if (len == MISTAKES_LISTED + 1 && used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, "; and more");
    }
    w->extra = (struct explain_step){.technique = "mistake",
                                     .cells = w->extra_cells,
                                     .cells_len = len,
                                     .text = text,
                                     .restore = w->extra_restore,
                                     .restore_len = len};
    w->has_extra = 1;
    w->is_mistake = 1;
}

static uint32_t plugin_steps(const struct explain_work *w);
static void whole_step_at(const struct explain_work *w, uint32_t i, struct explain_step *out);

/* house_step_fn over the work's steps, as the plugin and run made them. */
static void house_step_at(const void *ctx, uint32_t i, struct house_step *out)
{
    struct explain_step st;

    whole_step_at(ctx, i, &st);
    *out = (struct house_step){.placements = st.placements,
                               .placements_len = st.placements_len,
                               .eliminations = st.eliminations,
                               .eliminations_len = st.eliminations_len,
                               .cells = st.cells,
                               .cells_len = st.cells_len};
}

/* Each step's house, from the position the steps start at (a mistake's
 * from the player's).  Out of memory leaves w->houses NULL: the steps then
 * go without one, rather than the answer failing. */
static void make_houses(struct explain_work *w)
{
    uint32_t len = plugin_steps(w) + (w->has_extra ? 1u : 0u);
    const uint8_t *start = w->x.progress ? w->x.progress : w->cells;

    w->houses = calloc(len ? len : 1, sizeof(*w->houses));
    if (w->houses &&
        house_of_steps(w->x.n, w->x.rules, start, w->marks, house_step_at, w, len, w->houses) < 0) {
        free(w->houses);
        w->houses = NULL;
    }
}

void explain_work_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns)
{
    struct explain_work *w = work_of(call);

    w->x.cancel = cancel;
    w->x.deadline_ns = deadline_ns;
    w->rc = host_explain(call->plugin, w->solver, &w->x, w->solution);
    if (w->rc == 0 && w->x.status > SDK_EXPLAIN_TIMEDOUT && call->env->log) {
        char line[160];
        snprintf(line, sizeof(line), "%s: explain of a %ux%u puzzle ended with status %" PRIu32,
                 call->plugin->desc->name, w->x.n, w->x.n, w->x.status);
        call->env->log(call->env->log_ctx, SDK_LOG_ERR, line);
    }
    if (w->rc == 0 && w->x.status == SDK_EXPLAIN_STUCK && w->x.rating < REVEAL_RATING)
        w->x.rating = REVEAL_RATING; /* whatever the plugin said: the reveal rates that */
    if (w->is_rate)
        return;
    if (w->rc == -EBADMSG)
        make_mistake(w);
    else if (w->rc == -ENODATA)
        make_marks_mistake(w);
    else if (w->rc == 0 && w->x.status == SDK_EXPLAIN_STUCK)
        make_reveal(w);
    if (w->level == EXPLAIN_LEVEL_HOUSE || w->level == EXPLAIN_LEVEL_PATTERN)
        make_houses(w);
}

/* ---------------------------------------------------------------- outcome */

/* host_explain() returned rc < 0: which error, in words. */
static enum rpc_code explain_error(const struct method_call *call, const struct explain_work *w,
                                   char *msg, size_t msg_size)
{
    const char *name = call->plugin->desc->name;
    enum rpc_code crash = method_crash_error(w->rc, name, msg, msg_size);

    if (crash != RPC_OK)
        return crash;
    switch (w->rc) {
    case -EBADMSG: /* progress disagrees with the solution: the mistake step */
    case -ENODATA: /* so do the pencil marks */
        return RPC_OK;
    case -EDOM:
        snprintf(msg, msg_size, "no solution");
        return RPC_NOT_UNIQUE;
    case -ENOTUNIQ:
        snprintf(msg, msg_size, "more than one solution");
        return RPC_NOT_UNIQUE;
    case -ECANCELED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case -ETIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, call->timeout_ms);
        return RPC_TIMEOUT;
    case -ENOTSUP:
        snprintf(msg, msg_size, "solver %s cannot explain %ux%u puzzles", name, w->x.n, w->x.n);
        return RPC_UNSUPPORTED;
    default:
        snprintf(msg, msg_size, "solver %s failed or gave an unsound step (see %s)", name,
                 call->env->log_hint);
        return RPC_INTERNAL;
    }
}

/* RPC_OK for an answer: solved, partial or stuck, and a progress that
 * disagrees with the solution (the mistake step). */
enum rpc_code explain_work_outcome(const struct method_call *call, char *msg, size_t msg_size)
{
    const struct explain_work *w = work_of(call);
    const char *name = call->plugin->desc->name;

    if (w->rc < 0)
        return explain_error(call, w, msg, msg_size);
    switch (w->x.status) {
    case SDK_EXPLAIN_CANCELLED:
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    case SDK_EXPLAIN_TIMEDOUT:
        snprintf(msg, msg_size, "no answer from %s within %" PRIu64 " ms", name, call->timeout_ms);
        return RPC_TIMEOUT;
    case SDK_EXPLAIN_SOLVED:
    case SDK_EXPLAIN_PARTIAL:
    case SDK_EXPLAIN_STUCK:
        return RPC_OK;
    default: /* out of room, or a position the host found valid called invalid */
        snprintf(msg, msg_size, "solver %s could not explain this puzzle (status %" PRIu32 ")",
                 name, w->x.status);
        return RPC_INTERNAL;
    }
}

/* ---------------------------------------------------------------- result */

/* The plugin's steps that made it into the arrays. */
static uint32_t plugin_steps(const struct explain_work *w)
{
    if (w->is_mistake)
        return 0;
    return w->x.steps_len < w->x.steps_cap ? w->x.steps_len : w->x.steps_cap;
}

void explain_result(const struct method_call *call, struct explanation *out)
{
    const struct explain_work *w = work_of(call);
    const struct sdk_explain *x = &w->x;

    *out = (struct explanation){
        .status = w->is_mistake ? SDK_EXPLAIN_PARTIAL : x->status,
        .n = x->n,
        .rating = w->is_mistake ? 0.0 : x->rating,
        .ep = w->is_mistake ? 0.0 : x->ep,
        .ed = w->is_mistake ? 0.0 : x->ed,
        .difficulty = proto_difficulty_of(w->is_mistake ? 0.0 : x->rating),
        .hardest = w->is_mistake ? "mistake"
                   : x->hardest  ? x->hardest
                                 : "",
        .solver = call->plugin->desc->name,
        .elapsed_us = call->elapsed_us,
        .steps_len = plugin_steps(w) + (w->has_extra ? 1u : 0u),
        .level = w->level,
    };
}

/* Step i whole, whatever the level. */
static void whole_step_at(const struct explain_work *w, uint32_t i, struct explain_step *out)
{
    const struct sdk_explain *x = &w->x;
    const struct sdk_step *st = &x->steps[i];

    if (i >= plugin_steps(w)) {
        *out = w->extra;
        return;
    }
    *out = (struct explain_step){
        .technique = st->technique,
        .rating = st->rating,
        .placements = x->placements + st->place_off,
        .placements_len = st->place_len,
        .eliminations = x->eliminations + st->elim_off,
        .eliminations_len = st->elim_len,
        .cells = x->cells_out ? x->cells_out + st->cells_off : NULL,
        .cells_len = x->cells_out ? st->cells_len : 0,
        .text = x->text && st->text_len ? x->text + st->text_off : "",
    };
}

void explain_step_at(const struct method_call *call, uint32_t i, struct explain_step *out)
{
    const struct explain_work *w = work_of(call);
    struct explain_step whole;

    whole_step_at(w, i, &whole);
    if (w->level >= EXPLAIN_LEVEL_WHOLE) {
        *out = whole;
        return;
    }
    /* What would give the answer away goes: placements, eliminations, the
     * text, a mistake's restore; the pattern cells stay at level 3. */
    *out = (struct explain_step){.technique = whole.technique, .rating = whole.rating, .text = ""};
    if (w->level >= EXPLAIN_LEVEL_HOUSE && w->houses)
        out->house = w->houses[i];
    if (w->level >= EXPLAIN_LEVEL_PATTERN) {
        out->cells = whole.cells;
        out->cells_len = whole.cells_len;
    }
}

/* ---------------------------------------------------------------- answer */

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

/* {"type": ..., "index": ...} */
static int pack_house(msgpack_packer *pk, struct house_ref h)
{
    if (msgpack_pack_map(pk, 2) < 0 || proto_pack_key(pk, PROTO_K_TYPE) < 0 ||
        rpc_pack_cstr(pk, house_type_name(h.type)) < 0 || proto_pack_key(pk, PROTO_K_INDEX) < 0 ||
        msgpack_pack_uint16(pk, h.index) < 0)
        return -ENOMEM;
    return 0;
}

/* A graded step (level 1..3): {technique, rating}, house from level 2
 * (when one was found), cells at level 3. */
static int pack_graded_step(msgpack_packer *pk, const struct explain_step *st, unsigned level)
{
    int has_house = level >= EXPLAIN_LEVEL_HOUSE && st->house.type != HOUSE_NONE;
    int has_cells = level >= EXPLAIN_LEVEL_PATTERN;

    if (msgpack_pack_map(pk, 2u + (unsigned)has_house + (unsigned)has_cells) < 0 ||
        proto_pack_key(pk, PROTO_K_TECHNIQUE) < 0 || rpc_pack_cstr(pk, st->technique) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, st->rating) < 0)
        return -ENOMEM;
    if (has_house && (proto_pack_key(pk, PROTO_K_HOUSE) < 0 || pack_house(pk, st->house) < 0))
        return -ENOMEM;
    if (has_cells &&
        (proto_pack_key(pk, PROTO_K_CELLS) < 0 || pack_cells(pk, st->cells, st->cells_len) < 0))
        return -ENOMEM;
    return 0;
}

/* {technique, rating, placements, eliminations, cells, text}, and restore
 * for a mistake in the pencil marks; below level 4 the graded step. */
static int pack_step(msgpack_packer *pk, const struct explain_step *st, unsigned level)
{
    if (level < EXPLAIN_LEVEL_WHOLE)
        return pack_graded_step(pk, st, level);
    if (msgpack_pack_map(pk, st->restore_len ? 7 : 6) < 0 ||
        proto_pack_key(pk, PROTO_K_TECHNIQUE) < 0 || rpc_pack_cstr(pk, st->technique) < 0 ||
        proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, st->rating) < 0 ||
        proto_pack_key(pk, PROTO_K_PLACEMENTS) < 0 ||
        pack_pairs(pk, st->placements, st->placements_len) < 0 ||
        proto_pack_key(pk, PROTO_K_ELIMINATIONS) < 0 ||
        pack_pairs(pk, st->eliminations, st->eliminations_len) < 0 ||
        proto_pack_key(pk, PROTO_K_CELLS) < 0 || pack_cells(pk, st->cells, st->cells_len) < 0 ||
        proto_pack_key(pk, PROTO_K_TEXT) < 0 || rpc_pack_cstr(pk, st->text) < 0)
        return -ENOMEM;
    if (st->restore_len && (proto_pack_key(pk, PROTO_K_RESTORE) < 0 ||
                            pack_pairs(pk, st->restore, st->restore_len) < 0))
        return -ENOMEM;
    return 0;
}

int explain_pack_grade(msgpack_packer *pk, double rating, const char *difficulty,
                       const char *hardest)
{
    if (proto_pack_key(pk, PROTO_K_RATING) < 0 || msgpack_pack_double(pk, rating) < 0 ||
        proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 || rpc_pack_cstr(pk, difficulty) < 0 ||
        proto_pack_key(pk, PROTO_K_HARDEST) < 0 || rpc_pack_cstr(pk, hardest) < 0)
        return -ENOMEM;
    return 0;
}

int explain_pack_pearl(msgpack_packer *pk, double ep, double ed)
{
    if (proto_pack_key(pk, PROTO_K_EP) < 0 || msgpack_pack_double(pk, ep) < 0 ||
        proto_pack_key(pk, PROTO_K_ED) < 0 || msgpack_pack_double(pk, ed) < 0)
        return -ENOMEM;
    return 0;
}

int explain_pack_by(msgpack_packer *pk, const char *solver, uint64_t elapsed_us)
{
    if (proto_pack_key(pk, PROTO_K_SOLVER) < 0 || rpc_pack_cstr(pk, solver) < 0 ||
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

/* {steps, status, rating, difficulty, hardest, ep, ed, solver, elapsed_us};
 * arg is the call. */
static int explain_pack(msgpack_packer *pk, const void *arg)
{
    const struct method_call *call = arg;
    struct explanation e;
    struct explain_step st;

    explain_result(call, &e);
    if (msgpack_pack_map(pk, 9) < 0 || proto_pack_key(pk, PROTO_K_STEPS) < 0 ||
        msgpack_pack_array(pk, e.steps_len) < 0)
        return -ENOMEM;
    for (uint32_t i = 0; i < e.steps_len; i++) {
        explain_step_at(call, i, &st);
        if (pack_step(pk, &st, e.level) < 0)
            return -ENOMEM;
    }
    if (proto_pack_key(pk, PROTO_K_STATUS) < 0 || proto_pack_key(pk, status_key(e.status)) < 0 ||
        explain_pack_grade(pk, e.rating, e.difficulty, e.hardest) < 0 ||
        explain_pack_pearl(pk, e.ep, e.ed) < 0 || explain_pack_by(pk, e.solver, e.elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

/* Bytes of one step's map besides its arrays and text: the map, six keys,
 * a technique's name, the rating and four headers. */
#define EXPLAIN_STEP_MAP 128
#define EXPLAIN_PAIR_MAX 5 /* [cell, value]: an array header, a uint16 and a fixint */

/* Every array of host_explain_arrays() full (the plugin can fill no more),
 * the extra step, and the map around them; a max_steps short of n^3 bounds
 * only the steps' own maps, since one step may eliminate or say much. */
static size_t explain_answer_size(const struct rpc_request *req)
{
    size_t n = req->solve.n, cells = n * n, cube = cells * n;
    size_t steps =
        req->explain.max_steps && req->explain.max_steps < cube ? req->explain.max_steps : cube;

    /* A mistake in the pencil marks is the only step: its restore pairs
     * (one a cell at most) come on top of the arrays, with their key. */
    return 256 + (steps + 1) * EXPLAIN_STEP_MAP + (2 * cells + cube) * EXPLAIN_PAIR_MAX + 16 +
           (cube * HOST_CELLS_PER_STEP + cells) * 3 + cube * HOST_TEXT_PER_STEP +
           sizeof(((struct explain_work *)0)->extra_text);
}

const struct method_ops explain_ops = {
    .name = "explain",
    .validate = explain_work_validate,
    .run = explain_work_run,
    .outcome = explain_work_outcome,
    .pack = explain_pack,
    .destroy = explain_work_destroy,
    .answer_size = explain_answer_size,
};
