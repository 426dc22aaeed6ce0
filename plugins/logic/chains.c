/* chains.c -- X-chains, XY-chains, AICs and forcing chains.
 *
 * Chains are breadth-first searches over implications between candidates.
 * A node is a candidate (cell, value) taken as true ("on") or false ("off"):
 *
 *     off --strong--> on    the unit has only these two places for v
 *                           (STRONG_UNIT), or the cell only these two
 *                           values (STRONG_CELL);
 *     on  --weak-->   off   a peer's same value (WEAK_PEER), or the same
 *                           cell's other values (WEAK_CELL).
 *
 * Every edge is an implication, so a path from (A,x) off to (B,w) on proves
 * "A is x or B is w", whatever the path repeats.  X-chains use one value
 * (unit links only), XY-chains bivalue cells (strong in the cell, weak
 * between cells), AICs everything.  The search starts from every candidate,
 * finds the nearest conclusion that removes a candidate and reports the path
 * as the pattern.  Visited marks use a stamp per search, so nothing is
 * cleared between searches; all state lives in one struct on the stack.
 *
 * Forcing chains try both values of a bivalue cell, then both places of a
 * value with two places in a unit, propagate singles from each, and keep
 * what both branches agree on (or the branch that does not break the grid).
 */
#include <stdio.h>
#include <string.h>

#include "lg.h"

#define STRONG_UNIT (1u << 0) /* conjugate pairs in a unit */
#define STRONG_CELL (1u << 1) /* the two values of a bivalue cell */
#define WEAK_PEER   (1u << 2) /* a value sees the same value in a peer */
#define WEAK_CELL   (1u << 3) /* a value excludes the cell's others */

#define CH_NODES (256 * LG_EXPLAIN_MAX_N * 2) /* (cell, value, on) triples */

/* Search state: BFS queue and parents, indexed by node. */
struct chain {
    const struct lg_ctx *c;
    uint32_t links;                           /* STRONG_* | WEAK_* allowed */
    uint16_t stamp;                           /* current search */
    uint16_t seen[CH_NODES];                  /* == stamp: visited in this search */
    uint16_t parent[CH_NODES];                /* previous node on the path */
    uint16_t queue[CH_NODES];                 /* BFS order */
    struct lg_set vset[LG_MAX_N];             /* cells holding value v+1 */
    struct lg_set strong[LG_MAX_N];           /* cells where (cell, v+1) off implies something */
    uint8_t count[LG_MAX_UNITS][LG_MAX_N];    /* places of value v+1 in unit u */
    uint16_t pair[LG_MAX_UNITS][LG_MAX_N][2]; /* the first two of them */
};

static uint32_t node_of(const struct chain *ch, uint32_t cell, uint32_t v, uint32_t on)
{
    return (cell * ch->c->geo->n + (v - 1)) * 2 + on;
}

/* The other place of value v in unit u besides cell, or -1 when v has not
 * exactly two places there (from the table chain_init builds). */
static int conjugate(const struct chain *ch, uint32_t u, uint32_t cell, uint32_t v)
{
    const uint16_t *p = ch->pair[u][v - 1];

    if (ch->count[u][v - 1] != 2)
        return -1;
    return p[0] == cell ? p[1] : p[0];
}

/* Count the places of every value in every unit. */
static void chain_places(struct chain *ch, const struct lg_ctx *c)
{
    const struct lg_geom *geo = c->geo;

    memset(ch->count, 0, sizeof(ch->count));
    for (uint32_t u = 0; u < geo->nunits; u++) {
        for (uint32_t k = 0; k < geo->n; k++) {
            uint32_t cell = geo->unit[u][k];
            for (uint32_t m = c->g->cand[cell]; m; m &= m - 1) {
                uint32_t v = lg_lowest(m);
                if (ch->count[u][v] < 2)
                    ch->pair[u][v][ch->count[u][v]] = (uint16_t)cell;
                ch->count[u][v]++;
            }
        }
    }
}

/* Fill vset and strong for the position. */
static void chain_init(struct chain *ch, const struct lg_ctx *c, uint32_t links)
{
    const uint32_t n = c->geo->n;

    ch->c = c;
    ch->links = links;
    memset(ch->vset, 0, sizeof(ch->vset));
    memset(ch->strong, 0, sizeof(ch->strong));
    chain_places(ch, c);
    for (uint32_t i = 0; i < c->geo->ncells; i++) {
        for (uint32_t m = c->g->cand[i]; m; m &= m - 1) {
            uint32_t v = lg_lowest(m) + 1;
            bool strong = (links & STRONG_CELL) && lg_popcount(c->g->cand[i]) == 2;
            const uint32_t units[3] = {c->geo->row[i], n + c->geo->col[i], 2 * n + c->geo->bx[i]};
            for (int k = 0; k < 3 && !strong && (links & STRONG_UNIT); k++)
                strong = conjugate(ch, units[k], i, v) >= 0;
            lg_set_add(&ch->vset[v - 1], i);
            if (strong)
                lg_set_add(&ch->strong[v - 1], i);
        }
    }
}

/* Start a new search (stamps wrap: clear once every 65535 searches). */
static void chain_new_search(struct chain *ch)
{
    if (++ch->stamp == 0) {
        memset(ch->seen, 0, sizeof(ch->seen));
        ch->stamp = 1;
    }
}

/* ------------------------------------------------------------------------ */
/* Conclusions                                                               */
/* ------------------------------------------------------------------------ */

/* The path ending at node, start first, as pattern cells. */
static void chain_pattern(struct chain *ch, struct lg_step *s, uint32_t node)
{
    uint16_t rev[LG_STEP_CELLS];
    uint32_t len = 0;

    for (uint32_t x = node;; x = ch->parent[x]) {
        uint32_t cell = x / 2 / ch->c->geo->n;
        if (len < LG_STEP_CELLS && (len == 0 || rev[len - 1] != cell))
            rev[len++] = (uint16_t)cell;
        if (ch->parent[x] == x)
            break;
    }
    while (len)
        lg_step_cell(s, rev[--len]);
}

/* "A is x or B is w": record what that removes.  Returns true when it
 * removes something. */
static bool chain_conclude(struct chain *ch, struct lg_step *s, uint32_t a, uint32_t x, uint32_t b,
                           uint32_t w)
{
    const struct lg_ctx *c = ch->c;

    if (a == b && x == w) {
        lg_step_place(s, a, x); /* "A is not x" implied "A is x" */
    } else if (a == b) {
        lg_step_elim_mask(s, c->g, a, ~((1u << (x - 1)) | (1u << (w - 1))));
    } else if (x == w) {
        struct lg_set both;
        lg_set_and(&both, &c->geo->peers[a], &c->geo->peers[b]);
        lg_set_and(&both, &both, &ch->vset[x - 1]);
        for (int i = lg_set_next(&both, 0); i >= 0; i = lg_set_next(&both, (uint32_t)i + 1))
            lg_step_elim(s, (uint32_t)i, x);
    } else if (lg_sees(c->geo, a, b)) {
        lg_step_elim_mask(s, c->g, b, 1u << (x - 1)); /* B is x would force B is w */
        lg_step_elim_mask(s, c->g, a, 1u << (w - 1));
    }
    return s->place_len + s->elim_len > 0;
}

static void chain_text(struct chain *ch, struct lg_step *s, uint32_t a, uint32_t x, uint32_t b,
                       uint32_t w)
{
    const struct lg_ctx *c = ch->c;
    char ca[16], path[LG_TEXT_MAX / 2];

    if (!c->want_text)
        return;
    lg_cells_name(c->geo, s->cells, s->cells_len, path, sizeof(path));
    if (s->place_len) {
        lg_text(c, s, "%s: if %s were not %u the chain %s would make it %u, so it is %u", s->name,
                lg_cell_name(c->geo, a, ca, sizeof(ca)), x, path, x, x);
    } else {
        char cb[16];
        char so[48];
        if (x == w)
            snprintf(so, sizeof(so), "%u goes from every cell seeing both", x);
        else if (a == b)
            snprintf(so, sizeof(so), "it holds nothing else");
        else
            snprintf(so, sizeof(so), "%u candidate%s clashing with both go%s", s->elim_len,
                     s->elim_len == 1 ? "" : "s", s->elim_len == 1 ? "es" : "");
        lg_text(c, s, "%s: %s is %u or %s is %u (chain %s), so %s", s->name,
                lg_cell_name(c->geo, a, ca, sizeof(ca)), x, lg_cell_name(c->geo, b, cb, sizeof(cb)),
                w, path, so);
    }
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */
/* ------------------------------------------------------------------------ */

/* Visit node `to` from `from` unless seen; returns 1 when queued. */
static uint32_t chain_visit(struct chain *ch, uint32_t from, uint32_t to, uint32_t *tail)
{
    if (ch->seen[to] == ch->stamp)
        return 0;
    ch->seen[to] = ch->stamp;
    ch->parent[to] = (uint16_t)from;
    ch->queue[(*tail)++] = (uint16_t)to;
    return 1;
}

/* Expand an off node (cell, v): the strong links out of it. */
static void expand_off(struct chain *ch, uint32_t node, uint32_t cell, uint32_t v, uint32_t *tail)
{
    const struct lg_ctx *c = ch->c;
    const uint32_t n = c->geo->n, m = c->g->cand[cell];

    if ((ch->links & STRONG_CELL) && lg_popcount(m) == 2)
        chain_visit(ch, node, node_of(ch, cell, lg_lowest(m & ~(1u << (v - 1))) + 1, 1), tail);
    if (!(ch->links & STRONG_UNIT))
        return;
    const uint32_t units[3] = {c->geo->row[cell], n + c->geo->col[cell], 2 * n + c->geo->bx[cell]};
    for (int k = 0; k < 3; k++) {
        int other = conjugate(ch, units[k], cell, v);
        if (other >= 0)
            chain_visit(ch, node, node_of(ch, (uint32_t)other, v, 1), tail);
    }
}

/* Expand an on node (cell, v): the weak links out of it, only to off nodes
 * that lead on (cells in strong[]). */
static void expand_on(struct chain *ch, uint32_t node, uint32_t cell, uint32_t v, uint32_t *tail)
{
    const struct lg_ctx *c = ch->c;

    if (ch->links & WEAK_CELL) {
        for (uint32_t m = c->g->cand[cell] & ~(1u << (v - 1)); m; m &= m - 1) {
            uint32_t w = lg_lowest(m) + 1;
            if (lg_set_has(&ch->strong[w - 1], cell))
                chain_visit(ch, node, node_of(ch, cell, w, 0), tail);
        }
    }
    if (!(ch->links & WEAK_PEER))
        return;
    struct lg_set next;
    lg_set_and(&next, &c->geo->peers[cell], &ch->strong[v - 1]);
    for (int i = lg_set_next(&next, 0); i >= 0; i = lg_set_next(&next, (uint32_t)i + 1))
        chain_visit(ch, node, node_of(ch, (uint32_t)i, v, 0), tail);
}

/* BFS from (a, x) off.  Returns true with s filled at the first on node
 * whose conclusion removes something. */
static bool chain_from(struct chain *ch, struct lg_step *s, uint32_t a, uint32_t x)
{
    const uint32_t n = ch->c->geo->n, start = node_of(ch, a, x, 0);
    uint32_t head = 0, tail = 0;

    chain_new_search(ch);
    chain_visit(ch, start, start, &tail);
    while (head < tail && tail < LG_STEP_CELLS * 64) {
        uint32_t node = ch->queue[head++], cell = node / 2 / n, v = node / 2 % n + 1;
        if (!(node & 1)) {
            expand_off(ch, node, cell, v, &tail);
            continue;
        }
        if (chain_conclude(ch, s, a, x, cell, v)) {
            chain_pattern(ch, s, node);
            chain_text(ch, s, a, x, cell, v);
            return true;
        }
        expand_on(ch, node, cell, v, &tail);
    }
    return false;
}

/* Run the chain search with the given links from every start candidate
 * (bivalue cells only when only_bivalue). */
static bool chain_search(const struct lg_ctx *c, struct lg_step *s, uint32_t links,
                         bool only_bivalue)
{
    struct chain ch;

    ch.stamp = 0;
    memset(ch.seen, 0, sizeof(ch.seen[0]) * c->geo->ncells * c->geo->n * 2);
    chain_init(&ch, c, links);
    for (uint32_t a = 0; a < c->geo->ncells; a++) {
        uint32_t m = c->g->cand[a];
        if (!m || (only_bivalue && lg_popcount(m) != 2))
            continue;
        if (lg_should_stop(c))
            return false;
        for (; m; m &= m - 1) {
            uint32_t x = lg_lowest(m) + 1;
            if (lg_set_has(&ch.strong[x - 1], a) && chain_from(&ch, s, a, x))
                return true;
        }
    }
    return false;
}

bool lg_x_chain(const struct lg_ctx *c, struct lg_step *s)
{
    if (lg_se_applies(c))
        return false; /* SE's chains rung found every one (sechain.c) */
    return chain_search(c, s, STRONG_UNIT | WEAK_PEER, false);
}

bool lg_xy_chain(const struct lg_ctx *c, struct lg_step *s)
{
    if (lg_se_applies(c))
        return false; /* SE's chains rung found every one (sechain.c) */
    return chain_search(c, s, STRONG_CELL | WEAK_PEER, true);
}

bool lg_aic(const struct lg_ctx *c, struct lg_step *s)
{
    if (lg_se_applies(c))
        return false; /* SE's chains rung found every one (sechain.c) */
    return chain_search(c, s, STRONG_UNIT | STRONG_CELL | WEAK_PEER | WEAK_CELL, false);
}
