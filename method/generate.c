/* generate.c -- the generate method (generate.h).
 *
 * Every puzzle is rated by the explaining plugin (`logic`) when one is
 * loaded and takes the size: through gen_spec's rating callback, so that a
 * difficulty band filters the candidates and a puzzle without a band still
 * carries its rating.  The generator polls its deadline before each plugin
 * call and stops there with the puzzles finished so far.  The work (struct
 * genreq, sized for the puzzles asked) is allocated by validate; the call
 * keeps its pointer.
 */
#include "method/generate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/rater.h"
#include "core/rules.h"
#include "proto/codec.h"
#include "proto/protocol.h"
#include "proto/rules.h"
#include "util/clock.h"

#define GENERATE_GRACE_MS      50 /* the generator polls its deadline before each plugin call */
#define GENERATE_REFEREE_NODES 200000000 /* rules_count's budget confirming one variant */

/* One puzzle made, kept small: its grids are in the request's block. */
struct gen_made {
    uint64_t seed;   /* gen_one(spec, seed) makes it again */
    double rating;   /* 0 when unrated */
    unsigned givens; /* non-blank cells */
};

/* A variant request's rules, kept for its spec (which points in here). */
struct genvar {
    struct rpc_rules wire;                       /* as decoded (desc points into it) */
    struct rules_desc desc;                      /* the fixed rules */
    struct rules_desc_cage cages[SDK_MAX_CELLS]; /* desc's cages */
    uint64_t cells[SDK_MAX_CELLS];               /* their cells */
};

/* One request's work and its puzzles.  A puzzle is made whole in scratch,
 * then kept as out[k] and its two grids at grids + 2 * n * n * k: a
 * thousand 4x4 puzzles take 56 KB, not a thousand struct gen_puzzle
 * (1.3 MB), which matters for the work accepted and not yet answered. */
struct genreq {
    struct gen_spec spec;              /* what to make */
    const struct host_plugin *counter; /* proves uniqueness */
    const struct host_plugin *rater;   /* explaining plugin, or NULL */
    struct gen_rater *rater_state;     /* rates on the running thread, or NULL */
    uint64_t seed;                     /* the batch's */
    uint32_t count;                    /* asked for */
    size_t done;                       /* made, from out[0] */
    int rc;                            /* gen_batch's result */
    struct gen_puzzle scratch;         /* the puzzle being made */
    struct genvar *var;                /* a variant's rules (owned), or NULL: classic */
    uint8_t *grids;                    /* count pairs of n*n cells, in the same block */
    uint16_t *cages;                   /* variants: count cage numbers of n*n cells */
    char *layouts;                     /* variants: count layouts of n*n symbols */
    struct gen_made out[];             /* count puzzles */
};

/* The call's work holds only the pointer. */
static struct genreq *work_of(const struct method_call *call)
{
    struct genreq *r;

    memcpy(&r, call->work, sizeof(r));
    return r;
}

static void genreq_free(struct genreq *r);

/* The counting plugin named when the request names none: at 25x25 under
 * rules dlx takes (all but cages), dlx when it is loaded and sat is the
 * default for the size (no --default-solver).  The digs there are many
 * counts of nearly full grids, which dlx makes in 10-18 s a minimal puzzle
 * where sat, the default for the size, runs into the 30 s timeout
 * (docs/performance.md, "25x25 variants").  Windows go to bitmask instead:
 * dlx fills no 25x25 windoku grid within a start's budget; bitmask does,
 * with the houses the windows imply, faster than sat.  "" for the default. */
static const char *counter_name(const struct host *h, const struct rpc_generate_params *g,
                                uint32_t kinds)
{
    const char *name = (kinds & SDK_RULE_WINDOWS) ? "bitmask" : "dlx";
    const struct host_plugin *p = host_find(h, name), *def = host_default_for(h, 25);

    if (g->solver[0] || g->n != 25 || !kinds || !p || !def || strcmp(def->desc->name, "sat") != 0 ||
        !method_plugin_takes(p, 25, kinds, 1))
        return g->solver;
    return name;
}

/* The counting plugin: the named one or the default for the size (see
 * counter_name); with rules, one that takes all of them (by capability,
 * as for solve). */
static enum rpc_code find_counter(const struct host *h, const struct rpc_generate_params *g,
                                  const struct host_plugin **out, char *msg, size_t msg_size)
{
    uint32_t kinds = g->rules.kinds | g->rules.draw;
    enum rpc_code code = kinds ? method_find_rules_solver(h, counter_name(h, g, kinds), g->n, kinds,
                                                          1, out, msg, msg_size)
                               : method_find_solver(h, g->solver, g->n, out, msg, msg_size);

    if (code == RPC_OK && !((*out)->desc->caps & SDK_CAP_COUNT)) {
        snprintf(msg, msg_size, "solver %s cannot count solutions, which generating needs",
                 (*out)->desc->name);
        return RPC_UNSUPPORTED;
    }
    return code;
}

/* The spec's shape from the request: symmetry, minimality, band. */
static enum rpc_code fill_spec(const struct rpc_generate_params *g, const struct host_plugin *rater,
                               struct gen_spec *spec, char *msg, size_t msg_size)
{
    spec->n = g->n;
    spec->is_minimal = g->is_minimal;
    if (g->symmetry[0] && gen_symmetry_parse(g->symmetry, &spec->symmetry) < 0) {
        snprintf(msg, msg_size,
                 "option symmetry must be one of none, rotate180, rotate90, mirror, flip, "
                 "diagonal");
        return RPC_BAD_REQUEST;
    }
    /* Symmetry places givens; drawn killer cages without givens have none,
     * and their cages are drawn without it.  Say so rather than answer
     * puzzles that only claim it. */
    if ((g->rules.draw & SDK_RULE_CAGES) && !g->rules.has_givens &&
        spec->symmetry != GEN_SYM_NONE) {
        snprintf(msg, msg_size,
                 "symmetry %s: drawn killer cages have no givens to place symmetrically and "
                 "are drawn without symmetry (ask for givens: true, or no symmetry)",
                 g->symmetry);
        return RPC_UNSUPPORTED;
    }
    if (g->has_band && !rater) {
        snprintf(msg, msg_size, "no loaded solver can rate %ux%u puzzles (a band needs one)", g->n,
                 g->n);
        return RPC_UNSUPPORTED;
    }
    /* The generator's puzzles are minimal: at 16x16 and 25x25 each one
     * needs chains (8.0 and up), so a band below extreme would run to the
     * timeout with nothing to show.  Say so at once. */
    double expert_lo = 0, expert_hi = 0;
    proto_difficulty_band("expert", 6, &expert_lo, &expert_hi);
    if (g->has_band && g->n >= 16 && g->max_rating <= expert_hi) {
        snprintf(msg, msg_size,
                 "every generated %ux%u puzzle rates extreme: a band below it is for 9x9 and "
                 "4x4 only",
                 g->n, g->n);
        return RPC_UNSUPPORTED;
    }
    /* Without a band every candidate is in [0, 1000]: rated, never refused. */
    spec->min_rating = g->has_band ? g->min_rating : 0.0;
    spec->max_rating = g->has_band ? g->max_rating : 1000.0;
    /* Without a band the first candidate is taken: one order a grid keeps
     * every seed's puzzle what it was. */
    spec->orders = g->has_band ? spec->orders : 1;
    return RPC_OK;
}

static uint64_t random_seed(void)
{
    uint64_t seed = 0;

    if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
        seed = clock_now_ns() ^ (uint64_t)(uintptr_t)&seed;
    return seed;
}

/* The explaining plugin that rates g's puzzles: the default explainer for
 * the size when it explains every rule of g, else none (unrated). */
static const struct host_plugin *find_rater(const struct host *h,
                                            const struct rpc_generate_params *g)
{
    const struct host_plugin *p = host_explainer_for(h, g->n);
    uint32_t kinds = g->rules.kinds | g->rules.draw;

    return p && (sdk_plugin_rules(p->desc, 1) & kinds) == kinds ? p : NULL;
}

/* A variant request's rules into r->var and r's spec: the fixed ones
 * checked (bad_request naming the rule), the drawn ones flagged.  Returns
 * RPC_OK (also for classic: nothing to do) or the code with msg. */
static enum rpc_code var_new(const struct rpc_generate_params *g, struct genreq *r, char *msg,
                             size_t msg_size)
{
    struct rules *check = NULL;
    enum rpc_code code;

    if (!(g->rules.kinds | g->rules.draw))
        return RPC_OK;
    code = method_rules(&g->rules, g->n, &check, msg, msg_size);
    rules_free(check);
    if (code != RPC_OK)
        return code;
    r->var = malloc(sizeof(*r->var));
    if (!r->var) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    r->var->wire = g->rules;
    method_rules_desc(&r->var->wire, g->n, &r->var->desc, r->var->cages, r->var->cells);
    r->spec.rules = &r->var->desc;
    r->spec.draw = g->rules.draw;
    r->spec.is_caged_givens = g->rules.has_givens;
    r->spec.max_referee_nodes = GENERATE_REFEREE_NODES;
    return RPC_OK;
}

/* The block of a request of count puzzles of side n: the struct, the
 * puzzles, their grids and, for variants, their cage numbers and layouts. */
static struct genreq *genreq_alloc(uint32_t count, unsigned n, int is_variant)
{
    size_t cells = (size_t)n * n, grids = 2 * cells * count;
    size_t shapes = is_variant ? 3 * cells * count : 0;
    struct genreq *r = calloc(1, sizeof(*r) + count * sizeof(r->out[0]) + grids + shapes);

    if (!r)
        return NULL;
    r->count = count;
    r->grids = (uint8_t *)(void *)&r->out[count];
    if (is_variant) {
        r->cages = (uint16_t *)(void *)(r->grids + grids); /* grids is even: aligned */
        r->layouts = (char *)(r->cages + cells * count);
    }
    return r;
}

/* Check g against the loaded plugins and set up its work: the counting
 * plugin (one that takes every rule), the rater (when one takes the size
 * and the rules), the band, the seed (g's, or one from getrandom(2)).
 * Returns RPC_OK with a new request in *out, or the code to answer with
 * the reason in msg. */
static enum rpc_code genreq_new(const struct host *h, const struct rpc_generate_params *g,
                                struct genreq **out, char *msg, size_t msg_size)
{
    const struct host_plugin *counter = NULL, *rater = find_rater(h, g);
    enum rpc_code code = find_counter(h, g, &counter, msg, msg_size);
    struct genreq *r;

    *out = NULL;
    if (code != RPC_OK)
        return code;
    r = genreq_alloc(g->count, g->n, (g->rules.kinds | g->rules.draw) != 0);
    if (!r) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    gen_spec_init(&r->spec, counter);
    code = var_new(g, r, msg, msg_size);
    if (code == RPC_OK)
        code = fill_spec(g, rater, &r->spec, msg, msg_size);
    if (code == RPC_OK && rater && gen_rater_new(rater, counter, g->n, &r->rater_state) < 0) {
        snprintf(msg, msg_size, "out of memory: try again later");
        code = RPC_OVERLOADED;
    }
    if (code != RPC_OK) {
        genreq_free(r);
        return code;
    }
    if (rater)
        gen_rater_attach(r->rater_state, &r->spec, r->spec.min_rating, r->spec.max_rating);
    r->counter = counter;
    r->rater = rater;
    r->seed = g->has_seed ? g->seed : random_seed();
    *out = r;
    return RPC_OK;
}

static void genreq_free(struct genreq *r)
{
    if (!r)
        return;
    gen_rater_free(r->rater_state);
    free(r->var);
    free(r);
}

/* ---------------------------------------------------------------- ops */

static enum rpc_code generate_validate(struct method_call *call, const struct rpc_request *req,
                                       char *msg, size_t msg_size)
{
    struct genreq *r = NULL;
    enum rpc_code code;

    code = genreq_new(call->env->host, &req->generate, &r, msg, msg_size);
    if (code != RPC_OK)
        return code;
    memcpy(call->work, &r, sizeof(r));
    call->plugin = r->counter;
    call->timeout_ms = req->generate.timeout_ms;
    return RPC_OK;
}

static void generate_destroy(struct method_call *call)
{
    genreq_free(work_of(call));
}

/* A failure of the plugins, for the driver's log. */
static void log_failure(const struct method_call *call, const struct genreq *r)
{
    char line[200];

    if (!call->env->log)
        return;
    snprintf(line, sizeof(line), "generate: %ux%u puzzle %zu of seed %" PRIu64 " failed: %s",
             r->spec.n, r->spec.n, r->done, r->seed, strerror(-r->rc));
    call->env->log(call->env->log_ctx, SDK_LOG_ERR, line);
}

/* Keep the puzzle just made as the next of r. */
static void keep(struct genreq *r, const struct gen_puzzle *p)
{
    size_t cells = (size_t)p->n * p->n;
    uint8_t *g = r->grids + 2 * cells * r->done;

    memcpy(g, p->puzzle, cells);
    memcpy(g + cells, p->solution, cells);
    if (r->var) {
        memcpy(r->cages + cells * r->done, p->cage, cells * sizeof(p->cage[0]));
        memcpy(r->layouts + cells * r->done, p->regions, cells);
    }
    r->out[r->done++] =
        (struct gen_made){.seed = p->seed, .rating = p->rating, .givens = p->givens};
}

static void generate_run(struct method_call *call, const atomic_int *cancel, uint64_t deadline_ns)
{
    struct genreq *r = work_of(call);

    uint64_t slice = call->env->slice_ns, end = slice ? clock_now_ns() + slice : UINT64_MAX;

    r->spec.cancel = cancel;
    r->spec.deadline_ns = deadline_ns;
    r->rc = 0;
    /* A slice ends between two puzzles: one is never cut short for it. */
    while (r->done < r->count && r->rc == 0 && clock_now_ns() < end) {
        r->rc = gen_batch(&r->spec, r->seed, r->done, 1, &r->scratch, NULL);
        if (r->rc == 0)
            keep(r, &r->scratch);
    }
    if (r->rc < 0 && r->rc != -ETIMEDOUT && r->rc != -ECANCELED && r->rc != -ERANGE &&
        r->rc != -EDOM)
        log_failure(call, r);
}

/* The slice ended with puzzles still to make. */
static int generate_is_unfinished(const struct method_call *call)
{
    const struct genreq *r = work_of(call);

    return r->rc == 0 && r->done < r->count;
}

/* A band's floor as a person reads it: a difficulty's floor is a hair
 * above the band below's top (proto_difficulty_band), so the next tenth. */
static double band_floor(double lo)
{
    double tenths = lo * 10, up = (double)(long)tenths + 1;

    return tenths > (double)(long)tenths && up - tenths > 1 - 1e-6 ? up / 10 : lo;
}

/* Append to msg why a band search found nothing: how its candidates
 * rated, and, when most were too hard and minimal ones were asked for, that
 * digging less makes easier ones (anti-knight's minimal puzzles, say,
 * rarely rate easy or hard).  Nothing without a band. */
static void band_why(const struct genreq *r, char *msg, size_t msg_size)
{
    const struct gen_puzzle *p = &r->scratch;
    const unsigned rated = p->above + p->below;
    size_t at = strlen(msg);
    int len;

    if (!r->spec.rate || rated == 0 || at + 1 >= msg_size)
        return;
    msg += at;
    msg_size -= at;
    len = snprintf(msg, msg_size, " (rating %g-%g: %u candidates rated, %u above, %u below",
                   band_floor(r->spec.min_rating), r->spec.max_rating, rated, p->above, p->below);
    if (len <= 0 || (size_t)len >= msg_size)
        return;
    snprintf(msg + len, msg_size - (size_t)len, "%s)",
             r->spec.is_minimal && p->above > p->below
                 ? "; minimal: false (sudoku generate --no-minimal) makes easier puzzles"
                 : "");
}

/* Append to msg, after a timeout with minimal puzzles asked for, that
 * digging less finishes sooner (a minimal 25x25 windoku takes 35 s or
 * more, one not minimal 0.1 s), unless band_why() said so already. */
static void minimal_why(const struct genreq *r, char *msg, size_t msg_size)
{
    const size_t at = strlen(msg);

    if (!r->spec.is_minimal || strstr(msg, "--no-minimal") || at + 1 >= msg_size)
        return;
    snprintf(msg + at, msg_size - at,
             " (minimal: false (sudoku generate --no-minimal) digs less and finishes sooner)");
}

/* RPC_OK when at least one puzzle was made (all, or those finished by the
 * deadline). */
static enum rpc_code generate_outcome(const struct method_call *call, char *msg, size_t msg_size)
{
    const struct genreq *r = work_of(call);

    if (r->rc == -ECANCELED) {
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    }
    if (r->done > 0 && (r->rc == 0 || r->rc == -ETIMEDOUT || r->rc == -ERANGE))
        return RPC_OK; /* all of them, or those finished in time */
    if (r->rc == -ETIMEDOUT) {
        snprintf(msg, msg_size, "no puzzle finished within %" PRIu64 " ms", call->timeout_ms);
        band_why(r, msg, msg_size);
        minimal_why(r, msg, msg_size);
        return RPC_TIMEOUT;
    }
    if (r->rc == -ERANGE) {
        snprintf(msg, msg_size, "no puzzle in the band after %u grids: try a wider band",
                 r->spec.max_attempts);
        band_why(r, msg, msg_size);
        return RPC_UNSUPPORTED;
    }
    if (r->rc == -EDOM) {
        snprintf(msg, msg_size,
                 "no %ux%u grid under these rules was found (solver %s, from every random start)",
                 r->spec.n, r->spec.n, r->counter->desc->name);
        return RPC_UNSUPPORTED;
    }
    snprintf(msg, msg_size, "solver %s failed or lied while generating (see %s)",
             r->counter->desc->name, call->env->log_hint);
    return RPC_INTERNAL;
}

void generate_result(const struct method_call *call, struct generated *out)
{
    const struct genreq *r = work_of(call);

    out->len = r->done;
    out->is_rated = r->rater != NULL;
    out->symmetry = gen_symmetry_name(r->spec.symmetry);
}

void generate_puzzle_at(const struct method_call *call, size_t k, struct gen_puzzle *out)
{
    const struct genreq *r = work_of(call);
    size_t cells = (size_t)r->spec.n * r->spec.n;
    const uint8_t *g = r->grids + 2 * cells * k;

    out->n = r->spec.n;
    memcpy(out->puzzle, g, cells);
    memcpy(out->solution, g + cells, cells);
    out->givens = r->out[k].givens;
    out->seed = r->out[k].seed;
    out->rating = r->out[k].rating;
    out->kinds = r->var ? r->var->wire.kinds | r->var->wire.draw : 0;
    if (r->var) {
        memcpy(out->cage, r->cages + cells * k, cells * sizeof(out->cage[0]));
        memcpy(out->regions, r->layouts + cells * k, cells);
    }
}

/* ------------------------------------------------------------- answer */

static int pack_line(msgpack_packer *pk, unsigned n, const uint8_t *cells)
{
    char line[SDK_MAX_CELLS + 1];
    int len = codec_format_line(n, cells, CODEC_BLANK_DOT, line, sizeof(line));

    if (len < 0)
        return len;
    return msgpack_pack_str(pk, (size_t)len) < 0 || msgpack_pack_str_body(pk, line, (size_t)len) < 0
               ? -ENOMEM
               : 0;
}

/* {puzzle, solution, givens, seed, rating, difficulty, symmetry}, and
 * rules for a variant */
static int pack_puzzle(msgpack_packer *pk, const struct generated *g, const struct gen_puzzle *p)
{
    const char *difficulty = g->is_rated ? proto_difficulty_of(p->rating) : "";

    if (msgpack_pack_map(pk, p->kinds ? 8 : 7) < 0 || proto_pack_key(pk, PROTO_K_PUZZLE) < 0 ||
        pack_line(pk, p->n, p->puzzle) < 0 || proto_pack_key(pk, PROTO_K_SOLUTION) < 0 ||
        pack_line(pk, p->n, p->solution) < 0 || proto_pack_key(pk, PROTO_K_GIVENS) < 0 ||
        msgpack_pack_uint32(pk, p->givens) < 0 || proto_pack_key(pk, PROTO_K_SEED) < 0 ||
        msgpack_pack_uint64(pk, p->seed) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, p->rating) < 0 || proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, difficulty) < 0 || proto_pack_key(pk, PROTO_K_SYMMETRY) < 0 ||
        rpc_pack_cstr(pk, g->symmetry) < 0)
        return -ENOMEM;
    if (p->kinds && (proto_pack_key(pk, PROTO_K_RULES) < 0 ||
                     rpc_pack_rules(pk, p->kinds, p->n, p->regions, p->cage, p->solution) < 0))
        return -ENOMEM;
    return 0;
}

/* An array of the puzzles made; arg is the call. */
static int generate_pack(msgpack_packer *pk, const void *arg)
{
    struct generated g;
    struct gen_puzzle p;

    generate_result(arg, &g);
    if (msgpack_pack_array(pk, (uint32_t)g.len) < 0)
        return -ENOMEM;
    for (size_t i = 0; i < g.len; i++) {
        generate_puzzle_at(arg, i, &p);
        if (pack_puzzle(pk, &g, &p) < 0)
            return -ENOMEM;
    }
    return 0;
}

/* Bytes of one puzzle's map besides its two grids: the map, seven keys,
 * two string headers, givens, seed, rating, a difficulty's and a
 * symmetry's name. */
#define GENERATE_MAP_SIZE 160

/* count puzzle maps of side n in an array. */
static size_t generate_answer_size(const struct rpc_request *req)
{
    size_t n = req->generate.n;
    const struct rpc_rules *rules = &req->generate.rules;
    size_t each =
        2 * n * n + GENERATE_MAP_SIZE + ((rules->kinds | rules->draw) ? RPC_RULES_PACK_MAX(n) : 0);

    return 8 + (size_t)req->generate.count * each;
}

const struct method_ops generate_ops = {
    .name = "generate",
    .grace_ms = GENERATE_GRACE_MS,
    .validate = generate_validate,
    .run = generate_run,
    .outcome = generate_outcome,
    .pack = generate_pack,
    .destroy = generate_destroy,
    .answer_size = generate_answer_size,
    .is_unfinished = generate_is_unfinished,
};
