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

/* Parse "SUM:C.C.C;SUM:C..." into v's cages.  Returns 0 or -EINVAL. */
static int parse_cages(char *s, struct var_line *v)
{
    uint32_t cages = 0, cells = 0;

    for (char *save = NULL, *c = strtok_r(s, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
        char *end;
        if (cages == SDK_MAX_CELLS)
            return -EINVAL;
        v->cages[cages] = (struct rules_desc_cage){.sum = strtoull(c, &end, 10), .off = cells};
        if (*end != ':')
            return -EINVAL;
        for (char *p = end + 1; *p; p = end + (*end == '.')) {
            if (cells == SDK_MAX_CELLS)
                return -EINVAL;
            v->cage_cells[cells++] = strtoull(p, &end, 10);
            if (end == p || (*end != '.' && *end != '\0'))
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

/* Parse one comma-separated rule into v.  Returns 0 or -EINVAL. */
static int parse_rule(char *r, struct var_line *v)
{
    if (strncmp(r, "regions=", 8) == 0) {
        if (strlen(r + 8) > SDK_MAX_CELLS)
            return -EINVAL;
        strcpy(v->regions, r + 8);
        v->desc.regions = v->regions;
        v->desc.regions_len = strlen(v->regions);
        return 0;
    }
    if (strncmp(r, "cages=", 6) == 0)
        return parse_cages(r + 6, v);
    for (size_t k = 0; k < sizeof(var_flags) / sizeof(var_flags[0]); k++) {
        if (strcmp(r, var_flags[k].key) == 0) {
            v->desc.flags |= var_flags[k].flag;
            return 0;
        }
    }
    return -EINVAL;
}

/* Parse the rules field (writable) into v.  Returns 0 or -EINVAL. */
static int parse_rules(char *s, struct var_line *v)
{
    char *save = NULL;

    for (char *r = strtok_r(s, ",", &save); r; r = strtok_r(NULL, ",", &save))
        if (parse_rule(r, v) != 0)
            return -EINVAL;
    return 0;
}

int var_line_parse(const char *s, struct var_line *v)
{
    char buf[VAR_LINE_MAX], *save = NULL, *f[4];
    size_t len = strlen(s);

    if (len >= sizeof(buf))
        return -EINVAL;
    memcpy(buf, s, len + 1);
    buf[strcspn(buf, "\r\n")] = '\0';
    memset(&v->desc, 0, sizeof(v->desc));
    for (int k = 0; k < 4; k++)
        if (!(f[k] = strtok_r(k ? NULL : buf, "|", &save)))
            return -EINVAL;
    v->limit = strtoull(f[0], NULL, 10);
    v->expected = strtoull(f[1], NULL, 10);
    snprintf(v->rules_text, sizeof(v->rules_text), "%s", f[2]);
    if (codec_parse_line(f[3], strlen(f[3]), &v->n, v->cells, NULL, 0) != 0)
        return -EINVAL;
    v->desc.n = v->n;
    return strcmp(f[2], "-") == 0 ? 0 : parse_rules(f[2], v);
}
