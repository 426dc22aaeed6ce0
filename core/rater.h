/* rater.h -- rate generated puzzles with an explaining plugin.
 *
 * The adapter between the generator's rating callback (gen_rate_fn in
 * generate.h) and host_explain(): a difficulty band filters candidates by
 * what the `logic` plugin says a person needs.  One rater holds the step
 * arrays of one rating job, so it serves one thread at a time: give each
 * generating thread its own.
 */
#ifndef SUDOKU_CORE_RATER_H
#define SUDOKU_CORE_RATER_H

#include "core/generate.h"
#include "core/host.h"

struct gen_rater;

/* A rater of n x n puzzles by explainer (host_plugin_has_explain, takes n),
 * counter finding the solution it checks the steps against.  Returns 0 and
 * *out (free with gen_rater_free), -EINVAL (explainer cannot explain n, or
 * counter cannot count), or -ENOMEM. */
int gen_rater_new(const struct host_plugin *explainer, const struct host_plugin *counter,
                  unsigned n, struct gen_rater **out);

/* Free r; NULL is fine. */
void gen_rater_free(struct gen_rater *r);

/* A gen_rate_fn: ctx is a struct gen_rater.  The rating is the hardest
 * step's (10.0 when the techniques get stuck).  Returns 0, -ECANCELED,
 * -ETIMEDOUT, or -EIO when the plugin failed or a step was unsound. */
int gen_rater_rate(void *ctx, const struct gen_rate_job *job, double *rating);

/* Set spec's rating callback to r with the band [lo, hi]. */
void gen_rater_attach(struct gen_rater *r, struct gen_spec *spec, double lo, double hi);

#endif /* SUDOKU_CORE_RATER_H */
