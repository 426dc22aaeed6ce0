/* explain.c -- the ladder: the easiest step, again and again, into host buffers.
 *
 * The technique table is sorted by rating; each round asks the techniques in
 * order and takes the first step found, so the path is the one a person
 * working from easy to hard would take and the rating is its hardest step.
 * A step is applied to the position, then copied into the host's arrays
 * (struct sdk_explain): the plugin never writes past a capacity and never
 * keeps a pointer into the job.  The cancel flag and the deadline are polled
 * before every step and, inside the chain and forcing searches, before each
 * start cell or unit, so a stop is seen within a fraction of one step.  The
 * With a rating ceiling (job->max_rating, ABI minor 2) only the rungs rated
 * up to it are asked: a position none of them moves ends the run with
 * SDK_EXPLAIN_ABOVE and the next rung's rating, so a band generator never
 * pays a chain search for a candidate it will drop; and a rung that only
 * rungs rated above the ceiling follow may stop searching there
 * (lg_ctx.cut_above).  The
 * working state (position, places, one step, the forcing rungs' shared
 * branches) is one struct on the stack, about 10 KB; a chain search adds
 * up to 340 KB (SE's chains, sechain.c; the nested ones allocate more), a forcing
 * search 10 KB.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lg.h"

/* The ladder, in Sudoku Explainer's order of preference (which is the
 * order of its ratings); a rung's rating is the least its steps rate (a
 * hidden single rates 1.0, 1.2 or 1.5 by where it is found). */
static const struct lg_rung ladder[] = {
    {"hidden_single", 1.0, lg_hidden_single},
    {"direct_pointing", 1.7, lg_direct_pointing},
    {"direct_claiming", 1.9, lg_direct_claiming},
    {"direct_hidden_pair", 2.0, lg_direct_hidden_pair},
    {"naked_single", 2.3, lg_naked_single},
    {"direct_hidden_triple", 2.5, lg_direct_hidden_triple},
    {"locked_candidates_pointing", 2.6, lg_pointing},
    {"locked_candidates_claiming", 2.8, lg_claiming},
    {"naked_pair", 3.0, lg_naked_pair},
    {"x_wing", 3.2, lg_x_wing},
    {"hidden_pair", 3.4, lg_hidden_pair},
    {"naked_triple", 3.6, lg_naked_triple},
    {"swordfish", 3.8, lg_swordfish},
    {"hidden_triple", 4.0, lg_hidden_triple},
    {"xy_wing", 4.2, lg_xy_wing},
    {"xyz_wing", 4.4, lg_xyz_wing},
    {"unique_rectangle", 4.5, lg_unique_loop},
    {"naked_quad", 5.0, lg_naked_quad},
    {"jellyfish", 5.2, lg_jellyfish},
    {"hidden_quad", 5.4, lg_hidden_quad},
    {"bug", 5.6, lg_bug},
    {"aligned_pair_exclusion", 6.2, lg_aligned_pair_exclusion},
    {"x_cycle", 6.5, lg_se_chain},
    {"x_chain", 6.6, lg_x_chain},
    {"xy_chain", 6.8, lg_xy_chain},
    {"aic", 7.0, lg_aic},
    {"aligned_triple_exclusion", 7.5, lg_aligned_triple_exclusion},
    {"nishio_forcing_chain", 7.5, lg_se_nishio},
    {"forcing_chain", 8.0, lg_forcing_chain},
    {"dynamic_forcing_chain", 8.5, lg_dynamic_forcing_chain},
    {"dynamic_forcing_chain_plus", 9.0, lg_dynamic_forcing_chain_plus},
    {"nested_forcing_chain", 9.5, lg_nested_forcing_chain},
    {"nested_multiple_forcing_chain", 10.0, lg_se_nested_multiple},
    {"nested_dynamic_forcing_chain", 10.5, lg_se_nested_dynamic},
    {"nested_dynamic_forcing_chain_plus", 11.0, lg_nested_forcing_chain_last},
};

#define LADDER_LEN (sizeof(ladder) / sizeof(ladder[0]))

/* The ladder, for tests and documentation checks. */
const struct lg_rung *lg_ladder(size_t *len)
{
    *len = LADDER_LEN;
    return ladder;
}

/* Everything one explain call works on. */
struct lg_run {
    const struct lg_geom *geo;   /* the shape (plugin state, shared, read-only) */
    struct lg_grid g;            /* the position */
    struct lg_step step;         /* the step being found */
    struct lg_pos pos;           /* the places cache of g */
    struct lg_forcing_keep keep; /* the forcing rungs' shared branches of g */
    struct lg_cage_memo *cages; /* killer fillings the cage and forcing rungs met, or NULL (free) */
};

/* Find the easiest step of the position into s, asking only the rungs rated
 * up to ceiling (0: all).  Returns LADDER_FOUND, LADDER_NONE (no rung
 * applies: stuck) or LADDER_ABOVE (none up to the ceiling does, or the step
 * found rates above it; *above is then the next rung's rating or that
 * step's, the least a step here can rate). */
enum ladder_result { LADDER_FOUND, LADDER_NONE, LADDER_ABOVE };

/* Does rung i of the ladder find nothing on this grid by construction (the
 * chain rungs that SE's chaining rung replaces on a classic 9x9, chains.c)? */
static bool rung_is_shadowed(const struct lg_ctx *c, size_t i)
{
    lg_technique_fn *fn = ladder[i].fn;

    return (fn == lg_x_chain || fn == lg_xy_chain || fn == lg_aic) && lg_se_applies(c);
}

/* The ceiling rung i may cut its search at (lg_ctx.cut_above): the ceiling
 * when every rung after it that can find a step rates above it, else 0. */
static double rung_cut(const struct lg_ctx *c, size_t i, double ceiling)
{
    if (ceiling <= 0.0 || c->geo->rules)
        return 0.0; /* no ceiling, or a variant's rungs join the ladder */
    for (size_t k = i + 1; k < LADDER_LEN; k++)
        if (!rung_is_shadowed(c, k))
            return ladder[k].rating > ceiling ? ceiling : 0.0;
    return ceiling;
}

static enum ladder_result ladder_next(const struct lg_ctx *c, struct lg_step *s, double ceiling,
                                      double *above)
{
    size_t var_len = 0, j = 0;
    const struct lg_rung *var = c->geo->rules ? lg_var_ladder(&var_len) : NULL;
    struct lg_ctx rc = *c;

    /* A variant's rungs (variant.c) join the ladder by rating. */
    for (size_t i = 0; i < LADDER_LEN || j < var_len;) {
        const struct lg_rung *r =
            j < var_len && (i == LADDER_LEN || var[j].rating < ladder[i].rating) ? &var[j++]
                                                                                 : &ladder[i++];
        if (ceiling > 0.0 && r->rating > ceiling) {
            *above = r->rating;
            return LADDER_ABOVE;
        }
        lg_step_reset(s, r->name, r->rating);
        rc.cut_above = var_len ? 0.0 : rung_cut(c, (size_t)(r - ladder), ceiling);
        if (!r->fn(&rc, s))
            continue;
        if (ceiling > 0.0 && s->rating > ceiling) {
            *above = s->rating; /* the step rates more than its rung's least */
            return LADDER_ABOVE;
        }
        return LADDER_FOUND;
    }
    return LADDER_NONE;
}

/* The job's rating ceiling: 0 when the host was built before minor 2. */
static double job_ceiling(const struct sdk_explain *job)
{
    if (job->size < offsetof(struct sdk_explain, max_rating) + sizeof(job->max_rating))
        return 0.0;
    return job->max_rating > 0.0 ? job->max_rating : 0.0;
}

/* The job's solution (minor 3) when position g agrees with it: every
 * solved cell holds its value and every open cell still has it as a
 * candidate; else NULL (an older host, or a position it does not fit). */
static const uint8_t *job_solution(const struct sdk_explain *job, const struct lg_grid *g,
                                   uint32_t ncells)
{
    if (job->size < offsetof(struct sdk_explain, solution) + sizeof(job->solution) ||
        !job->solution)
        return NULL;
    for (uint32_t i = 0; i < ncells; i++) {
        const uint32_t v = job->solution[i];
        if (v == 0 || v > job->n)
            return NULL;
        if (g->val[i] ? g->val[i] != v : !((g->cand[i] >> (v - 1)) & 1u))
            return NULL;
    }
    return job->solution;
}

/* Does position g still agree with solution after step s, applied to it,
 * when it agreed before?  A placement of the solution's value takes out
 * only what the solution leaves out, so only the step's own placements and
 * eliminations need a look (a position that disagrees never agrees again:
 * candidates only go). */
static bool step_keeps(const struct lg_step *s, const uint8_t *solution)
{
    for (uint32_t i = 0; i < s->place_len; i++)
        if (solution[s->place_cell[i]] != s->place_val[i])
            return false;
    for (uint32_t i = 0; i < s->elim_len; i++)
        if (solution[s->elim_cell[i]] == s->elim_val[i])
            return false;
    return true;
}

/* Is there room in the host's arrays for step s?  (A NULL array means that
 * part is not recorded.) */
static bool step_fits(const struct sdk_explain *job, const struct lg_step *s)
{
    if (job->steps && job->steps_len >= job->steps_cap)
        return false;
    if (job->placements && job->placements_len + s->place_len > job->placements_cap)
        return false;
    if (job->eliminations && job->eliminations_len + s->elim_len > job->eliminations_cap)
        return false;
    if (job->cells_out && job->cells_out_len + s->cells_len > job->cells_out_cap)
        return false;
    return !job->text || job->text_len + s->text_len + 1 <= job->text_cap;
}

/* Copy the placements and eliminations of s into the host arrays. */
static void record_pairs(struct sdk_explain *job, const struct lg_step *s, struct sdk_step *out)
{
    out->place_off = job->placements_len;
    out->place_len = job->placements ? s->place_len : 0;
    for (uint32_t i = 0; i < out->place_len; i++)
        job->placements[job->placements_len++] =
            (struct sdk_cell_value){.cell = s->place_cell[i], .value = s->place_val[i]};
    out->elim_off = job->eliminations_len;
    out->elim_len = job->eliminations ? s->elim_len : 0;
    for (uint32_t i = 0; i < out->elim_len; i++)
        job->eliminations[job->eliminations_len++] =
            (struct sdk_cell_value){.cell = s->elim_cell[i], .value = s->elim_val[i]};
}

/* Record step s (already checked by step_fits). */
static void record_step(struct sdk_explain *job, const struct lg_step *s)
{
    struct sdk_step out = {.technique = s->name, .rating = s->rating};

    record_pairs(job, s, &out);
    out.cells_off = job->cells_out_len;
    out.cells_len = job->cells_out ? s->cells_len : 0;
    if (out.cells_len)
        memcpy(job->cells_out + job->cells_out_len, s->cells, s->cells_len * sizeof(s->cells[0]));
    job->cells_out_len += out.cells_len;
    out.text_off = job->text_len;
    out.text_len = job->text ? s->text_len : 0;
    if (job->text) {
        memcpy(job->text + job->text_len, s->text, s->text_len + 1);
        job->text_len += s->text_len + 1;
    }
    if (job->steps)
        job->steps[job->steps_len] = out;
    job->steps_len++;
    if (!job->hardest || s->rating > job->rating) {
        job->rating = s->rating;
        job->hardest = s->name;
    }
}

/* Has the host room for EP and ED (ABI minor 4)? */
static bool job_has_pearl(const struct sdk_explain *job)
{
    return job->size >= offsetof(struct sdk_explain, ed) + sizeof(job->ed);
}

/* After recording step s: Sudoku Explainer's diamond (ED) is the rating of
 * the first step, its pearl (EP) the hardest step up to the first that
 * places a value.  (job->rating is the hardest step so far.) */
static void record_pearl(struct sdk_explain *job, const struct lg_step *s)
{
    if (!job_has_pearl(job) || job->ep > 0.0)
        return;
    if (job->ed == 0.0)
        job->ed = job->rating;
    if (s->place_len)
        job->ep = job->rating;
}

/* Check the job and load its start position into r.  Returns 0, -EINVAL or
 * -ENOTSUP; *broken is set when the position has no solution. */
static int explain_load(const void *state, struct lg_run *r, const struct sdk_explain *job,
                        const struct lg_geom *vgeo, bool *broken)
{
    const uint8_t *start;

    if (job->size < offsetof(struct sdk_explain, grid) + sizeof(job->grid) || !job->cells)
        return -EINVAL;
    if (job->n != 4 && job->n != 9 && job->n != 16)
        return sdk_box_side(job->n) ? -ENOTSUP : -EINVAL;
    start = job->progress ? job->progress : job->cells;
    for (uint32_t i = 0; job->progress && i < job->n * job->n; i++)
        if (job->cells[i] && job->progress[i] != job->cells[i])
            return -EINVAL;
    r->geo = vgeo ? vgeo : lg_state_geom(state, job->n); /* vgeo: a variant's shape */
    if (!r->geo)
        return -EINVAL;
    int rc = job->progress ? lg_grid_load(&r->g, r->geo, job->cells) : 0;
    if (rc == -EINVAL)
        return rc;
    rc = rc ? rc : lg_grid_load(&r->g, r->geo, start);
    if (rc == -EINVAL)
        return rc;
    *broken = rc != 0 || (lg_grid_marks(&r->g, r->geo, job) && lg_grid_is_broken(&r->g, r->geo));
    return 0;
}

/* Clear the out fields. */
static void explain_reset(struct sdk_explain *job)
{
    job->status = SDK_EXPLAIN_SOLVED;
    job->steps_len = 0;
    job->placements_len = 0;
    job->eliminations_len = 0;
    job->cells_out_len = 0;
    job->text_len = 0;
    job->rating = 0.0;
    job->hardest = NULL;
    if (job_has_pearl(job))
        job->ep = job->ed = 0.0;
}

/* Take steps until solved, stuck, out of steps, out of room or stopped. */
static uint32_t explain_run(struct lg_run *r, struct sdk_explain *job)
{
    uint32_t hs_next = 0;
    double ceiling = job_ceiling(job), above = 0.0;
    struct lg_ctx c = {.geo = r->geo,
                       .g = &r->g,
                       .want_text = job->text != NULL,
                       .hs_next = &hs_next,
                       .pos = &r->pos,
                       .job = job,
                       .keep = &r->keep,
                       .cages = &r->cages};

    r->keep.ready = false;
    c.solution = job_solution(job, &r->g, r->geo->ncells); /* then kept by step_keeps */

    while (r->g.unsolved) {
        if (job->max_steps && job->steps_len >= job->max_steps)
            return SDK_EXPLAIN_PARTIAL;
        int stop = sdk_explain_should_stop(job);
        if (stop)
            return (uint32_t)stop;
        r->pos.valid = false;                     /* g changed with the last step */
        r->keep.len = 0;                          /* its branches were of the last position */
        c.full_house_first = job->steps_len == 0; /* its rating is ED */
        c.rated = job->steps_len ? job->rating : 0.0;
        enum ladder_result found = ladder_next(&c, &r->step, ceiling, &above);
        if (found == LADDER_ABOVE) {
            job->rating = above;
            return SDK_EXPLAIN_ABOVE;
        }
        if (found == LADDER_NONE) {
            stop = sdk_explain_should_stop(job);
            if (stop) /* a long search gave up: not stuck */
                return (uint32_t)stop;
            if (lg_grid_is_broken(&r->g, r->geo))
                return SDK_EXPLAIN_INVALID;
            if (job->rating < LG_STUCK_RATING) /* SE's long chains may rate above it */
                job->rating = LG_STUCK_RATING;
            return SDK_EXPLAIN_STUCK;
        }
        if (!step_fits(job, &r->step))
            return SDK_EXPLAIN_NOSPACE;
        if (!lg_step_apply(&r->step, &r->g, r->geo))
            return SDK_EXPLAIN_INVALID; /* a technique repeated itself: never loop */
        if (c.solution && !step_keeps(&r->step, c.solution))
            c.solution = NULL;
        record_step(job, &r->step);
        record_pearl(job, &r->step);
    }
    return SDK_EXPLAIN_SOLVED;
}

/* The plugin's explain(): see include/sudoku/plugin.h for the contract. */
int lg_explain(void *state, const struct sdk_host *host, struct sdk_explain *job)
{
    struct lg_run r;
    bool broken = false;
    struct lg_geom *vgeo = NULL;
    (void)host;

    if (!job)
        return -EINVAL;
    int rc = lg_var_geom_new(job, &vgeo);
    if (rc != 0)
        return rc;
    r.cages = NULL;
    rc = explain_load(state, &r, job, vgeo, &broken);
    if (rc != 0)
        goto done;
    explain_reset(job);
    job->status = broken ? SDK_EXPLAIN_INVALID : explain_run(&r, job);
    if (job->grid)
        memcpy(job->grid, r.g.val, (size_t)job->n * job->n);
done:
    free(r.cages);
    lg_var_geom_free(vgeo);
    return rc;
}
