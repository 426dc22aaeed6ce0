/* variants.c -- sudoku-bench's JSON-lines records: a puzzle with its rules.
 *
 * A puzzle file may hold lines {"puzzle": "...", "rules": {...}} (the
 * tool's JSON-lines form, rules in the wire's shape: docs/protocol.md),
 * so that variant puzzles are timed as classic ones are.  This reads one
 * such line into givens and a struct rules built and checked by
 * core/rules.h, as the daemon would.  Not timed; allocates the rules
 * (and a token array while parsing), never on a solver's path.
 */
#include "bench/variants.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grid.h"
#include "core/rules.h"
#include "proto/codec.h"
#include "util/jsonread.h"

#define VARIANT_TOKENS (4 * SDK_MAX_CELLS + 64) /* every cage cell, cages, keys */

/* What one line's rules are read into. */
struct variant_read {
    const char *text;
    const struct json_token *tok;
    struct rules_desc d;
    struct rules_desc_cage cages[SDK_MAX_CELLS];
    uint64_t cells[SDK_MAX_CELLS];
};

static const struct {
    const char *key;
    uint32_t flag;
} variant_bools[] = {
    {"diagonals", SDK_RULE_DIAGONALS},
    {"windows", SDK_RULE_WINDOWS},
    {"anti_knight", SDK_RULE_ANTI_KNIGHT},
    {"anti_king", SDK_RULE_ANTI_KING},
    {"non_consecutive", SDK_RULE_NON_CONSECUTIVE},
};

/* Read one cage [sum, [cell, ...]] at token k.  Returns 0 or -EINVAL. */
static int read_cage(struct variant_read *v, uint32_t k)
{
    const struct json_token *t = v->tok;
    struct rules_desc_cage *c = &v->cages[v->d.cages_len];
    uint64_t sum;

    if (t[k].type != JSON_ARRAY || t[k].size != 2 || v->d.cages_len >= SDK_MAX_CELLS ||
        json_uint(v->text, &t[k + 1], UINT32_MAX, &sum) < 0 || t[k + 2].type != JSON_ARRAY)
        return -EINVAL;
    *c = (struct rules_desc_cage){.sum = sum, .off = v->d.cage_cells_len, .len = t[k + 2].size};
    for (uint32_t i = 0, e = k + 3; i < t[k + 2].size; i++, e = t[e].next) {
        if (v->d.cage_cells_len >= SDK_MAX_CELLS ||
            json_uint(v->text, &t[e], UINT16_MAX, &v->cells[v->d.cage_cells_len]) < 0)
            return -EINVAL;
        v->d.cage_cells_len++;
    }
    v->d.cages_len++;
    return 0;
}

/* Read one member of the rules map, key at token k.  Returns 0 or -EINVAL. */
static int read_rule(struct variant_read *v, uint32_t k)
{
    const struct json_token *t = v->tok, *val = &t[k + 1];

    for (size_t i = 0; i < sizeof(variant_bools) / sizeof(variant_bools[0]); i++)
        if (json_string_is(v->text, &t[k], variant_bools[i].key)) {
            if (val->type == JSON_TRUE)
                v->d.flags |= variant_bools[i].flag;
            return val->type == JSON_TRUE || val->type == JSON_FALSE ? 0 : -EINVAL;
        }
    if (json_string_is(v->text, &t[k], "regions") && val->type == JSON_STRING) {
        v->d.regions = v->text + val->start;
        v->d.regions_len = val->len;
        return 0;
    }
    if (!json_string_is(v->text, &t[k], "cages") || val->type != JSON_ARRAY)
        return -EINVAL;
    v->d.cages = v->cages;
    v->d.cage_cells = v->cells;
    for (uint32_t i = 0, c = k + 2; i < val->size; i++, c = t[c].next)
        if (read_cage(v, c) < 0)
            return -EINVAL;
    return 0;
}

/* Read the puzzle and the rules map of a parsed line.  Returns 0 or -EINVAL. */
static int read_line(struct variant_read *v, unsigned *n, uint8_t *cells)
{
    const struct json_token *t = v->tok;
    long p = json_member(v->text, t, 0, "puzzle"), r = json_member(v->text, t, 0, "rules");

    if (t[0].type != JSON_OBJECT || p < 0 || t[p].type != JSON_STRING ||
        codec_parse_line(v->text + t[p].start, t[p].len, n, cells, NULL, 0) != 0)
        return -EINVAL;
    v->d.n = *n;
    if (r < 0 || t[r].type == JSON_NULL)
        return 0;
    if (t[r].type != JSON_OBJECT)
        return -EINVAL;
    for (uint32_t i = 0, k = (uint32_t)r + 1; i < t[r].size; i++, k = t[k + 1].next)
        if (read_rule(v, k) < 0)
            return -EINVAL;
    return 0;
}

int bench_variant_line(const char *text, size_t len, unsigned *n, uint8_t *cells,
                       struct rules **rules)
{
    struct variant_read *v = calloc(1, sizeof(*v));
    struct json_token *tok = calloc(VARIANT_TOKENS, sizeof(*tok));
    char err[256];
    int rc = -ENOMEM;

    *rules = NULL;
    if (!v || !tok)
        goto done;
    v->text = text;
    v->tok = tok;
    rc = -EINVAL;
    if (json_parse(text, len, tok, VARIANT_TOKENS, err, sizeof(err)) < 0 ||
        read_line(v, n, cells) < 0 || rules_new(&v->d, rules, err, sizeof(err)) < 0)
        goto done;
    rc = rules_check_givens(rules_sdk(*rules), *n, cells, err, sizeof(err)) < 0 ? -EINVAL : 0;
    if (rc < 0) {
        rules_free(*rules);
        *rules = NULL;
    }
done:
    free(tok);
    free(v);
    return rc;
}
