/* local.c -- answer in this process as sudokud would (local.h).
 *
 * A synchronous runner of the method interface (method/method.h): each
 * puzzle becomes the struct rpc_request the daemon would decode, then goes
 * through the same steps as in the daemon's dispatch, one after the other
 * on this thread: method_start (the method's own checks), method_run
 * until the timeout, the method's outcome (the words of a failure), and
 * the method's result view (solve_result, rate_result, explain_result,
 * generate_result), copied into the client library's result structs so
 * that the tool prints both the same.  Nothing here checks what a request
 * may ask: that is the method's.  A generate request is decoded by the
 * daemon's own decoder (proto/params.c) from the bytes the library would
 * send, so that its options are judged the same way.
 */
#include "tool/local.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_impl.h"
#include "core/host.h"
#include "method/explain.h"
#include "method/generate.h"
#include "method/method.h"
#include "method/rate.h"
#include "method/solve.h"
#include "proto/codec.h"
#include "util/clock.h"

struct local {
    struct host *host;
    int is_verbose;
    struct method_env env;    /* what every call borrows: the host, no log */
    struct method_call *call; /* the one call in progress, reused */
};

static void local_log(void *ctx, int level, const char *msg)
{
    const struct local *l = ctx;

    if (level <= SDK_LOG_ERR || l->is_verbose)
        fprintf(stderr, "sudoku: %s\n", msg);
}

int local_open(const char *dir, int verbose, struct local **out)
{
    char def[4096];
    struct local *l = calloc(1, sizeof(*l));
    int rc;

    *out = NULL;
    if (!l)
        return -ENOMEM;
    l->is_verbose = verbose;
    l->host = host_new(local_log, l);
    l->call = calloc(1, sizeof(*l->call));
    l->env = (struct method_env){.host = l->host, .log_hint = "the messages above"};
    if (!l->host || !l->call) {
        host_free(l->host);
        free(l->call);
        free(l);
        return -ENOMEM;
    }
    if (!dir && host_default_plugin_dir(def, sizeof(def)) == 0)
        dir = def;
    rc = dir ? host_load_dir(l->host, dir) : -ENOENT;
    if (rc < 0 || host_count(l->host) == 0) {
        fprintf(stderr,
                "sudoku: --local: no solver plugin loaded from %s%s%s\n"
                "sudoku: (--local runs the plugins in this process: name their directory "
                "with -P DIR, or drop --local to ask the daemon)\n",
                dir ? dir : "(no plugin directory)", rc < 0 ? ": " : "",
                rc < 0 ? strerror(-rc) : "");
        local_free(l);
        return rc < 0 ? rc : -ENOENT;
    }
    *out = l;
    return 0;
}

void local_free(struct local *l)
{
    if (!l)
        return;
    host_free(l->host);
    free(l->call);
    free(l);
}

/* The daemon's steps on one thread: validate req, run it until its
 * timeout (LOCAL_TIMEOUT_MS when it asks none), and say what came of it.
 * Returns RPC_OK with l->call holding the answer (the caller reads it and
 * ends the call with method_end), or the code with its message in msg;
 * when validate refused, there is no call to end (method_end does
 * nothing). */
static enum rpc_code local_call(struct local *l, const struct rpc_request *req, char *msg,
                                size_t msg_size)
{
    struct method_call *call = l->call;
    enum rpc_code code = method_start(call, &l->env, req, msg, msg_size);

    if (code != RPC_OK)
        return code;
    if (!call->timeout_ms)
        call->timeout_ms = LOCAL_TIMEOUT_MS;
    method_run(call, NULL, clock_now_ns() + call->timeout_ms * 1000000u);
    return call->ops->outcome(call, msg, msg_size);
}

/* ------------------------------------------------------------------------ */
/* Requests, as the daemon decodes them */

/* The puzzle, in the line form (text, len) or as n*n cells (text NULL),
 * into s. */
static enum rpc_code set_puzzle(struct rpc_solve_params *s, const char *text, size_t len,
                                unsigned n, const uint8_t *cells, char *msg, size_t msg_size)
{
    if (text)
        return codec_parse_line(text, len, &s->n, s->cells, msg, msg_size) < 0 ? RPC_BAD_PUZZLE
                                                                               : RPC_OK;
    if (!cells) {
        snprintf(msg, msg_size, "no puzzle");
        return RPC_BAD_PUZZLE;
    }
    s->n = n;
    memcpy(s->cells, cells, (size_t)n * n);
    return RPC_OK;
}

/* The options every method shares into s: solver (NULL: the default) and
 * timeout_ms (0: LOCAL_TIMEOUT_MS).  A name too long for the request names
 * no plugin. */
static enum rpc_code set_options(struct rpc_solve_params *s, const char *solver,
                                 unsigned timeout_ms, char *msg, size_t msg_size)
{
    s->timeout_ms = timeout_ms;
    if (!solver)
        return RPC_OK;
    if (strlen(solver) >= sizeof(s->solver)) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)", solver);
        return RPC_UNKNOWN_SOLVER;
    }
    memcpy(s->solver, solver, strlen(solver) + 1);
    return RPC_OK;
}

/* The rules as the daemon decodes them: packed as the client library
 * sends them and read back with the daemon's decoder (proto/rules.c), so
 * the same rules get the same bad_request.  rules NULL: classic. */
static enum rpc_code set_rules(struct rpc_rules *out, const struct sudoku_client_rules *rules,
                               int is_generate, char *msg, size_t msg_size)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    enum rpc_code code = RPC_BAD_REQUEST;

    memset(out, 0, offsetof(struct rpc_rules, regions));
    if (wire_rules_is_empty(rules))
        return RPC_OK;
    if (wire_rules_check(rules) < 0) {
        snprintf(msg, msg_size, "rules: more cells than the largest grid has");
        return RPC_BAD_REQUEST;
    }
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    wire_pack_rules(&pk, rules);
    snprintf(msg, msg_size, "out of memory for the rules");
    if (sb.data && msgpack_unpack_next(&u, sb.data, sb.size, NULL) == MSGPACK_UNPACK_SUCCESS)
        code = rpc_decode_rules(&u.data, is_generate, out, msg, msg_size);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return code;
}

/* A solve or rate request on one puzzle (as for set_puzzle) with opts
 * (solver, timeout_ms; NULL for the defaults) and rules (NULL: classic)
 * into req: the options first, as the daemon judges them. */
static enum rpc_code puzzle_request(struct rpc_request *req, const char *text, size_t len,
                                    unsigned n, const uint8_t *cells,
                                    const struct sudoku_client_options *opts,
                                    const struct sudoku_client_rules *rules, char *msg,
                                    size_t msg_size)
{
    enum rpc_code code = set_rules(&req->solve.rules, rules, 0, msg, msg_size);

    if (code == RPC_OK)
        code = set_puzzle(&req->solve, text, len, n, cells, msg, msg_size);
    if (code != RPC_OK)
        return code;
    return set_options(&req->solve, opts ? opts->solver : NULL, opts ? opts->timeout_ms : 0, msg,
                       msg_size);
}

static void fail(struct sudoku_client_result *res, enum rpc_code code, const char *msg)
{
    res->status = SUDOKU_CLIENT_FAILED;
    snprintf(res->error.code, sizeof(res->error.code), "%s", proto_code_name(code));
    snprintf(res->error.message, sizeof(res->error.message), "%s", msg);
}

/* Fill res from a solve call, whatever its outcome code says. */
static void result_of(const struct method_call *call, enum rpc_code code, const char *msg,
                      struct sudoku_client_result *res)
{
    struct rpc_solve_result r;

    solve_result(call, &r);
    snprintf(res->solver, sizeof(res->solver), "%s", r.solver);
    res->elapsed_us = r.elapsed_us;
    res->guesses = r.guesses;
    if (code != RPC_OK) {
        fail(res, code, msg);
        return;
    }
    res->count = r.count;
    if (!r.solved) {
        res->status = SUDOKU_CLIENT_UNSOLVABLE;
        return;
    }
    res->status = SUDOKU_CLIENT_SOLVED;
    res->n = r.n;
    memcpy(res->cells, r.solution, (size_t)r.n * r.n);
    codec_format_line(r.n, r.solution, CODEC_BLANK_DOT, res->solution, sizeof(res->solution));
}

void local_solve(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                 const struct sudoku_client_options *opts, const struct sudoku_client_rules *rules,
                 struct sudoku_client_result *res)
{
    static struct rpc_request req; /* rules and cells: kept off the stack */
    char msg[256];
    enum rpc_code code;

    memset(&req, 0, sizeof(req));
    req.method = RPC_M_SOLVE;
    code = puzzle_request(&req, text, len, n, cells, opts, rules, msg, sizeof(msg));

    memset(res, 0, sizeof(*res));
    req.solve.limit = opts && opts->limit ? opts->limit : 1;
    if (code != RPC_OK) {
        fail(res, code, msg);
        return;
    }
    code = local_call(l, &req, msg, sizeof(msg));
    if (l->call->ops) /* validated: what the plugin said */
        result_of(l->call, code, msg, res);
    else
        fail(res, code, msg);
    method_end(l->call);
}

size_t local_solvers(const struct local *l, struct sudoku_client_solver *out, size_t cap)
{
    static const unsigned sides[] = {4, 9, 16, 25};
    const struct host_plugin *def = host_default(l->host);
    size_t len = host_count(l->host);

    for (size_t i = 0; i < len && i < cap; i++) {
        const struct host_plugin *p = host_plugin_at(l->host, i);
        struct sudoku_client_solver *s = &out[i];
        memset(s, 0, sizeof(*s));
        snprintf(s->name, sizeof(s->name), "%s", p->desc->name);
        snprintf(s->version, sizeof(s->version), "%s", p->desc->version ? p->desc->version : "");
        snprintf(s->description, sizeof(s->description), "%s",
                 p->desc->description ? p->desc->description : "");
        for (unsigned k = 0; k < 4; k++) {
            if (p->desc->sizes & sdk_size_bit(sides[k]))
                s->sizes |= 1u << k;
            if (host_default_for(l->host, (int)sides[k]) == p) /* as the daemon lists it */
                s->default_sizes |= 1u << k;
        }
        s->is_default = p == def;
        s->is_explain = host_plugin_has_explain(p);
    }
    return len;
}

/* A plugin's SDK_RULE_* kinds as the client's bits. */
static unsigned client_rule_bits(uint32_t kinds)
{
    static const struct {
        uint32_t kind;
        unsigned flag;
    } map[] = {
        {SDK_RULE_DIAGONALS, SUDOKU_CLIENT_RULE_DIAGONALS},
        {SDK_RULE_WINDOWS, SUDOKU_CLIENT_RULE_WINDOWS},
        {SDK_RULE_REGIONS, SUDOKU_CLIENT_RULE_DRAW_REGIONS},
        {SDK_RULE_ANTI_KNIGHT, SUDOKU_CLIENT_RULE_ANTI_KNIGHT},
        {SDK_RULE_ANTI_KING, SUDOKU_CLIENT_RULE_ANTI_KING},
        {SDK_RULE_NON_CONSECUTIVE, SUDOKU_CLIENT_RULE_NON_CONSECUTIVE},
        {SDK_RULE_CAGES, SUDOKU_CLIENT_RULE_DRAW_CAGES},
    };
    unsigned flags = 0;

    for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
        if (kinds & map[k].kind)
            flags |= map[k].flag;
    return flags;
}

void local_solver_rules(const struct local *l, size_t i, unsigned *rules, unsigned *explain_rules)
{
    const struct sdk_plugin *d = host_plugin_at(l->host, i)->desc;

    *rules = client_rule_bits(sdk_plugin_rules(d, 0));
    *explain_rules = client_rule_bits(sdk_plugin_rules(d, 1));
}

/* ------------------------------------------------------------------------ */
/* Rating */

static void rate_fail(struct sudoku_client_rating *res, enum rpc_code code, const char *msg)
{
    res->status = code == RPC_NOT_UNIQUE ? SUDOKU_CLIENT_NOT_UNIQUE : SUDOKU_CLIENT_FAILED;
    snprintf(res->error.code, sizeof(res->error.code), "%s", proto_code_name(code));
    snprintf(res->error.message, sizeof(res->error.message), "%s", msg);
}

static void rating_of(const struct method_call *call, struct sudoku_client_rating *res)
{
    struct rating r;

    rate_result(call, &r);
    res->status = SUDOKU_CLIENT_SOLVED;
    res->rating = r.rating;
    res->ep = r.ep;
    res->ed = r.ed;
    snprintf(res->difficulty, sizeof(res->difficulty), "%s", r.difficulty);
    snprintf(res->hardest, sizeof(res->hardest), "%s", r.hardest);
    res->steps = r.steps;
    res->is_logic = r.is_logic;
    snprintf(res->solver, sizeof(res->solver), "%s", r.solver);
    res->elapsed_us = r.elapsed_us;
}

void local_rate(struct local *l, const char *text, size_t len, unsigned n, const uint8_t *cells,
                const struct sudoku_client_options *opts, const struct sudoku_client_rules *rules,
                struct sudoku_client_rating *res)
{
    static struct rpc_request req; /* rules and cells: kept off the stack */
    char msg[256];
    enum rpc_code code;

    memset(&req, 0, sizeof(req));
    req.method = RPC_M_RATE;
    code = puzzle_request(&req, text, len, n, cells, opts, rules, msg, sizeof(msg));

    memset(res, 0, sizeof(*res));
    if (code == RPC_OK)
        code = local_call(l, &req, msg, sizeof(msg));
    if (code != RPC_OK)
        rate_fail(res, code, msg);
    else
        rating_of(l->call, res);
    method_end(l->call);
}

/* ------------------------------------------------------------------------ */
/* Explaining */

/* A refusal, worded as the daemon's error answer would be. */
static int refuse(struct sudoku_client_error *err, enum rpc_code code, const char *msg)
{
    client__set_error(err, proto_code_name(code), "%s", msg);
    return -EREMOTEIO;
}

/* An explain request as the daemon decodes it: the options (progress)
 * first, then the puzzle, then the pencil marks of its side. */
static enum rpc_code explain_request(const char *text, size_t len,
                                     const struct sudoku_client_explain_opts *eo,
                                     const struct sudoku_client_rules *rules,
                                     struct rpc_request *req, char *msg, size_t msg_size)
{
    struct rpc_explain_params *e = &req->explain;
    enum rpc_code code = set_rules(&req->solve.rules, rules, 0, msg, msg_size);

    if (code != RPC_OK)
        return code;
    if (eo && eo->progress) {
        char why[200];
        if (codec_parse_line(eo->progress, eo->progress_len, &e->progress_n, e->progress, why,
                             sizeof(why)) < 0) {
            snprintf(msg, msg_size, "option progress: %s", why);
            return RPC_BAD_REQUEST;
        }
        e->has_progress = 1;
    }
    e->max_steps = eo ? eo->steps : 0;
    code = set_puzzle(&req->solve, text, len, 0, NULL, msg, msg_size);
    if (code != RPC_OK)
        return code;
    e->level = eo ? eo->level : 0;
    if (e->level > 4) {
        snprintf(msg, msg_size, "option level must be in 1..4");
        return RPC_BAD_REQUEST;
    }
    if (eo && eo->candidates) {
        code = rpc_decode_marks_str(eo->candidates, eo->candidates_len, req->solve.n, e->candidates,
                                    msg, msg_size);
        if (code != RPC_OK)
            return code;
        e->has_candidates = 1;
    }
    return set_options(&req->solve, eo ? eo->solver : NULL, eo ? eo->timeout_ms : 0, msg, msg_size);
}

/* What an explanation's steps need, counted over all of them. */
struct explain_size {
    size_t pairs, cells, text;
};

/* One block as the client library allocates an explanation, so that
 * sudoku_client_explanation_free() frees it: the struct first, then its
 * steps, pairs, cells and texts. */
struct explain_block {
    struct sudoku_client_explanation e;
    struct sudoku_client_step steps[];
};

/* Where the copy writes: cursors into the block. */
struct explain_fill {
    struct sudoku_client_cell_value *pairs;
    uint16_t *cells;
    char *text;
};

static const struct sudoku_client_cell_value *
copy_pairs(const struct sdk_cell_value *cv, uint32_t len, struct explain_fill *f, size_t *out_len)
{
    const struct sudoku_client_cell_value *first = f->pairs;

    for (uint32_t i = 0; i < len; i++, f->pairs++) {
        f->pairs->cell = cv[i].cell;
        f->pairs->value = cv[i].value;
    }
    *out_len = len;
    return first;
}

static void copy_step(const struct explain_step *st, struct sudoku_client_step *out,
                      struct explain_fill *f)
{
    size_t text_len = strlen(st->text);

    snprintf(out->technique, sizeof(out->technique), "%s", st->technique);
    out->rating = st->rating;
    out->placements = copy_pairs(st->placements, st->placements_len, f, &out->placements_len);
    out->eliminations =
        copy_pairs(st->eliminations, st->eliminations_len, f, &out->eliminations_len);
    out->restore = copy_pairs(st->restore, st->restore_len, f, &out->restore_len);
    out->cells = f->cells;
    out->cells_len = st->cells_len;
    if (st->cells_len)
        memcpy(f->cells, st->cells, st->cells_len * sizeof(*st->cells));
    f->cells += st->cells_len;
    out->text = f->text;
    memcpy(f->text, st->text, text_len + 1);
    f->text += text_len + 1;
    snprintf(out->house_type, sizeof(out->house_type), "%s", house_type_name(st->house.type));
    out->house_index = st->house.index;
}

static enum sudoku_client_explain_status status_of(uint32_t status)
{
    return status == SDK_EXPLAIN_SOLVED    ? SUDOKU_CLIENT_EXPLAIN_SOLVED
           : status == SDK_EXPLAIN_PARTIAL ? SUDOKU_CLIENT_EXPLAIN_PARTIAL
                                           : SUDOKU_CLIENT_EXPLAIN_STUCK;
}

/* The explanation of an explain call, as the client library gives it.
 * Returns 0 with *out (free it with sudoku_client_explanation_free) or
 * -ENOMEM. */
static int explanation_of(const struct method_call *call, struct sudoku_client_explanation **out)
{
    struct explanation e;
    struct explain_step st;
    struct explain_size z = {0};
    struct explain_fill f;
    struct explain_block *b;

    explain_result(call, &e);
    for (uint32_t i = 0; i < e.steps_len; i++) {
        explain_step_at(call, i, &st);
        z.pairs += st.placements_len + st.eliminations_len + st.restore_len;
        z.cells += st.cells_len;
        z.text += strlen(st.text) + 1;
    }
    b = calloc(1, sizeof(*b) + e.steps_len * sizeof(b->steps[0]) +
                      z.pairs * sizeof(struct sudoku_client_cell_value) +
                      z.cells * sizeof(uint16_t) + z.text);
    if (!b)
        return -ENOMEM;
    f.pairs = (struct sudoku_client_cell_value *)(b->steps + e.steps_len);
    f.cells = (uint16_t *)(f.pairs + z.pairs);
    f.text = (char *)(f.cells + z.cells);
    for (uint32_t i = 0; i < e.steps_len; i++) {
        explain_step_at(call, i, &st);
        copy_step(&st, &b->steps[i], &f);
    }
    b->e.status = status_of(e.status);
    b->e.n = e.n;
    b->e.rating = e.rating;
    b->e.ep = e.ep;
    b->e.ed = e.ed;
    snprintf(b->e.difficulty, sizeof(b->e.difficulty), "%s", e.difficulty);
    snprintf(b->e.hardest, sizeof(b->e.hardest), "%s", e.hardest);
    snprintf(b->e.solver, sizeof(b->e.solver), "%s", e.solver);
    b->e.elapsed_us = e.elapsed_us;
    b->e.steps_len = e.steps_len;
    b->e.steps = b->steps;
    *out = &b->e;
    return 0;
}

int local_explain(struct local *l, const char *text, size_t len,
                  const struct sudoku_client_explain_opts *eo,
                  const struct sudoku_client_rules *rules, struct sudoku_client_explanation **out,
                  struct sudoku_client_error *err)
{
    static struct rpc_request req; /* rules and cells: kept off the stack */
    char msg[256];
    enum rpc_code code;
    int rc;

    memset(&req, 0, sizeof(req));
    req.method = RPC_M_EXPLAIN;
    code = explain_request(text, len, eo, rules, &req, msg, sizeof(msg));
    *out = NULL;
    if (code == RPC_OK)
        code = local_call(l, &req, msg, sizeof(msg));
    if (code != RPC_OK) {
        rc = refuse(err, code, msg);
    } else {
        rc = explanation_of(l->call, out);
        if (rc < 0)
            client__set_error(err, "io", "cannot build the explanation: %s", strerror(-rc));
    }
    method_end(l->call);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Generating */

/* Decode opts as the daemon decodes a generate request: pack it as the
 * client library sends it and read it back with proto/'s decoder. */
static enum rpc_code generate_params(const struct sudoku_client_generate_opts *opts,
                                     const struct sudoku_client_rules *rules,
                                     struct rpc_generate_params *g, char *msg, size_t msg_size)
{
    struct cbuf b = {.max = 1u << 16};
    msgpack_unpacked u;
    enum rpc_code code = RPC_BAD_REQUEST;

    msgpack_unpacked_init(&u);
    snprintf(msg, msg_size, "cannot encode the request");
    if (wire_pack_generate(&b, 0, opts, rules) == 0 &&
        msgpack_unpack_next(&u, (const char *)b.data, b.len, NULL) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_ARRAY && u.data.via.array.size == 4 &&
        u.data.via.array.ptr[3].type == MSGPACK_OBJECT_ARRAY)
        code = rpc_decode_generate(&u.data.via.array.ptr[3].via.array, g, msg, msg_size);
    msgpack_unpacked_destroy(&u);
    cbuf_free(&b);
    return code;
}

/* The puzzles of a generate call, as the client library gives them.
 * Returns 0 with *out (free it with sudoku_client_puzzles_free) or
 * -ENOMEM. */
static int puzzles_of(const struct method_call *call, struct sudoku_client_puzzle **out,
                      size_t *len, struct sudoku_client_error *err)
{
    struct generated g;
    struct sudoku_client_puzzle *p;

    generate_result(call, &g);
    p = calloc(g.len, sizeof(*p));
    if (!p) {
        client__set_error(err, "io", "out of memory for the puzzles");
        return -ENOMEM;
    }
    for (size_t i = 0; i < g.len; i++) {
        struct gen_puzzle one;
        const struct gen_puzzle *gp = &one;
        generate_puzzle_at(call, i, &one);
        p[i].n = gp->n;
        codec_format_line(gp->n, gp->puzzle, CODEC_BLANK_DOT, p[i].puzzle, sizeof(p[i].puzzle));
        codec_format_line(gp->n, gp->solution, CODEC_BLANK_DOT, p[i].solution,
                          sizeof(p[i].solution));
        p[i].givens = gp->givens;
        p[i].seed = gp->seed;
        p[i].rating = gp->rating;
        snprintf(p[i].difficulty, sizeof(p[i].difficulty), "%s",
                 g.is_rated ? proto_difficulty_of(gp->rating) : "");
        snprintf(p[i].symmetry, sizeof(p[i].symmetry), "%s", g.symmetry);
    }
    *out = p;
    *len = g.len;
    return 0;
}

/* One generate call with rules (NULL: classic) through the method.
 * Returns RPC_OK with l->call holding the answer (end it with method_end),
 * or the code with its message in msg. */
static enum rpc_code generate_call(struct local *l, const struct sudoku_client_generate_opts *opts,
                                   const struct sudoku_client_rules *rules, char *msg,
                                   size_t msg_size)
{
    static struct rpc_request req; /* rules: kept off the stack */
    enum rpc_code code;

    memset(&req, 0, sizeof(req));
    req.method = RPC_M_GENERATE;
    code = generate_params(opts, rules, &req.generate, msg, msg_size);
    return code == RPC_OK ? local_call(l, &req, msg, msg_size) : code;
}

int local_generate(struct local *l, const struct sudoku_client_generate_opts *opts,
                   struct sudoku_client_puzzle **out, size_t *len, struct sudoku_client_error *err)
{
    char msg[256];
    enum rpc_code code = generate_call(l, opts, NULL, msg, sizeof(msg));
    int rc;

    *out = NULL;
    *len = 0;
    if (code != RPC_OK) {
        client__set_error(err, proto_code_name(code), "%s", msg);
        rc = -EPROTO;
    } else {
        rc = puzzles_of(l->call, out, len, err);
    }
    method_end(l->call);
    return rc;
}

/* The puzzles of a variant generate call with their full rules (the
 * drawn layouts and cages too): its answer packed as the daemon sends it
 * and read back by the client library's decoder, so --local prints what
 * the daemon would.  Returns 0 with *out or a negative errno. */
static int variants_of(const struct method_call *call, struct sudoku_client_variant **out,
                       size_t *len, struct sudoku_client_error *err)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    struct generated g;
    msgpack_object nil = {.type = MSGPACK_OBJECT_NIL};
    int rc = -ENOMEM;

    generate_result(call, &g);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    if (generate_ops.pack(&pk, call) == 0 &&
        msgpack_unpack_next(&u, sb.data, sb.size, NULL) == MSGPACK_UNPACK_SUCCESS)
        rc = wire_decode_generate_rules(&nil, &u.data, (unsigned)g.len, out, len, err);
    else
        client__set_error(err, "io", "out of memory for the puzzles");
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return rc;
}

int local_generate_rules(struct local *l, const struct sudoku_client_generate_opts *opts,
                         const struct sudoku_client_rules *rules,
                         struct sudoku_client_variant **out, size_t *len,
                         struct sudoku_client_error *err)
{
    char msg[256];
    enum rpc_code code = generate_call(l, opts, rules, msg, sizeof(msg));
    int rc;

    *out = NULL;
    *len = 0;
    if (code != RPC_OK) {
        client__set_error(err, proto_code_name(code), "%s", msg);
        method_end(l->call);
        return -EPROTO;
    }
    rc = variants_of(l->call, out, len, err);
    method_end(l->call);
    return rc;
}
