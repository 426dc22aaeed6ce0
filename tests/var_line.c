/* var_line.c -- parse the variant tests' puzzle lines (see var_line.h). */
#include "var_line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/codec.h"

/* The boolean rules by wire key. */
static const struct {
    const char *key;
    uint32_t flag;
} var_flags[] = {
    {"diagonals", SDK_RULE_DIAGONALS},
    {"windows", SDK_RULE_WINDOWS},
    {"anti_knight", SDK_RULE_ANTI_KNIGHT},
    {"anti_king", SDK_RULE_ANTI_KING},
    {"non_consecutive", SDK_RULE_NON_CONSECUTIVE},
};

/* Parse "SUM:C.C.C;SUM:C..." (cells apart by cell_sep) into v's cages.
 * Returns 0 or -EINVAL. */
static int parse_cages(char *s, struct var_line *v, char cell_sep)
{
    uint32_t cages = 0, cells = 0;

    for (char *save = NULL, *c = strtok_r(s, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
        char *end;
        if (cages == SDK_MAX_CELLS)
            return -EINVAL;
        v->cages[cages] = (struct rules_desc_cage){.sum = strtoull(c, &end, 10), .off = cells};
        if (*end != ':')
            return -EINVAL;
        for (char *p = end + 1; *p; p = end + (*end == cell_sep)) {
            if (cells == SDK_MAX_CELLS)
                return -EINVAL;
            v->cage_cells[cells++] = strtoull(p, &end, 10);
            if (end == p || (*end != cell_sep && *end != '\0'))
                return -EINVAL;
        }
        v->cages[cages].len = cells - v->cages[cages].off;
        cages++;
    }
    v->desc.cages = v->cages;
    v->desc.cages_len = cages;
    v->desc.cage_cells = v->cage_cells;
    v->desc.cage_cells_len = cells;
    return 0;
}

/* Parse one rule into v.  Returns 0 or -EINVAL. */
static int parse_rule(char *r, struct var_line *v, char cell_sep)
{
    if (strcmp(r, "classic") == 0)
        return 0;
    if (strncmp(r, "regions=", 8) == 0) {
        if (strlen(r + 8) > SDK_MAX_CELLS)
            return -EINVAL;
        strcpy(v->regions, r + 8);
        v->desc.regions = v->regions;
        v->desc.regions_len = strlen(v->regions);
        return 0;
    }
    if (strncmp(r, "cages=", 6) == 0)
        return parse_cages(r + 6, v, cell_sep);
    for (size_t k = 0; k < sizeof(var_flags) / sizeof(var_flags[0]); k++) {
        if (strcmp(r, var_flags[k].key) == 0) {
            v->desc.flags |= var_flags[k].flag;
            return 0;
        }
    }
    return -EINVAL;
}

/* Parse the rules field (writable; rules apart by rule_sep, cage cells by
 * cell_sep) into v.  Returns 0 or -EINVAL. */
static int parse_rules(char *s, struct var_line *v, const char *rule_sep, char cell_sep)
{
    char *save = NULL;

    snprintf(v->rules_text, sizeof(v->rules_text), "%s", s);
    for (char *r = strtok_r(s, rule_sep, &save); r; r = strtok_r(NULL, rule_sep, &save))
        if (parse_rule(r, v, cell_sep) != 0)
            return -EINVAL;
    return 0;
}

/* Split the line s into its first len '|'-separated fields, in buf. */
static int split_fields(const char *s, char *buf, size_t buf_size, char **f, int len)
{
    size_t n = strlen(s);
    char *save = NULL;

    if (n >= buf_size)
        return -EINVAL;
    memcpy(buf, s, n + 1);
    buf[strcspn(buf, "\r\n")] = '\0';
    for (int k = 0; k < len; k++)
        if (!(f[k] = strtok_r(k ? NULL : buf, "|", &save)))
            return -EINVAL;
    return 0;
}

/* Parse the puzzle field into v.  Returns 0 or -EINVAL. */
static int parse_puzzle(const char *s, struct var_line *v)
{
    memset(&v->desc, 0, sizeof(v->desc));
    if (codec_parse_line(s, strlen(s), &v->n, v->cells, NULL, 0) != 0)
        return -EINVAL;
    v->desc.n = v->n;
    return 0;
}

int var_line_parse(const char *s, struct var_line *v)
{
    char buf[VAR_LINE_MAX], *f[4];

    if (split_fields(s, buf, sizeof(buf), f, 4) != 0 || parse_puzzle(f[3], v) != 0)
        return -EINVAL;
    v->limit = strtoull(f[0], NULL, 10);
    v->expected = strtoull(f[1], NULL, 10);
    return parse_rules(f[2], v, ",", '.');
}

int var_line_parse_golden(const char *s, struct var_line *v)
{
    char buf[VAR_LINE_MAX], *f[5];

    if (split_fields(s, buf, sizeof(buf), f, 5) != 0 || parse_puzzle(f[2], v) != 0)
        return -EINVAL;
    v->limit = 2;
    v->expected = strtoull(f[3], NULL, 10);
    return parse_rules(f[1], v, " ", ',');
}
