/* rater.c -- rate generated puzzles with an explaining plugin (rater.h).
 *
 * The band's upper bound goes to the plugin as its rating ceiling
 * (sdk_explain.max_rating, ABI minor 2): a candidate above the band is
 * dropped at the first position that needs a harder step, before the chain
 * or forcing search that step would cost.  Its rating is then only a lower
 * bound, above the band, which is all the generator needs to drop it. */
#include "core/rater.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct gen_rater {
    const struct host_plugin *explainer; /* rates */
    const struct host_plugin *counter;   /* finds the solution the steps are checked on */
    struct sdk_explain x;                /* the job, its arrays below */
    uint8_t solution[SDK_MAX_CELLS];
    void *arrays; /* the block x's arrays point into, owned */
};

int gen_rater_new(const struct host_plugin *explainer, const struct host_plugin *counter,
                  unsigned n, struct gen_rater **out)
{
    struct gen_rater *r;

    *out = NULL;
    if (!explainer || !counter || !host_plugin_has_explain(explainer) ||
        !(explainer->desc->explain_sizes & sdk_size_bit(n)) ||
        !(counter->desc->caps & SDK_CAP_COUNT) || !(counter->desc->sizes & sdk_size_bit(n)))
        return -EINVAL;
    r = calloc(1, sizeof(*r));
    if (!r)
        return -ENOMEM;
    r->arrays = host_explain_arrays(&r->x, n, 0);
    if (!r->arrays) {
        gen_rater_free(r);
        return -ENOMEM;
    }
    r->explainer = explainer;
    r->counter = counter;
    r->x.size = sizeof(r->x);
    r->x.n = n;
    *out = r;
    return 0;
}

void gen_rater_free(struct gen_rater *r)
{
    if (!r)
        return;
    free(r->arrays);
    free(r);
}

int gen_rater_rate(void *ctx, const struct gen_rate_job *job, double *rating)
{
    struct gen_rater *r = ctx;
    struct sdk_explain *x = &r->x;
    int rc;

    if (job->n != x->n)
        return -EINVAL;
    x->cells = job->puzzle;
    x->rules = job->rules;
    x->cancel = job->cancel;
    x->deadline_ns = job->deadline_ns;
    rc = host_explain(r->explainer, r->counter, x, r->solution);
    if (rc == -ECANCELED || rc == -ETIMEDOUT)
        return rc;
    if (rc == 0 && x->status == SDK_EXPLAIN_CANCELLED)
        return -ECANCELED;
    if (rc == 0 && x->status == SDK_EXPLAIN_TIMEDOUT)
        return -ETIMEDOUT;
    if (rc < 0 || (x->status > SDK_EXPLAIN_STUCK && x->status != SDK_EXPLAIN_ABOVE))
        return -EIO;
    *rating = x->rating;
    return 0;
}

void gen_rater_attach(struct gen_rater *r, struct gen_spec *spec, double lo, double hi)
{
    spec->rate = gen_rater_rate;
    spec->rate_ctx = r;
    spec->min_rating = lo;
    spec->max_rating = hi;
    r->x.max_rating = hi > 0.0 ? hi : 0.0;
}
