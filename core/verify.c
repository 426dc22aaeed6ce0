/* verify.c -- never trust an explanation: replay every step against the
 * unique solution.
 *
 * A plugin's explanation is a list of steps, each placing values and
 * eliminating candidates.  The host replays them from the start position
 * on candidates of its own: a placement must be the solution's value, an
 * elimination must remove a candidate the solution does not use, each step
 * must change something, every range must lie inside the arrays the
 * caller gave, a "solved" answer must end at the solution, and the rating
 * must be the hardest step's (a stuck one, or one above the ceiling, may be
 * higher).  The arrays are read through the caller's pointers, never the
 * plugin's.  A step that fails is logged with the plugin's name and its
 * number, and the whole answer becomes -EIO.
 *
 * No state; the replay lives on the caller's stack (about 3 KiB).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/host_impl.h"

/* The candidates of a position the host replays steps on. */
struct replay {
    uint32_t n;                    /* side */
    uint8_t val[SDK_MAX_CELLS];    /* 0 = unsolved */
    uint32_t cand[SDK_MAX_CELLS];  /* candidates of unsolved cells */
    const uint8_t *solution;       /* the unique solution */
    const struct host_entry *e;    /* for logging */
    const struct sdk_explain *job; /* the plugin's answer: view below */
    struct sdk_explain view;       /* the caller's arrays, the plugin's lengths */
    const char *hardest;           /* technique of the hardest step, or NULL */
    double rating;                 /* its rating */
};

/* Solve cell with v in r and take v from its peers. */
static void replay_place(struct replay *r, uint32_t cell, uint32_t v)
{
    const uint32_t n = r->n, b = sdk_box_side(n), row = cell / n, col = cell % n;
    const uint32_t br = row / b * b, bc = col / b * b, bit = 1u << (v - 1);

    r->val[cell] = (uint8_t)v;
    r->cand[cell] = 0;
    for (uint32_t k = 0; k < n; k++) {
        r->cand[row * n + k] &= ~bit;
        r->cand[k * n + col] &= ~bit;
        r->cand[(br + k / b) * n + bc + k % b] &= ~bit;
    }
}

/* The start position: the givens or progress in start, every other
 * candidate, then, with pencil marks (n*n*n bytes, or NULL), only the
 * marked ones: a step that removes what the player already removed
 * changes nothing. */
static void replay_init(struct replay *r, uint32_t n, const uint8_t *start, const uint8_t *marks)
{
    r->n = n;
    for (uint32_t i = 0; i < n * n; i++) {
        r->val[i] = 0;
        r->cand[i] = (1u << n) - 1;
    }
    for (uint32_t i = 0; i < n * n; i++)
        if (start[i])
            replay_place(r, i, start[i]);
    for (uint32_t i = 0; marks && i < n * n; i++)
        for (uint32_t d = 1; d <= n; d++)
            if (!marks[i * n + d - 1])
                r->cand[i] &= ~(1u << (d - 1));
}

/* Log why step i is refused; returns -EIO. */
static int replay_fail(const struct replay *r, uint32_t i, const char *why, uint32_t cell,
                       uint32_t v)
{
    const struct sdk_step *s = &r->job->steps[i];

    host__logf(r->e->host, SDK_LOG_ERR, "%s: unsound explain step %u (%s): %s r%uc%u=%u",
               r->e->pub.desc->name, i + 1, s->technique ? s->technique : "?", why, cell / r->n + 1,
               cell % r->n + 1, v);
    return -EIO;
}

/* Is the range [off, off + len) inside the used part of an array? */
static int range_ok(uint32_t off, uint32_t len, uint32_t used)
{
    return off <= used && len <= used - off;
}

/* Check the shape of step i: technique, rating, ranges, text. */
static int replay_shape(const struct replay *r, uint32_t i)
{
    const struct sdk_explain *j = r->job;
    const struct sdk_step *s = &j->steps[i];

    if (!s->technique || !host__name_is_valid(s->technique) ||
        !(s->rating >= 0.0 && s->rating < 100.0))
        return replay_fail(r, i, "bad technique or rating", 0, 0);
    if (!range_ok(s->place_off, s->place_len, j->placements_len) ||
        !range_ok(s->elim_off, s->elim_len, j->eliminations_len) ||
        (s->cells_len && !range_ok(s->cells_off, s->cells_len, j->cells_out_len)))
        return replay_fail(r, i, "entries outside the arrays", 0, 0);
    for (uint32_t k = 0; k < s->cells_len; k++)
        if (j->cells_out[s->cells_off + k] >= r->n * r->n)
            return replay_fail(r, i, "pattern cell out of range", j->cells_out[s->cells_off + k],
                               0);
    if (j->text && s->text_len &&
        (!range_ok(s->text_off, s->text_len + 1, j->text_len) ||
         j->text[s->text_off + s->text_len] != '\0'))
        return replay_fail(r, i, "text outside the buffer", 0, 0);
    return 0;
}

/* Check one (cell, value) entry of step i and apply it. */
static int replay_entry(struct replay *r, uint32_t i, const struct sdk_cell_value *cv, int place)
{
    const uint32_t cell = cv->cell, v = cv->value;

    if (cell >= r->n * r->n || v < 1 || v > r->n)
        return replay_fail(r, i, "cell or value out of range", cell, v);
    if (place && r->solution[cell] != v)
        return replay_fail(r, i, "placement differs from the solution", cell, v);
    if (!place && r->solution[cell] == v)
        return replay_fail(r, i, "eliminates the solution's value", cell, v);
    if (r->val[cell] || !(r->cand[cell] & (1u << (v - 1))))
        return 0; /* changes nothing; the step as a whole must change something */
    if (place)
        replay_place(r, cell, v);
    else
        r->cand[cell] &= ~(1u << (v - 1));
    return 1;
}

/* Check and apply step i.  Returns 0 or -EIO. */
static int replay_step(struct replay *r, uint32_t i)
{
    const struct sdk_explain *j = r->job;
    const struct sdk_step *s = &j->steps[i];
    int changed = 0, rc = replay_shape(r, i);

    for (uint32_t k = 0; rc == 0 && k < s->elim_len; k++) {
        rc = replay_entry(r, i, &j->eliminations[s->elim_off + k], 0);
        changed |= rc > 0;
        rc = rc < 0 ? rc : 0;
    }
    for (uint32_t k = 0; rc == 0 && k < s->place_len; k++) {
        rc = replay_entry(r, i, &j->placements[s->place_off + k], 1);
        changed |= rc > 0;
        rc = rc < 0 ? rc : 0;
    }
    if (rc == 0 && !changed)
        return replay_fail(r, i, "changes no candidate", 0, 0);
    return rc;
}

/* SDK_EXPLAIN_ABOVE is an answer only to a job that set a ceiling, and its
 * rating must lie above it.  The host cannot check the claim itself (that
 * would be the search the ceiling saves); a plugin that makes it falsely
 * only gets its puzzle left out of a band. */
static bool above_ok(const struct sdk_explain *job, const struct sdk_explain *pj)
{
    return pj->status == SDK_EXPLAIN_ABOVE && job->max_rating > 0.0 && pj->rating > job->max_rating;
}

/* Do pj's status, lengths and rating fit what job asked and gave room for?
 * Returns 0 or -EIO (logged). */
static int answer_fits(const struct host_entry *e, const struct sdk_explain *job,
                       const struct sdk_explain *pj)
{
    if ((pj->status > SDK_EXPLAIN_NOSPACE && !above_ok(job, pj)) ||
        pj->steps_len > job->steps_cap || pj->placements_len > job->placements_cap ||
        pj->eliminations_len > job->eliminations_cap ||
        (job->cells_out ? pj->cells_out_len > job->cells_out_cap : pj->cells_out_len != 0) ||
        (job->text ? pj->text_len > job->text_cap : pj->text_len != 0) ||
        !(pj->rating >= 0.0 && pj->rating < 100.0)) {
        host__logf(e->host, SDK_LOG_ERR, "%s: explain returned bad status %u or lengths",
                   e->pub.desc->name, pj->status);
        return -EIO;
    }
    return 0;
}

/* Replay every step of pj on r from job's start position, keeping the
 * hardest.  Returns 0 or -EIO (logged). */
static int replay_all(struct replay *r, const struct host_entry *e, const struct sdk_explain *job,
                      const struct sdk_explain *pj, const uint8_t *solution)
{
    /* Read the caller's arrays through the caller's pointers, never pj's. */
    r->view = *job;
    r->view.steps_len = pj->steps_len;
    r->view.placements_len = pj->placements_len;
    r->view.eliminations_len = pj->eliminations_len;
    r->view.cells_out_len = pj->cells_out_len;
    r->view.text_len = pj->text_len;
    r->e = e;
    r->job = &r->view;
    r->solution = solution;
    replay_init(r, job->n, job->progress ? job->progress : job->cells, job->candidates);
    r->hardest = NULL;
    r->rating = 0.0;
    for (uint32_t i = 0; i < pj->steps_len; i++) {
        if (replay_step(r, i) < 0)
            return -EIO;
        if (!r->hardest || job->steps[i].rating > r->rating) {
            r->hardest = job->steps[i].technique;
            r->rating = job->steps[i].rating;
        }
    }
    return 0;
}

/* Does the end of the replay r agree with what pj says: its rating, a
 * solved grid, a stop without a reason?  Returns 0 or -EIO (logged). */
static int ending_ok(const struct replay *r, const struct sdk_explain *job,
                     const struct sdk_explain *pj, const uint8_t *solution)
{
    const char *name = r->e->pub.desc->name;

    /* The rating is the hardest step's; a stuck one, or one above the
     * ceiling, may be higher. */
    if (pj->status == SDK_EXPLAIN_STUCK || pj->status == SDK_EXPLAIN_ABOVE
            ? pj->rating < r->rating
            : pj->rating != r->rating) {
        host__logf(r->e->host, SDK_LOG_ERR, "%s: explain rating %.2f, hardest step %.2f", name,
                   pj->rating, r->rating);
        return -EIO;
    }
    /* EP and ED (0: not rated) are ratings of steps on the path: the
     * diamond no harder than the pearl, neither above the rating. */
    if (!(pj->ed >= 0.0 && pj->ep >= 0.0 && pj->ed <= pj->rating && pj->ep <= pj->rating &&
          (pj->ep == 0.0 || pj->ed <= pj->ep))) {
        host__logf(r->e->host, SDK_LOG_ERR, "%s: explain EP %.2f, ED %.2f, rating %.2f", name,
                   pj->ep, pj->ed, pj->rating);
        return -EIO;
    }
    if (pj->status == SDK_EXPLAIN_SOLVED && memcmp(r->val, solution, (size_t)job->n * job->n)) {
        host__logf(r->e->host, SDK_LOG_ERR, "%s: explain said solved, steps stop short", name);
        return -EIO;
    }
    if (pj->status == SDK_EXPLAIN_PARTIAL && pj->steps_len != job->max_steps) {
        host__logf(r->e->host, SDK_LOG_ERR, "%s: explain stopped early without a reason", name);
        return -EIO;
    }
    return 0;
}

/* Copy the plugin's out fields from pj to job. */
static void copy_out(struct sdk_explain *job, const struct sdk_explain *pj, const struct replay *r)
{
    job->status = pj->status;
    job->steps_len = pj->steps_len;
    job->placements_len = pj->placements_len;
    job->eliminations_len = pj->eliminations_len;
    job->cells_out_len = pj->cells_out_len;
    job->text_len = pj->text_len;
    job->rating = pj->rating;
    job->ep = pj->ep;
    job->ed = pj->ed;
    job->hardest = r->hardest; /* checked by replay_shape, not the plugin's word */
    if (job->grid)
        memcpy(job->grid, r->val, (size_t)job->n * job->n);
}

int host__explain_verify(const struct host_entry *e, struct sdk_explain *job,
                         const struct sdk_explain *pj, const uint8_t *solution)
{
    struct replay r;

    if (answer_fits(e, job, pj) != 0 || replay_all(&r, e, job, pj, solution) != 0 ||
        ending_ok(&r, job, pj, solution) != 0)
        return -EIO;
    copy_out(job, pj, &r);
    return 0;
}
