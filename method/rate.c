/* rate.c -- the rate method (rate.h): explain's work, a rating's answer. */
#include "method/rate.h"

#include <errno.h>

#include "method/explain.h"
#include "proto/protocol.h"
#include "proto/read.h"

void rate_result(const struct method_call *call, struct rating *out)
{
    const struct sdk_explain *x = explain_work_job(call);

    *out = (struct rating){
        .rating = x->rating,
        .difficulty = proto_difficulty_of(x->rating),
        .hardest = x->hardest ? x->hardest : "",
        .steps = x->steps_len,
        .is_logic = x->status != SDK_EXPLAIN_STUCK,
        .solver = call->plugin->desc->name,
        .elapsed_us = call->elapsed_us,
    };
}

/* {rating, difficulty, hardest, steps, logic, solver, elapsed_us}; arg is
 * the call. */
static int rate_pack(msgpack_packer *pk, const void *arg)
{
    struct rating r;

    rate_result(arg, &r);
    if (msgpack_pack_map(pk, 7) < 0 ||
        explain_pack_grade(pk, r.rating, r.difficulty, r.hardest) < 0 ||
        proto_pack_key(pk, PROTO_K_STEPS) < 0 || msgpack_pack_uint32(pk, r.steps) < 0 ||
        proto_pack_key(pk, PROTO_K_LOGIC) < 0 ||
        (r.is_logic ? msgpack_pack_true(pk) : msgpack_pack_false(pk)) < 0 ||
        explain_pack_by(pk, r.solver, r.elapsed_us) < 0)
        return -ENOMEM;
    return 0;
}

/* Seven keys, two numbers and three names (difficulty, technique, solver):
 * the same whatever the puzzle. */
static size_t rate_answer_size(const struct rpc_request *req)
{
    (void)req;
    return 512;
}

const struct method_ops rate_ops = {
    .name = "rate",
    .validate = explain_work_validate,
    .run = explain_work_run,
    .outcome = explain_work_outcome,
    .pack = rate_pack,
    .destroy = explain_work_destroy,
    .answer_size = rate_answer_size,
};
