/* marshal.c -- a plugin job and its answer as flat bytes (marshal.h).
 *
 * A message is a stream of little fields in host byte order (both ends are
 * the same program): the magic, the kind, then the fields in the order the
 * put and get functions below name them.  Two cursors do all the work: a
 * writer that stops at its capacity and a reader that stops at the end of
 * what it was given; either remembers the first failure, so a put or get
 * is a straight list of fields with one check at the end.  Arrays are a
 * length and the elements; a get checks the length against its bound
 * before it copies.
 */
#include "core/marshal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cursors */

struct wr {
    uint8_t *p;  /* buffer */
    size_t len;  /* bytes written */
    size_t cap;  /* bytes in p */
    int is_full; /* a put did not fit */
};

struct rd {
    const uint8_t *p; /* buffer */
    size_t off;       /* bytes read */
    size_t len;       /* bytes in p */
    int is_bad;       /* a get ran past the end or out of range */
};

static void put(struct wr *w, const void *v, size_t size)
{
    if (w->is_full || w->cap - w->len < size) {
        w->is_full = 1;
        return;
    }
    if (size)
        memcpy(w->p + w->len, v, size);
    w->len += size;
}

static void put_u32(struct wr *w, uint32_t v)
{
    put(w, &v, sizeof(v));
}

static void put_u64(struct wr *w, uint64_t v)
{
    put(w, &v, sizeof(v));
}

static void put_f64(struct wr *w, double v)
{
    put(w, &v, sizeof(v));
}

/* An array of len elements of size bytes, after its length. */
static void put_arr(struct wr *w, const void *v, uint32_t len, size_t size)
{
    put_u32(w, v ? len : 0);
    if (v)
        put(w, v, (size_t)len * size);
}

static long wr_end(const struct wr *w)
{
    return w->is_full ? -ENOSPC : (long)w->len;
}

static void get(struct rd *r, void *v, size_t size)
{
    if (r->is_bad || r->len - r->off < size) {
        r->is_bad = 1;
        memset(v, 0, size);
        return;
    }
    if (size)
        memcpy(v, r->p + r->off, size);
    r->off += size;
}

static uint32_t get_u32(struct rd *r)
{
    uint32_t v;

    get(r, &v, sizeof(v));
    return v;
}

static uint64_t get_u64(struct rd *r)
{
    uint64_t v;

    get(r, &v, sizeof(v));
    return v;
}

static double get_f64(struct rd *r)
{
    double v;

    get(r, &v, sizeof(v));
    return v;
}

/* An array of at most max elements of size bytes into v.  Returns its
 * length (0 and bad when above max). */
static uint32_t get_arr(struct rd *r, void *v, uint32_t max, size_t size)
{
    uint32_t len = get_u32(r);

    if (len > max) {
        r->is_bad = 1;
        return 0;
    }
    get(r, v, (size_t)len * size);
    return r->is_bad ? 0 : len;
}

/* Is every one of len cells (uint16) below limit? */
static int cells_below(const uint16_t *c, size_t len, uint32_t limit)
{
    for (size_t i = 0; i < len; i++)
        if (c[i] >= limit)
            return 0;
    return 1;
}

static int values_within(const uint8_t *v, size_t len, uint32_t max)
{
    for (size_t i = 0; i < len; i++)
        if (v[i] > max)
            return 0;
    return 1;
}

static void put_head(struct wr *w, uint32_t kind)
{
    put_u32(w, MARSHAL_MAGIC);
    put_u32(w, kind);
}

uint32_t marshal_kind(const void *buf, size_t len)
{
    uint32_t head[2];

    if (!buf || len < sizeof(head))
        return 0;
    memcpy(head, buf, sizeof(head));
    if (head[0] != MARSHAL_MAGIC || (head[1] != MARSHAL_SOLVE && head[1] != MARSHAL_EXPLAIN))
        return 0;
    return head[1];
}

/* Open a reader on a message of kind; bad when it is not one. */
static void rd_open(struct rd *r, const void *buf, size_t len, uint32_t kind)
{
    *r = (struct rd){.p = buf, .len = buf ? len : 0};
    if (get_u32(r) != MARSHAL_MAGIC || get_u32(r) != kind)
        r->is_bad = 1;
}

/* ------------------------------------------------------------------ rules */

static void put_rules(struct wr *w, const struct sdk_rules *ru, uint32_t n)
{
    put_u32(w, ru ? ru->kinds : 0);
    if (!ru)
        return;
    put_arr(w, ru->houses, ru->houses_len * n, sizeof(uint16_t));
    put_arr(w, ru->region, n * n, 1);
    put_arr(w, ru->differ, 2 * ru->differ_len, sizeof(uint16_t));
    put_arr(w, ru->nonconsec, 2 * ru->nonconsec_len, sizeof(uint16_t));
    put_arr(w, ru->cages, ru->cages_len, sizeof(struct sdk_cage));
    put_arr(w, ru->cage_cells, ru->cage_cells_len, sizeof(uint16_t));
}

/* Every cage within cage_cells, every cell and region of the board. */
static int rules_in_range(const struct marshal_rules *m, uint32_t n)
{
    const struct sdk_rules *ru = &m->r;

    for (uint32_t i = 0; i < ru->cages_len; i++) {
        const struct sdk_cage *c = &m->cages[i];
        if (c->len == 0 || c->len > n || c->off > ru->cage_cells_len ||
            ru->cage_cells_len - c->off < c->len)
            return 0;
    }
    return cells_below(m->houses, (size_t)ru->houses_len * n, n * n) &&
           cells_below(m->differ, 2 * (size_t)ru->differ_len, n * n) &&
           cells_below(m->nonconsec, 2 * (size_t)ru->nonconsec_len, n * n) &&
           cells_below(m->cage_cells, ru->cage_cells_len, n * n) &&
           values_within(m->region, (size_t)n * n, n - 1);
}

/* Get rules put by put_rules into m.  Returns &m->r, or NULL for none
 * (bad set on malformed ones). */
static const struct sdk_rules *get_rules(struct rd *r, struct marshal_rules *m, uint32_t n)
{
    struct sdk_rules *ru = &m->r;
    uint32_t kinds = get_u32(r), len;

    if (kinds == 0 || r->is_bad)
        return NULL;
    *ru = (struct sdk_rules){.size = sizeof(*ru), .kinds = kinds & SDK_RULE_ALL, .n = n};
    len = get_arr(r, m->houses, MARSHAL_HOUSES * n, sizeof(uint16_t));
    ru->houses_len = len / n;
    if (len % n != 0 || ru->houses_len < 3 * n || get_arr(r, m->region, n * n, 1) != n * n)
        r->is_bad = 1;
    ru->differ_len = get_arr(r, m->differ, 2 * MARSHAL_PAIRS, sizeof(uint16_t)) / 2;
    ru->nonconsec_len = get_arr(r, m->nonconsec, 2 * MARSHAL_PAIRS, sizeof(uint16_t)) / 2;
    ru->cages_len = get_arr(r, m->cages, n * n, sizeof(struct sdk_cage));
    ru->cage_cells_len = get_arr(r, m->cage_cells, n * n, sizeof(uint16_t));
    if (r->is_bad || kinds != ru->kinds || !rules_in_range(m, n)) {
        r->is_bad = 1;
        return NULL;
    }
    ru->houses = m->houses;
    ru->region = m->region;
    ru->differ = m->differ;
    ru->nonconsec = m->nonconsec;
    ru->cages = m->cages;
    ru->cage_cells = m->cage_cells;
    return ru;
}

/* ------------------------------------------------------------------ solve */

/* The rules of a job, read through its size (a minor-3 caller has none). */
static const struct sdk_rules *job_rules(const struct sdk_job *job)
{
    if (job->size < offsetof(struct sdk_job, rules) + sizeof(job->rules))
        return NULL;
    return job->rules;
}

long marshal_put_job(void *buf, size_t cap, const struct sdk_job *job)
{
    struct wr w = {.p = buf, .cap = buf ? cap : 0};

    if (!job || !job->cells || !sdk_box_side(job->n))
        return -EINVAL;
    put_head(&w, MARSHAL_SOLVE);
    put_u32(&w, job->n);
    put_u64(&w, job->limit);
    put_u64(&w, job->deadline_ns);
    put_u64(&w, sdk_job_max_guesses(job));
    put_arr(&w, job->cells, job->n * job->n, 1);
    put_rules(&w, job_rules(job), job->n);
    return wr_end(&w);
}

int marshal_get_job(const void *buf, size_t len, struct marshal_job *st)
{
    struct sdk_job *job = &st->job;
    struct rd r;
    uint32_t n;

    rd_open(&r, buf, len, MARSHAL_SOLVE);
    n = get_u32(&r);
    if (!sdk_box_side(n))
        return -EBADMSG;
    *job = (struct sdk_job){
        .size = sizeof(*job), .n = n, .cells = st->cells, .solution = st->solution};
    job->limit = get_u64(&r);
    job->deadline_ns = get_u64(&r);
    job->max_guesses = get_u64(&r);
    if (get_arr(&r, st->cells, n * n, 1) != n * n || !values_within(st->cells, n * n, n))
        r.is_bad = 1;
    job->rules = get_rules(&r, &st->rules, n);
    if (r.is_bad || job->limit == 0)
        return -EBADMSG;
    memset(st->solution, 0, (size_t)n * n);
    return 0;
}

long marshal_put_solved(void *buf, size_t cap, int status, const struct sdk_job *job)
{
    struct wr w = {.p = buf, .cap = buf ? cap : 0};

    put_head(&w, MARSHAL_SOLVE);
    put_u32(&w, (uint32_t)status);
    put_u64(&w, job->count);
    put_u64(&w, job->guesses);
    put_arr(&w, job->solution, job->n * job->n, 1);
    return wr_end(&w);
}

int marshal_get_solved(const void *buf, size_t len, struct sdk_job *job, int *status)
{
    struct rd r;
    uint64_t count, guesses;

    rd_open(&r, buf, len, MARSHAL_SOLVE);
    *status = (int)get_u32(&r);
    count = get_u64(&r);
    guesses = get_u64(&r);
    if (get_arr(&r, job->solution, job->n * job->n, 1) != job->n * job->n || r.is_bad)
        return -EBADMSG;
    job->count = count;
    job->guesses = guesses;
    return 0;
}

/* ---------------------------------------------------------------- explain */

/* Field flags of an explain job: which optional inputs and outputs it has. */
#define HAS_PROGRESS   (1u << 0)
#define HAS_SOLUTION   (1u << 1)
#define HAS_CANDIDATES (1u << 2)
#define HAS_GRID       (1u << 3)
#define HAS_CELLS_OUT  (1u << 4)
#define HAS_TEXT       (1u << 5)

static uint32_t explain_flags(const struct sdk_explain *job)
{
    return (job->progress ? HAS_PROGRESS : 0) | (job->solution ? HAS_SOLUTION : 0) |
           (job->candidates ? HAS_CANDIDATES : 0) | (job->grid ? HAS_GRID : 0) |
           (job->cells_out ? HAS_CELLS_OUT : 0) | (job->text ? HAS_TEXT : 0);
}

long marshal_put_explain(void *buf, size_t cap, const struct sdk_explain *job)
{
    struct wr w = {.p = buf, .cap = buf ? cap : 0};
    uint32_t n, cells;

    if (!job || job->size < sizeof(*job) || !job->cells || !sdk_box_side(job->n))
        return -EINVAL;
    n = job->n;
    cells = n * n;
    put_head(&w, MARSHAL_EXPLAIN);
    put_u32(&w, n);
    put_u32(&w, explain_flags(job));
    put_u32(&w, job->max_steps);
    put_u64(&w, job->deadline_ns);
    put_f64(&w, job->max_rating);
    put_u32(&w, job->steps ? job->steps_cap : 0);
    put_u32(&w, job->placements ? job->placements_cap : 0);
    put_u32(&w, job->eliminations ? job->eliminations_cap : 0);
    put_u32(&w, job->cells_out ? job->cells_out_cap : 0);
    put_u32(&w, job->text ? job->text_cap : 0);
    put_arr(&w, job->cells, cells, 1);
    put_arr(&w, job->progress, cells, 1);
    put_arr(&w, job->solution, cells, 1);
    put_arr(&w, job->candidates, cells * n, 1);
    put_rules(&w, job->rules, n);
    return wr_end(&w);
}

/* The capacities side n can need, as core/explain.c's arrays have them. */
struct caps {
    uint32_t steps, placements, eliminations, cells_out, text;
};

/* Size and carve st's output arrays for caps c; st->job's pointers set. */
static int explain_arrays(struct marshal_explain *st, const struct caps *c, uint32_t flags)
{
    size_t sb = (size_t)c->steps * sizeof(struct sdk_step);
    size_t pb = (size_t)c->placements * sizeof(struct sdk_cell_value);
    size_t eb = (size_t)c->eliminations * sizeof(struct sdk_cell_value);
    size_t cb = (size_t)c->cells_out * sizeof(uint16_t), need = sb + pb + eb + cb + c->text + 1;
    struct sdk_explain *j = &st->job;
    uint8_t *b;

    if (st->arrays_size < need) {
        void *p = realloc(st->arrays, need);
        if (!p)
            return -ENOMEM;
        st->arrays = p;
        st->arrays_size = need;
    }
    b = st->arrays;
    j->steps = c->steps ? (struct sdk_step *)(void *)b : NULL;
    j->placements = c->placements ? (struct sdk_cell_value *)(void *)(b + sb) : NULL;
    j->eliminations = c->eliminations ? (struct sdk_cell_value *)(void *)(b + sb + pb) : NULL;
    j->cells_out = (flags & HAS_CELLS_OUT) ? (uint16_t *)(void *)(b + sb + pb + eb) : NULL;
    j->text = (flags & HAS_TEXT) ? (char *)(b + sb + pb + eb + cb) : NULL;
    j->steps_cap = c->steps;
    j->placements_cap = c->placements;
    j->eliminations_cap = c->eliminations;
    j->cells_out_cap = j->cells_out ? c->cells_out : 0;
    j->text_cap = j->text ? c->text : 0;
    return 0;
}

/* Read the capacities; bad when one is above what side n can need. */
static void get_caps(struct rd *r, uint32_t n, struct caps *c)
{
    uint32_t steps = n * n * n;

    c->steps = get_u32(r);
    c->placements = get_u32(r);
    c->eliminations = get_u32(r);
    c->cells_out = get_u32(r);
    c->text = get_u32(r);
    if (c->steps > steps || c->placements > n * n || c->eliminations > steps ||
        c->cells_out > steps * 8 || c->text > steps * 256)
        r->is_bad = 1;
}

/* An optional n*n (or n*n*n) input: present exactly when flag says so. */
static const uint8_t *get_opt(struct rd *r, uint8_t *v, uint32_t len, int want, uint32_t max)
{
    uint32_t got = get_arr(r, v, len, 1);

    if (got != (want ? len : 0u) || (want && !values_within(v, len, max)))
        r->is_bad = 1;
    return want && !r->is_bad ? v : NULL;
}

int marshal_get_explain(const void *buf, size_t len, struct marshal_explain *st)
{
    struct sdk_explain *job = &st->job;
    struct caps c;
    struct rd r;
    uint32_t n, flags;

    rd_open(&r, buf, len, MARSHAL_EXPLAIN);
    n = get_u32(&r);
    flags = get_u32(&r);
    if (!sdk_box_side(n) || r.is_bad)
        return -EBADMSG;
    *job = (struct sdk_explain){.size = sizeof(*job), .n = n, .cells = st->cells};
    job->max_steps = get_u32(&r);
    job->deadline_ns = get_u64(&r);
    job->max_rating = get_f64(&r);
    get_caps(&r, n, &c);
    if (get_arr(&r, st->cells, n * n, 1) != n * n || !values_within(st->cells, n * n, n))
        r.is_bad = 1;
    job->progress = get_opt(&r, st->progress, n * n, flags & HAS_PROGRESS, n);
    job->solution = get_opt(&r, st->solution, n * n, flags & HAS_SOLUTION, n);
    job->candidates = get_opt(&r, st->candidates, n * n * n, flags & HAS_CANDIDATES, 255);
    job->rules = get_rules(&r, &st->rules, n);
    job->grid = (flags & HAS_GRID) ? st->grid : NULL;
    if (r.is_bad || !(job->max_rating >= 0.0))
        return -EBADMSG;
    return explain_arrays(st, &c, flags);
}

void marshal_explain_close(struct marshal_explain *st)
{
    free(st->arrays);
    st->arrays = NULL;
    st->arrays_size = 0;
}

/* A step as it travels: the technique by name, the rest as it is. */
static void put_step(struct wr *w, const struct sdk_step *s)
{
    char name[MARSHAL_TECH_MAX + 1] = "";
    size_t len = s->technique ? strnlen(s->technique, MARSHAL_TECH_MAX + 1) : 0;

    if (len <= MARSHAL_TECH_MAX && s->technique)
        memcpy(name, s->technique, len);
    put(w, name, sizeof(name)); /* a longer name travels as "": refused by the host */
    put_f64(w, s->rating);
    put(w, &s->place_off, 8 * sizeof(uint32_t));
}

long marshal_put_explained(void *buf, size_t cap, int rc, const struct sdk_explain *job)
{
    struct wr w = {.p = buf, .cap = buf ? cap : 0};
    uint32_t steps = job->steps && job->steps_len < job->steps_cap ? job->steps_len
                     : job->steps                                  ? job->steps_cap
                                                                   : 0;

    put_head(&w, MARSHAL_EXPLAIN);
    put_u32(&w, (uint32_t)rc);
    put(&w, &job->status, 7 * sizeof(uint32_t)); /* status .. text_len */
    put_f64(&w, job->rating);
    put_f64(&w, job->ep);
    put_f64(&w, job->ed);
    put_step(&w, &(struct sdk_step){.technique = job->hardest});
    put_u32(&w, steps);
    for (uint32_t i = 0; i < steps; i++)
        put_step(&w, &job->steps[i]);
    put_arr(&w, job->placements, job->placements ? job->placements_len : 0, 4);
    put_arr(&w, job->eliminations, job->eliminations ? job->eliminations_len : 0, 4);
    put_arr(&w, job->cells_out, job->cells_out ? job->cells_out_len : 0, 2);
    put_arr(&w, job->text, job->text ? job->text_len : 0, 1);
    put_arr(&w, job->grid, job->grid ? job->n * job->n : 0, 1);
    return wr_end(&w);
}

/* Read a step into s, its name through intern; bad when refused. */
static void get_step(struct rd *r, struct sdk_step *s, marshal_intern_fn *intern, void *ctx)
{
    char name[MARSHAL_TECH_MAX + 1];

    get(r, name, sizeof(name));
    name[MARSHAL_TECH_MAX] = '\0';
    s->rating = get_f64(r);
    get(r, &s->place_off, 8 * sizeof(uint32_t));
    s->technique = name[0] && !r->is_bad ? intern(ctx, name) : NULL;
}

/* The out lengths (7 words from status) must fit the job's capacities. */
static int lens_fit(const struct sdk_explain *o, const struct sdk_explain *job)
{
    return o->placements_len <= job->placements_cap &&
           o->eliminations_len <= job->eliminations_cap && o->cells_out_len <= job->cells_out_cap &&
           o->text_len <= job->text_cap;
}

/* The arrays of the answer, each within its capacity, into job's. */
static void get_arrays(struct rd *r, struct sdk_explain *job, const struct sdk_explain *o)
{
    uint32_t cells = job->n * job->n;

    if (get_arr(r, job->placements, job->placements ? job->placements_cap : 0, 4) !=
            o->placements_len ||
        get_arr(r, job->eliminations, job->eliminations ? job->eliminations_cap : 0, 4) !=
            o->eliminations_len ||
        get_arr(r, job->cells_out, job->cells_out ? job->cells_out_cap : 0, 2) !=
            o->cells_out_len ||
        get_arr(r, job->text, job->text ? job->text_cap : 0, 1) != o->text_len ||
        get_arr(r, job->grid, job->grid ? cells : 0, 1) != (job->grid ? cells : 0u))
        r->is_bad = 1;
}

int marshal_get_explained(const void *buf, size_t len, struct sdk_explain *job, int *rc,
                          marshal_intern_fn *intern, void *ctx)
{
    struct sdk_explain o = {0};
    struct sdk_step hardest;
    uint32_t steps;
    struct rd r;

    rd_open(&r, buf, len, MARSHAL_EXPLAIN);
    *rc = (int)get_u32(&r);
    get(&r, &o.status, 7 * sizeof(uint32_t));
    o.rating = get_f64(&r);
    o.ep = get_f64(&r);
    o.ed = get_f64(&r);
    get_step(&r, &hardest, intern, ctx);
    steps = get_u32(&r);
    if (r.is_bad || !lens_fit(&o, job) || steps > (job->steps ? job->steps_cap : 0) ||
        (steps != o.steps_len && steps != job->steps_cap))
        return -EBADMSG;
    for (uint32_t i = 0; i < steps && !r.is_bad; i++)
        get_step(&r, &job->steps[i], intern, ctx);
    get_arrays(&r, job, &o);
    if (r.is_bad)
        return -EBADMSG;
    memcpy(&job->status, &o.status, 7 * sizeof(uint32_t));
    job->rating = o.rating;
    job->ep = o.ep;
    job->ed = o.ed;
    job->hardest = hardest.technique;
    return 0;
}
