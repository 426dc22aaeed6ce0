/* killer.c -- the logic plugin's killer steps: cage sums.
 *
 * A cage (struct sdk_cage) holds distinct values adding up to its sum;
 * variant.c already made its cells peers.  Three rungs read the sums:
 *
 *   cage_combination        the fillings of a cage that fit the candidates
 *                           (distinct values, the sum) leave each cell only
 *                           the values some filling gives it;
 *   cage_locked_candidates  a value every such filling uses lies in the
 *                           cage; it leaves every cell that sees all the
 *                           cage's cells where it can go;
 *   rule_of_45              a house holds 1..n once, adding up to n(n+1)/2:
 *                           minus the cages inside it, what is left (the
 *                           innies) has a known sum, and so have the cells
 *                           its crossing cages put outside (the outies);
 *                           either group is then filled like a cage.
 *
 * Fillings are searched on the mask of values used so far: cell k of a
 * group takes a value not in the mask, and whether the rest can be filled
 * depends only on the mask (the sum is the mask's), so each mask is
 * searched once (struct fill, at most 2^n masks).  Outies may repeat a
 * value (they need not share a house): they are searched plainly, four
 * cells at most.  A cage's answers are kept in a memo keyed by its cells'
 * candidates (struct lg_cage_memo, the explanation's: made on first use,
 * freed at its end), which the forcing chains' branches and these rungs
 * read; everything else lives on the stack; no globals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lg.h"

#define FILL_WORDS  ((1u << LG_MAX_N) / 64) /* bits of every value mask */
#define FILL_COMBOS 4                       /* fillings named in a sentence */
#define OUTIES_MAX  4                       /* outies searched at most */

/* The fillings of one group of distinct values with a sum. */
struct fill {
    uint32_t len;                /* cells */
    uint32_t sum;                /* their total */
    uint32_t m[LG_MAX_N];        /* each cell's values (a solved cell: its value) */
    uint32_t poss[LG_MAX_N];     /* out: the values some filling gives each cell */
    uint32_t must;               /* out: values every filling uses */
    uint32_t combos;             /* out: distinct value sets found (counted to 255) */
    uint32_t combo[FILL_COMBOS]; /* out: the first of them */
    uint64_t seen[FILL_WORDS];   /* masks searched */
    uint64_t good[FILL_WORDS];   /* masks whose rest can be filled */
};

static bool bit_has(const uint64_t *set, uint32_t i)
{
    return (set[i / 64] >> (i % 64)) & 1u;
}

static void bit_add(uint64_t *set, uint32_t i)
{
    set[i / 64] |= (uint64_t)1 << (i % 64);
}

/* A full filling with value set used: keep it. */
static void fill_found(struct fill *f, uint32_t used)
{
    f->must &= used;
    for (uint32_t i = 0; i < f->combos && i < FILL_COMBOS; i++)
        if (f->combo[i] == used)
            return;
    if (f->combos < FILL_COMBOS)
        f->combo[f->combos] = used;
    if (f->combos < 255)
        f->combos++;
}

/* Can cells k.. be filled given the values used (adding up to sum)? */
static bool fill_rest(struct fill *f, uint32_t k, uint32_t used, uint32_t sum)
{
    if (k == f->len) {
        if (sum != f->sum)
            return false;
        fill_found(f, used);
        return true;
    }
    if (bit_has(f->seen, used))
        return bit_has(f->good, used);
    bit_add(f->seen, used);
    bool ok = false;
    for (uint32_t m = f->m[k] & ~used; m; m &= m - 1) {
        const uint32_t v = lg_lowest(m) + 1;
        if (sum + v > f->sum)
            break; /* values rise: the rest only add more */
        if (fill_rest(f, k + 1, used | 1u << (v - 1), sum + v)) {
            f->poss[k] |= 1u << (v - 1);
            ok = true;
        }
    }
    if (ok)
        bit_add(f->good, used);
    return ok;
}

/* Search the fillings of f (len, sum and m set).  Returns true when one
 * exists. */
static bool fill_run(struct fill *f, uint32_t n)
{
    const size_t words = ((size_t)1 << n) / 64 + 1;

    memset(f->seen, 0, sizeof(f->seen[0]) * (words < FILL_WORDS ? words : FILL_WORDS));
    memset(f->good, 0, sizeof(f->good[0]) * (words < FILL_WORDS ? words : FILL_WORDS));
    memset(f->poss, 0, sizeof(f->poss));
    f->must = ~0u;
    f->combos = 0;
    return f->len > 0 && fill_rest(f, 0, 0, 0);
}

/* Load cells into f: each one's candidates, or its value when solved. */
static void fill_load(struct fill *f, const struct lg_grid *g, const uint16_t *cells, uint32_t len,
                      uint32_t sum)
{
    f->len = len;
    f->sum = sum;
    for (uint32_t k = 0; k < len; k++)
        f->m[k] = g->val[cells[k]] ? 1u << (g->val[cells[k]] - 1) : g->cand[cells[k]];
}

/* Record what the fillings poss of cells[0..len) take from them as eliminations of s. */
static void fill_elims(const struct lg_ctx *c, struct lg_step *s, const uint32_t *poss,
                       const uint16_t *cells, uint32_t len)
{
    for (uint32_t k = 0; k < len; k++)
        if (!c->g->val[cells[k]])
            lg_step_elim_mask(s, c->g, cells[k], ~poss[k]);
}

/* "as {1,2,7} or {1,3,6}", or "in 5 ways" when there are many. */
static const char *fill_name(const struct fill *f, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    if (f->combos > FILL_COMBOS) {
        snprintf(buf, size, "in %u ways", f->combos);
        return buf;
    }
    for (uint32_t i = 0; i < f->combos && used + 1 < size; i++) {
        char v[48];
        int k = snprintf(buf + used, size - used, "%s%s", i ? " or " : "as ",
                         lg_values_name(f->combo[i], v, sizeof(v)));
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

/* The cells of cage k of geo's rules. */
static const uint16_t *cage_cells(const struct lg_geom *geo, uint32_t k, uint32_t *len,
                                  uint32_t *sum)
{
    const struct sdk_cage *cg = &geo->rules->cages[k];

    *len = cg->len;
    *sum = cg->sum;
    return geo->rules->cage_cells + cg->off;
}

/* Does geo have cages? */
static bool has_cages(const struct lg_geom *geo)
{
    return geo->rules && geo->rules->cages_len > 0;
}

/* ------------------------------------------------------------------------ */
/* A memo of cage fillings                                                   */
/* ------------------------------------------------------------------------ */

/* A remembered cage filling: the candidates of a cage's cells and what its
 * fillings leave them.  len 0: an empty slot. */
struct cage_memo_slot {
    uint16_t k;                      /* the cage */
    uint8_t len;                     /* its cells; 0: empty */
    uint8_t ok;                      /* 1: a filling exists, poss and must hold */
    uint16_t must;                   /* the values every filling uses */
    uint16_t m[LG_CAGE_MEMO_LEN];    /* the key: each cell's candidates */
    uint16_t poss[LG_CAGE_MEMO_LEN]; /* the answer */
};

struct lg_cage_memo {
    struct cage_memo_slot slot[LG_CAGE_MEMO_SLOTS];
};

struct lg_cage_memo *lg_cage_memo_new(void)
{
    return calloc(1, sizeof(struct lg_cage_memo));
}

struct lg_cage_memo *lg_cage_memo_of(const struct lg_ctx *c)
{
    if (!c->cages || !has_cages(c->geo))
        return NULL;
    if (!*c->cages)
        *c->cages = lg_cage_memo_new();
    return *c->cages;
}

/* The slot of cage k whose cells hold mk[0..len). */
static struct cage_memo_slot *memo_slot(struct lg_cage_memo *memo, uint32_t k, const uint16_t *mk,
                                        uint32_t len)
{
    uint64_t h = (k + 1) * 0x9E3779B97F4A7C15ull;

    for (uint32_t i = 0; i < len; i++)
        h = (h ^ mk[i]) * 0x100000001B3ull;
    return &memo->slot[(h >> 40) % LG_CAGE_MEMO_SLOTS];
}

/* Is slot the answer for cage k whose cells hold mk[0..len)? */
static bool memo_holds(const struct cage_memo_slot *slot, uint32_t k, const uint16_t *mk,
                       uint32_t len)
{
    if (slot->len != len || slot->k != k)
        return false;
    for (uint32_t i = 0; i < len; i++)
        if (slot->m[i] != mk[i])
            return false;
    return true;
}

/* The fillings of cage k whose cells hold mk (a solved cell: its value's
 * bit): the values some filling gives each cell into poss, the values
 * every filling uses into *must; through memo (or NULL) when it keeps
 * cages this long.  Returns false when no filling is left. */
static bool cage_look(const struct lg_geom *geo, struct lg_cage_memo *memo, uint32_t k,
                      const uint16_t *mk, uint32_t *poss, uint32_t *must)
{
    struct fill f;
    struct cage_memo_slot *slot = NULL;

    cage_cells(geo, k, &f.len, &f.sum);
    if (memo && f.len <= LG_CAGE_MEMO_LEN) {
        slot = memo_slot(memo, k, mk, f.len);
        if (memo_holds(slot, k, mk, f.len)) {
            for (uint32_t i = 0; slot->ok && i < f.len; i++)
                poss[i] = slot->poss[i];
            *must = slot->must;
            return slot->ok;
        }
    }
    for (uint32_t i = 0; i < f.len; i++)
        f.m[i] = mk[i];
    const bool ok = fill_run(&f, geo->n);
    for (uint32_t i = 0; ok && i < f.len; i++)
        poss[i] = f.poss[i];
    *must = f.must;
    if (slot) {
        slot->k = (uint16_t)k;
        slot->len = (uint8_t)f.len;
        slot->ok = ok;
        slot->must = (uint16_t)f.must;
        for (uint32_t i = 0; i < f.len; i++) {
            slot->m[i] = mk[i];
            slot->poss[i] = (uint16_t)f.poss[i];
        }
    }
    return ok;
}

/* The candidates of cells[0..len) on c's grid (a solved cell: its value's
 * bit) into mk. */
static void cage_masks(const struct lg_ctx *c, const uint16_t *cells, uint32_t len, uint16_t *mk)
{
    for (uint32_t i = 0; i < len; i++) {
        const uint32_t v = c->g->val[cells[i]];
        mk[i] = (uint16_t)(v ? 1u << (v - 1) : c->g->cand[cells[i]]);
    }
}

bool lg_cage_poss(const struct lg_geom *geo, struct lg_cage_memo *memo, uint32_t k,
                  const uint16_t *m, uint32_t *poss)
{
    uint32_t len, sum, must;
    uint16_t mk[LG_MAX_N];
    const uint16_t *cells = cage_cells(geo, k, &len, &sum);

    for (uint32_t i = 0; i < len; i++)
        mk[i] = m[cells[i]];
    return cage_look(geo, memo, k, mk, poss, &must);
}

/* ------------------------------------------------------------------------ */
/* Cage combinations                                                         */
/* ------------------------------------------------------------------------ */

/* Do the fillings poss of a cage's cells (holding mk) take a candidate
 * from an unsolved one? */
static bool cage_narrows(const struct lg_ctx *c, const uint16_t *cells, uint32_t len,
                         const uint16_t *mk, const uint32_t *poss)
{
    for (uint32_t i = 0; i < len; i++)
        if (!c->g->val[cells[i]] && (mk[i] & ~poss[i]))
            return true;
    return false;
}

bool lg_cage_combination(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;
    struct lg_cage_memo *memo = lg_cage_memo_of(c);
    struct fill f;

    for (uint32_t k = 0; has_cages(geo) && k < geo->rules->cages_len; k++) {
        uint32_t len, sum, must, poss[LG_MAX_N];
        uint16_t mk[LG_MAX_N];
        const uint16_t *cells = cage_cells(geo, k, &len, &sum);
        cage_masks(c, cells, len, mk);
        if (!cage_look(geo, memo, k, mk, poss, &must) || !cage_narrows(c, cells, len, mk, poss))
            continue; /* no filling at all (not this rung's to say), or nothing to take */
        fill_elims(c, s, poss, cells, len);
        for (uint32_t i = 0; i < len; i++)
            lg_step_cell(s, cells[i]);
        if (c->want_text) {
            char a[160], b[200];
            fill_load(&f, c->g, cells, len, sum); /* again, for the sentence's fillings */
            fill_run(&f, geo->n);
            lg_text(c, s, "cage combination: the cage %s adds up to %u only %s",
                    lg_cells_name(geo, cells, len, a, sizeof(a)), sum, fill_name(&f, b, sizeof(b)));
        }
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Cage-locked candidates                                                    */
/* ------------------------------------------------------------------------ */

/* Value v, which cage k (cells) must hold, lies only in its cells with v:
 * it leaves every cell seeing all of them.  Returns true on a step. */
static bool cage_lock(const struct lg_ctx *c, struct lg_step *s, const uint16_t *cells,
                      uint32_t len, uint32_t sum, uint32_t v)
{
    const struct lg_geom *geo = c->geo;
    const uint32_t bit = 1u << (v - 1);
    struct lg_set all = {{0}};
    bool first = true;

    for (uint32_t i = 0; i < len; i++) {
        if (c->g->val[cells[i]] == v)
            return false; /* placed already */
        if (!(c->g->cand[cells[i]] & bit))
            continue;
        if (first)
            all = geo->peers[cells[i]];
        else
            lg_set_and(&all, &all, &geo->peers[cells[i]]);
        first = false;
        lg_step_cell(s, cells[i]);
    }
    for (int x = first ? -1 : lg_set_next(&all, 0); x >= 0; x = lg_set_next(&all, (uint32_t)x + 1))
        if (geo->cage_of[x] != geo->cage_of[cells[0]] && (c->g->cand[x] & bit))
            lg_step_elim(s, (uint32_t)x, v);
    if (!s->elim_len) {
        s->cells_len = 0;
        return false;
    }
    if (c->want_text) {
        char a[160], b[96], d[160];
        lg_text(c, s,
                "cage locked candidates: the cage %s (sum %u) must hold %u, which lies only in %s, "
                "so it leaves %s",
                lg_cells_name(geo, cells, len, a, sizeof(a)), sum, v,
                lg_cells_name(geo, s->cells, s->cells_len, b, sizeof(b)),
                lg_cells_name(geo, s->elim_cell, s->elim_len, d, sizeof(d)));
    }
    return true;
}

bool lg_cage_locked(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;
    struct lg_cage_memo *memo = lg_cage_memo_of(c);

    for (uint32_t k = 0; has_cages(geo) && k < geo->rules->cages_len; k++) {
        uint32_t len, sum, must, poss[LG_MAX_N];
        uint16_t mk[LG_MAX_N];
        const uint16_t *cells = cage_cells(geo, k, &len, &sum);
        cage_masks(c, cells, len, mk);
        if (!cage_look(geo, memo, k, mk, poss, &must))
            continue;
        for (uint32_t m = must; m; m &= m - 1)
            if (cage_lock(c, s, cells, len, sum, lg_lowest(m) + 1))
                return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* The rule of 45                                                            */
/* ------------------------------------------------------------------------ */

/* A house cut by the cages: the innies (cells outside the cages inside
 * it), their sum, and the outies (cells of crossing cages outside it). */
struct cut {
    uint32_t unit;                 /* the house */
    uint32_t in_sum;               /* the sums of the cages inside it */
    uint32_t innie_sum;            /* the innies' total */
    uint32_t innies_len;           /* cells in innies */
    uint16_t innies[LG_MAX_N];     /* the innies */
    bool outies_ok;                /* every innie is in a crossing cage */
    uint32_t cross_sum;            /* the crossing cages' sums */
    uint32_t outies_len;           /* cells in outies (LG_MAX_CELLS at most) */
    uint16_t outies[LG_MAX_CELLS]; /* the outies */
};

/* How many cells of cage k lie in unit u. */
static uint32_t cage_in_unit(const struct lg_geom *geo, uint32_t k, uint32_t u)
{
    uint32_t len, sum, in = 0;
    const uint16_t *cells = cage_cells(geo, k, &len, &sum);

    for (uint32_t i = 0; i < len; i++)
        in += lg_in_unit(geo, u, cells[i]);
    return in;
}

/* Cut unit u of geo by its cages into t. */
static void cut_house(const struct lg_geom *geo, uint32_t u, struct cut *t)
{
    const uint32_t n = geo->n;
    uint8_t inside[LG_MAX_CELLS] = {0};

    memset(t, 0, offsetof(struct cut, outies));
    t->unit = u;
    t->outies_ok = true;
    for (uint32_t k = 0; k < geo->rules->cages_len; k++) {
        uint32_t len, sum, in = cage_in_unit(geo, k, u);
        const uint16_t *cells = cage_cells(geo, k, &len, &sum);
        if (in == len) {
            t->in_sum += sum;
            for (uint32_t i = 0; i < len; i++)
                inside[cells[i]] = 1;
        } else if (in > 0) {
            t->cross_sum += sum;
            for (uint32_t i = 0; i < len; i++)
                if (!lg_in_unit(geo, u, cells[i]))
                    t->outies[t->outies_len++] = cells[i];
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t cell = geo->unit[u][k];
        if (inside[cell])
            continue;
        t->innies[t->innies_len++] = (uint16_t)cell;
        t->outies_ok &= geo->cage_of[cell] >= 0;
    }
    t->innie_sum = n * (n + 1) / 2 - t->in_sum;
}

/* The innies of t filled like a cage (one house: distinct values). */
static bool innies_step(const struct lg_ctx *c, struct lg_step *s, const struct cut *t)
{
    struct fill f;

    if (t->innies_len == 0 || t->innies_len == c->geo->n)
        return false; /* nothing inside, or nothing but the house itself */
    fill_load(&f, c->g, t->innies, t->innies_len, t->innie_sum);
    if (!fill_run(&f, c->geo->n))
        return false;
    fill_elims(c, s, f.poss, t->innies, t->innies_len);
    if (!s->elim_len)
        return false;
    for (uint32_t i = 0; i < t->innies_len; i++)
        lg_step_cell(s, t->innies[i]);
    if (c->want_text) {
        char a[24], b[160], d[200];
        lg_text(c, s,
                "rule of 45: the cages inside %s add up to %u, so its other cells %s add up to "
                "%u, only %s",
                lg_unit_name(c->geo, t->unit, a, sizeof(a)), t->in_sum,
                lg_cells_name(c->geo, t->innies, t->innies_len, b, sizeof(b)), t->innie_sum,
                fill_name(&f, d, sizeof(d)));
    }
    return true;
}

/* The values each open outie can take in some filling of the open ones
 * (o.. of len, their total sum), where two that see each other differ. */
struct outie_q {
    const struct lg_ctx *c;
    uint32_t len, sum;
    uint16_t cell[OUTIES_MAX];
    uint32_t m[OUTIES_MAX];
    uint32_t pick[OUTIES_MAX];
    uint32_t poss[OUTIES_MAX];
};

static bool outie_rest(struct outie_q *q, uint32_t k, uint32_t sum)
{
    bool ok = false;

    if (k >= q->len || k >= OUTIES_MAX) /* (len <= OUTIES_MAX: said for the compiler) */
        return sum == q->sum;
    for (uint32_t m = q->m[k]; m; m &= m - 1) {
        const uint32_t v = lg_lowest(m) + 1;
        bool clash = false;
        if (sum + v > q->sum)
            break;
        for (uint32_t j = 0; j < k && !clash; j++)
            clash = q->pick[j] == v && lg_sees(q->c->geo, q->cell[j], q->cell[k]);
        if (clash)
            continue;
        q->pick[k] = v;
        if (outie_rest(q, k + 1, sum + v)) {
            q->poss[k] |= 1u << (v - 1);
            ok = true;
        }
    }
    return ok;
}

/* The outies of t, their sum known (the crossing cages' minus the
 * innies'), filled plainly: up to OUTIES_MAX open cells. */
static bool outies_step(const struct lg_ctx *c, struct lg_step *s, const struct cut *t)
{
    struct outie_q q = {.c = c};
    int64_t total = (int64_t)t->cross_sum - (int64_t)t->innie_sum;

    if (!t->outies_ok || t->outies_len == 0)
        return false;
    for (uint32_t i = 0; i < t->outies_len; i++) {
        const uint32_t cell = t->outies[i];
        if (c->g->val[cell]) {
            total -= c->g->val[cell];
            continue;
        }
        if (q.len == OUTIES_MAX)
            return false;
        q.cell[q.len] = (uint16_t)cell;
        q.m[q.len++] = c->g->cand[cell];
    }
    if (q.len == 0 || total < (int64_t)q.len)
        return false;
    q.sum = (uint32_t)total;
    if (!outie_rest(&q, 0, 0))
        return false;
    for (uint32_t k = 0; k < q.len; k++)
        lg_step_elim_mask(s, c->g, q.cell[k], ~q.poss[k]);
    if (!s->elim_len)
        return false;
    for (uint32_t i = 0; i < t->outies_len; i++)
        lg_step_cell(s, t->outies[i]);
    if (c->want_text) {
        char a[24], b[160];
        lg_text(c, s,
                "rule of 45: the cages crossing %s add up to %u and its cells in them to %u, so "
                "the cells they put outside, %s, add up to %u",
                lg_unit_name(c->geo, t->unit, a, sizeof(a)), t->cross_sum, t->innie_sum,
                lg_cells_name(c->geo, t->outies, t->outies_len, b, sizeof(b)),
                t->cross_sum - t->innie_sum);
    }
    return true;
}

bool lg_rule_of_45(const struct lg_ctx *c, struct lg_step *s)
{
    const struct lg_geom *geo = c->geo;
    struct cut t;

    for (uint32_t u = 0; has_cages(geo) && u < geo->nunits; u++) {
        cut_house(geo, u, &t);
        if (innies_step(c, s, &t) || outies_step(c, s, &t))
            return true;
    }
    return false;
}
