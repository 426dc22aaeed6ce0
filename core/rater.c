/* rater.c -- rate generated puzzles with an explaining plugin (rater.h). */
#include "core/rater.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct gen_rater {
    const struct host_plugin *explainer; /* rates */
    const struct host_plugin *counter;   /* finds the solution the steps are checked on */
    struct sdk_explain x;                /* the job, its arrays below */
    uint8_t solution[SDK_MAX_CELLS];
    struct sdk_step *steps;
    struct sdk_cell_value *places, *elims;
};

int gen_rater_new(const struct host_plugin *explainer, const struct host_plugin *counter,
                  unsigned n, struct gen_rater **out)
{
    size_t cells = (size_t)n * n, steps = cells * n;
    struct gen_rater *r;

    *out = NULL;
    if (!explainer || !counter || !host_plugin_has_explain(explainer) ||
        !(explainer->desc->explain_sizes & sdk_size_bit(n)) ||
        !(counter->desc->caps & SDK_CAP_COUNT) || !(counter->desc->sizes & sdk_size_bit(n)))
        return -EINVAL;
    r = calloc(1, sizeof(*r));
    if (!r)
        return -ENOMEM;
    /* Never run out: every step changes a candidate (host.h). */
    r->steps = malloc(steps * sizeof(*r->steps));
    r->places = malloc(cells * sizeof(*r->places));
    r->elims = malloc(steps * sizeof(*r->elims));
    if (!r->steps || !r->places || !r->elims) {
        gen_rater_free(r);
        return -ENOMEM;
    }
    r->explainer = explainer;
    r->counter = counter;
    r->x.size = sizeof(r->x);
    r->x.n = n;
    r->x.steps = r->steps;
    r->x.placements = r->places;
    r->x.eliminations = r->elims;
    r->x.steps_cap = (uint32_t)steps;
    r->x.placements_cap = (uint32_t)cells;
    r->x.eliminations_cap = (uint32_t)steps;
    *out = r;
    return 0;
}

void gen_rater_free(struct gen_rater *r)
{
    if (!r)
        return;
    free(r->steps);
    free(r->places);
    free(r->elims);
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
    x->cancel = job->cancel;
    x->deadline_ns = job->deadline_ns;
    rc = host_explain(r->explainer, r->counter, x, r->solution);
    if (rc == -ECANCELED || rc == -ETIMEDOUT)
        return rc;
    if (rc == 0 && x->status == SDK_EXPLAIN_CANCELLED)
        return -ECANCELED;
    if (rc == 0 && x->status == SDK_EXPLAIN_TIMEDOUT)
        return -ETIMEDOUT;
    if (rc < 0 || x->status > SDK_EXPLAIN_STUCK)
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
}
