/* generate.c -- the generate method: a job kind (job.h).
 *
 * One request makes its puzzles on one worker with core/generate.c's
 * gen_batch(): puzzle k comes from gen_batch_seed(seed, k) alone, so the
 * answer depends only on the options and the seed, never on the worker
 * count or the load.  (A client that wants more puzzles than one worker
 * makes sends several requests at once: they run side by side.)
 *
 * Every puzzle is rated by the explaining plugin (`logic`) when one is
 * loaded and takes the size: through gen_spec's rating callback, so that a
 * difficulty band filters the candidates and a puzzle without a band still
 * carries its rating.  The generator stops at the request's deadline with
 * the puzzles finished so far, which the answer then holds; the kind's
 * grace gives it the few milliseconds to send them before the host would
 * answer `timeout` itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/generate.h"
#include "core/rater.h"
#include "daemon/job.h"
#include "daemon/log.h"
#include "proto/clock.h"
#include "proto/codec.h"

#define GENERATE_GRACE_MS 50 /* the generator polls its deadline before each plugin call */

struct generate_work {
    struct gen_spec spec;            /* what to make */
    const struct host_plugin *rater; /* explaining plugin, or NULL */
    uint64_t seed;                   /* the batch's */
    uint32_t count;                  /* asked for */
    size_t done;                     /* made, from out[0] */
    int rc;                          /* gen_batch's result */
    struct gen_rater *rater_state;   /* rates on the worker, or NULL */
    struct gen_puzzle out[];         /* count puzzles */
};

static void work_free(struct generate_work *w)
{
    if (!w)
        return;
    gen_rater_free(w->rater_state);
    free(w);
}

/* ---------------------------------------------------------------- start */

/* The counting plugin: the named one or the default for the size. */
static enum rpc_code find_counter(const struct host *h, const struct rpc_generate_params *g,
                                  const struct host_plugin **out, char *msg, size_t msg_size)
{
    const struct host_plugin *p =
        g->solver[0] ? host_find(h, g->solver) : host_default_for(h, (int)g->n);

    if (!p) {
        snprintf(msg, msg_size, "no solver named \"%s\" (the solvers method lists them)",
                 g->solver);
        return RPC_UNKNOWN_SOLVER;
    }
    if (!(p->desc->sizes & sdk_size_bit(g->n))) {
        snprintf(msg, msg_size, "solver %s cannot take %ux%u puzzles", p->desc->name, g->n, g->n);
        return RPC_UNSUPPORTED;
    }
    if (!(p->desc->caps & SDK_CAP_COUNT)) {
        snprintf(msg, msg_size, "solver %s cannot count solutions, which generating needs",
                 p->desc->name);
        return RPC_UNSUPPORTED;
    }
    *out = p;
    return RPC_OK;
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
    if (g->has_band && !rater) {
        snprintf(msg, msg_size, "no loaded solver can rate %ux%u puzzles (a band needs one)", g->n,
                 g->n);
        return RPC_UNSUPPORTED;
    }
    /* Without a band every candidate is in [0, 1000]: rated, never refused. */
    spec->min_rating = g->has_band ? g->min_rating : 0.0;
    spec->max_rating = g->has_band ? g->max_rating : 1000.0;
    return RPC_OK;
}

static uint64_t random_seed(void)
{
    uint64_t seed = 0;

    if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
        seed = clock_now_ns() ^ (uint64_t)(uintptr_t)&seed;
    return seed;
}

static void generate_run(struct job *job, uint64_t deadline_ns);
static enum rpc_code generate_outcome(const struct job *job, char *msg, size_t msg_size);
static int generate_pack(msgpack_packer *pk, const void *arg);
static void generate_destroy(struct job *job);

static const struct job_kind generate_kind = {
    .method = "generate",
    .grace_ms = GENERATE_GRACE_MS,
    .run = generate_run,
    .outcome = generate_outcome,
    .pack = generate_pack,
    .destroy = generate_destroy,
};

enum rpc_code generate_start(const struct host *h, const struct rpc_request *req, struct job *job,
                             char *msg, size_t msg_size)
{
    const struct rpc_generate_params *g = &req->generate;
    const struct host_plugin *counter = NULL, *rater = host_explainer_for(h, g->n);
    struct generate_work *w;
    enum rpc_code code = find_counter(h, g, &counter, msg, msg_size);

    if (code != RPC_OK)
        return code;
    w = calloc(1, sizeof(*w) + (size_t)g->count * sizeof(w->out[0]));
    if (!w) {
        snprintf(msg, msg_size, "out of memory: try again later");
        return RPC_OVERLOADED;
    }
    gen_spec_init(&w->spec, counter);
    code = fill_spec(g, rater, &w->spec, msg, msg_size);
    if (code == RPC_OK && rater && gen_rater_new(rater, counter, g->n, &w->rater_state) < 0) {
        snprintf(msg, msg_size, "out of memory: try again later");
        code = RPC_OVERLOADED;
    }
    if (code == RPC_OK && rater)
        gen_rater_attach(w->rater_state, &w->spec, w->spec.min_rating, w->spec.max_rating);
    if (code != RPC_OK) {
        work_free(w);
        return code;
    }
    w->rater = rater;
    w->seed = g->has_seed ? g->seed : random_seed();
    w->count = g->count;
    job->kind = &generate_kind;
    job->work = w;
    job->plugin = counter;
    job->n = g->n;
    return RPC_OK;
}

static void generate_destroy(struct job *job)
{
    work_free(job->work);
    job->work = NULL;
}

/* ---------------------------------------------------------------- work */

static void generate_run(struct job *job, uint64_t deadline_ns)
{
    struct generate_work *w = job->work;
    uint64_t t0 = clock_now_ns();

    w->spec.cancel = &job->cancel;
    w->spec.deadline_ns = deadline_ns;
    w->rc = gen_batch(&w->spec, w->seed, 0, w->count, w->out, &w->done);
    for (size_t i = 0; i < w->done; i++)
        job->guesses += w->out[i].solves;
    job->elapsed_us += (clock_now_ns() - t0) / 1000u;
    if (w->rc < 0 && w->rc != -ETIMEDOUT && w->rc != -ECANCELED && w->rc != -ERANGE)
        log_msg(SDK_LOG_ERR, "generate: %ux%u puzzle %zu of seed %" PRIu64 " failed: %s", job->n,
                job->n, w->done, w->seed, strerror(-w->rc));
}

static enum rpc_code generate_outcome(const struct job *job, char *msg, size_t msg_size)
{
    const struct generate_work *w = job->work;

    if (w->rc == -ECANCELED) {
        snprintf(msg, msg_size, "cancelled");
        return RPC_CANCELLED;
    }
    if (w->done > 0 && (w->rc == 0 || w->rc == -ETIMEDOUT || w->rc == -ERANGE))
        return RPC_OK; /* all of them, or those finished in time */
    if (w->rc == -ETIMEDOUT) {
        snprintf(msg, msg_size, "no puzzle finished within %" PRIu64 " ms", job->timeout_ms);
        return RPC_TIMEOUT;
    }
    if (w->rc == -ERANGE) {
        snprintf(msg, msg_size, "no puzzle in the band after %u grids: try a wider band",
                 w->spec.max_attempts);
        return RPC_UNSUPPORTED;
    }
    snprintf(msg, msg_size, "solver %s failed or lied while generating (see the daemon log)",
             job->plugin->desc->name);
    return RPC_INTERNAL;
}

/* ---------------------------------------------------------------- answer */

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

/* {puzzle, solution, givens, seed, rating, difficulty, symmetry} */
static int pack_puzzle(msgpack_packer *pk, const struct generate_work *w,
                       const struct gen_puzzle *p)
{
    const char *difficulty = w->rater ? proto_difficulty_of(p->rating) : "";

    if (msgpack_pack_map(pk, 7) < 0 || proto_pack_key(pk, PROTO_K_PUZZLE) < 0 ||
        pack_line(pk, p->n, p->puzzle) < 0 || proto_pack_key(pk, PROTO_K_SOLUTION) < 0 ||
        pack_line(pk, p->n, p->solution) < 0 || proto_pack_key(pk, PROTO_K_GIVENS) < 0 ||
        msgpack_pack_uint32(pk, p->givens) < 0 || proto_pack_key(pk, PROTO_K_SEED) < 0 ||
        msgpack_pack_uint64(pk, p->seed) < 0 || proto_pack_key(pk, PROTO_K_RATING) < 0 ||
        msgpack_pack_double(pk, p->rating) < 0 || proto_pack_key(pk, PROTO_K_DIFFICULTY) < 0 ||
        rpc_pack_cstr(pk, difficulty) < 0 || proto_pack_key(pk, PROTO_K_SYMMETRY) < 0 ||
        rpc_pack_cstr(pk, gen_symmetry_name(w->spec.symmetry)) < 0)
        return -ENOMEM;
    return 0;
}

static int generate_pack(msgpack_packer *pk, const void *arg)
{
    const struct job *job = arg;
    const struct generate_work *w = job->work;

    if (msgpack_pack_array(pk, (uint32_t)w->done) < 0)
        return -ENOMEM;
    for (size_t i = 0; i < w->done; i++)
        if (pack_puzzle(pk, w, &w->out[i]) < 0)
            return -ENOMEM;
    return 0;
}
