/* rules.c -- the sudoku tool's variant rules (rules.h).
 *
 * Names on the command line are the ones players use (x, windoku,
 * anti-knight, ...) and the wire's keys; a JSON-lines record is read with
 * util/jsonread.h into the same struct.  The messages for a rules map of
 * the wrong shape are the daemon's words (proto/rules.c), so a user reads
 * the same sentence whichever end found it.
 */
#include "tool/rules.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "util/json.h"
#include "util/jsonread.h"

#define JSON_TOKENS 4096 /* values of one JSON line (INPUT_LINE_MAX bytes) at most */

/* Each rule's names: the players' and the wire's, and its flag. */
static const struct {
    const char *name, *wire;
    unsigned flag;
} rule_names[] = {
    {"x", "diagonals", SUDOKU_CLIENT_RULE_DIAGONALS},
    {"windoku", "windows", SUDOKU_CLIENT_RULE_WINDOWS},
    {"anti-knight", "anti_knight", SUDOKU_CLIENT_RULE_ANTI_KNIGHT},
    {"anti-king", "anti_king", SUDOKU_CLIENT_RULE_ANTI_KING},
    {"non-consecutive", "non_consecutive", SUDOKU_CLIENT_RULE_NON_CONSECUTIVE},
    {"jigsaw", "regions", SUDOKU_CLIENT_RULE_DRAW_REGIONS},
    {"killer", "cages", SUDOKU_CLIENT_RULE_DRAW_CAGES},
};
#define RULE_NAMES_LEN (sizeof(rule_names) / sizeof(rule_names[0]))
#define BOOL_RULES     5 /* the first five are the booleans */

/* ------------------------------------------------------------------------ */
/* The command line */

static unsigned name_flag(const char *s, size_t len)
{
    for (size_t i = 0; i < RULE_NAMES_LEN; i++) {
        const char *names[] = {rule_names[i].name, rule_names[i].wire};
        for (size_t k = 0; k < 2; k++)
            if (strlen(names[k]) == len && strncasecmp(s, names[k], len) == 0)
                return rule_names[i].flag;
    }
    if (len == 8 && strncasecmp(s, "x-sudoku", len) == 0)
        return SUDOKU_CLIENT_RULE_DIAGONALS;
    return 0;
}

int tool_rules_names(const char *list, unsigned *flags, char *err, size_t err_size)
{
    const char *p = list;

    *flags = 0;
    for (;;) {
        size_t len = strcspn(p, ",");
        unsigned f;
        while (len > 0 && isspace((unsigned char)*p))
            p++, len--;
        while (len > 0 && isspace((unsigned char)p[len - 1]))
            len--;
        f = len ? name_flag(p, len) : 0;
        if (!f && len) {
            snprintf(err, err_size, "unknown rule \"%.*s\" (want %s)", (int)(len > 40 ? 40 : len),
                     p, TOOL_RULES_NAMES);
            return -EINVAL;
        }
        *flags |= f;
        p += strcspn(p, ",");
        if (!*p)
            break;
        p++;
    }
    if (!*flags) {
        snprintf(err, err_size, "no rule named (want %s)", TOOL_RULES_NAMES);
        return -EINVAL;
    }
    return 0;
}

/* The text of @FILE into buf (size bytes with a NUL).  Returns 0 or -1 (said). */
static int read_file(const char *path, char *buf, size_t size, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    if (n == size - 1 && fgetc(f) != EOF) {
        fclose(f);
        snprintf(err, err_size, "%s is too long for a layout", path);
        return -1;
    }
    fclose(f);
    return 0;
}

int tool_rules_regions(struct tool_rules *r, const char *arg, char *err, size_t err_size)
{
    char text[4 * SUDOKU_CLIENT_MAX_CELLS];
    size_t len = 0;

    if (arg[0] == '@') {
        if (read_file(arg + 1, text, sizeof(text), err, err_size) < 0)
            return -EINVAL;
    } else {
        snprintf(text, sizeof(text), "%s", arg);
    }
    for (const char *p = text; *p; p++) {
        if (isspace((unsigned char)*p))
            continue;
        if (len == SUDOKU_CLIENT_MAX_CELLS) {
            snprintf(err, err_size, "more than 625 symbols: a layout has 16, 81, 256 or 625");
            return -EINVAL;
        }
        r->regions[len++] = *p;
    }
    r->regions[len] = '\0';
    if (len != 16 && len != 81 && len != 256 && len != 625) {
        snprintf(err, err_size, "%zu symbols: a layout has one a cell (16, 81, 256 or 625)", len);
        return -EINVAL;
    }
    r->r.regions = r->regions;
    r->r.regions_len = len;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* JSON lines */

/* The reading of one record: the text, its tokens, where messages go. */
struct json_read {
    const char *text;
    const struct json_token *tok;
    struct tool_rules *r;
    size_t cells_used;
    char *err;
    size_t err_size;
};

static int json_fail(struct json_read *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int json_fail(struct json_read *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(j->err, j->err_size, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* Cage i (0-based) of the cages array: [sum, [cell, ...]]. */
static int read_cage(struct json_read *j, uint32_t at, unsigned i)
{
    const struct json_token *t = j->tok;
    struct sudoku_client_cage *c = &j->r->cages[i];
    uint64_t v;
    uint32_t sum = at + 1, cells, k;

    if (t[at].type != JSON_ARRAY || t[at].size != 2)
        return json_fail(j, "cages: cage %u must be [sum, [cell, ...]]", i + 1);
    cells = t[sum].next;
    if (t[cells].type != JSON_ARRAY)
        return json_fail(j, "cages: cage %u must be [sum, [cell, ...]]", i + 1);
    if (json_uint(j->text, &t[sum], UINT32_MAX, &v) < 0)
        return json_fail(j, "cages: cage %u's sum must be a positive integer", i + 1);
    c->sum = (unsigned)v;
    c->cells = j->r->cells + j->cells_used;
    c->cells_len = t[cells].size;
    if (j->cells_used + t[cells].size > SUDOKU_CLIENT_MAX_CELLS)
        return json_fail(j, "cages: more than the largest grid's 625 cells in all (at cage %u)",
                         i + 1);
    k = cells + 1;
    for (unsigned m = 0; m < t[cells].size; m++, k = t[k].next) {
        if (t[k].type != JSON_NUMBER || json_uint(j->text, &t[k], 65535, &v) < 0)
            return json_fail(j,
                             "cages: cage %u's cell %u must be a cell number (0-based, row-major)",
                             i + 1, m + 1);
        if (v >= SUDOKU_CLIENT_MAX_CELLS)
            return json_fail(j, "cages: cage %u has cell %u, more than the largest grid has", i + 1,
                             (unsigned)v);
        j->r->cells[j->cells_used++] = (uint16_t)v;
    }
    return 0;
}

static int read_cages(struct json_read *j, uint32_t at)
{
    const struct json_token *t = j->tok;
    uint32_t k = at + 1;

    if (t[at].type != JSON_ARRAY)
        return json_fail(j, "cages: must be an array of [sum, [cell, ...]]");
    if (t[at].size > SUDOKU_CLIENT_MAX_CELLS)
        return json_fail(j, "cages: %u cages, more than the largest grid's 625 cells", t[at].size);
    for (unsigned i = 0; i < t[at].size; i++, k = t[k].next)
        if (read_cage(j, k, i) < 0)
            return -EINVAL;
    j->r->r.cages = j->r->cages;
    j->r->r.cages_len = t[at].size;
    return 0;
}

static int read_regions(struct json_read *j, uint32_t at)
{
    long len;

    if (j->tok[at].type != JSON_STRING)
        return json_fail(j, "regions: must be a string of n*n region symbols");
    len = json_string_copy(j->text, &j->tok[at], j->r->regions, sizeof(j->r->regions));
    if (len < 0)
        return json_fail(j, "regions: more than the largest grid's 625 symbols");
    j->r->r.regions = j->r->regions;
    j->r->r.regions_len = (size_t)len;
    return 0;
}

/* One member of the rules map: key token at k, its value after it. */
static int read_rule(struct json_read *j, uint32_t k)
{
    const struct json_token *v = &j->tok[k + 1];
    char key[40];

    for (size_t i = 0; i < BOOL_RULES; i++) {
        if (!json_string_is(j->text, &j->tok[k], rule_names[i].wire))
            continue;
        if (v->type != JSON_TRUE && v->type != JSON_FALSE)
            return json_fail(j, "rules: %s must be true or false", rule_names[i].wire);
        if (v->type == JSON_TRUE)
            j->r->r.flags |= rule_names[i].flag;
        return 0;
    }
    if (json_string_is(j->text, &j->tok[k], "regions"))
        return read_regions(j, k + 1);
    if (json_string_is(j->text, &j->tok[k], "cages"))
        return read_cages(j, k + 1);
    if (json_string_copy(j->text, &j->tok[k], key, sizeof(key)) < 0)
        snprintf(key, sizeof(key), "...");
    return json_fail(j,
                     "rules: unknown rule \"%s\" (diagonals, windows, regions, anti_knight, "
                     "anti_king, non_consecutive, cages)",
                     key);
}

static int read_rules(struct json_read *j, long at)
{
    uint32_t k;

    if (at < 0 || j->tok[at].type == JSON_NULL)
        return 0;
    if (j->tok[at].type != JSON_OBJECT)
        return json_fail(j, "rules: must be a map");
    k = (uint32_t)at + 1;
    for (uint32_t i = 0; i < j->tok[at].size; i++, k = j->tok[k + 1].next)
        if (read_rule(j, k) < 0)
            return -EINVAL;
    return 0;
}

int tool_rules_from_json(const char *text, size_t len, char *puzzle, size_t puzzle_size,
                         struct tool_rules *r, char *err, size_t err_size)
{
    static struct json_token tok[JSON_TOKENS]; /* 96 KiB: off the stack; one caller at a time */
    struct json_read j = {text, tok, r, 0, err, err_size};
    long p;

    memset(&r->r, 0, sizeof(r->r));
    if (json_parse(text, len, tok, JSON_TOKENS, err, err_size) < 0)
        return -EINVAL;
    if (tok[0].type != JSON_OBJECT)
        return json_fail(&j, "a JSON line is an object {\"puzzle\": ..., \"rules\": {...}}");
    p = json_member(text, tok, 0, "puzzle");
    if (p < 0)
        return json_fail(&j, "no \"puzzle\" in the object");
    if (tok[p].type != JSON_STRING || json_string_copy(text, &tok[p], puzzle, puzzle_size) < 0)
        return json_fail(&j, "\"puzzle\" must be a string of 16, 81, 256 or 625 symbols");
    return read_rules(&j, json_member(text, tok, 0, "rules"));
}

/* ------------------------------------------------------------------------ */
/* Copies, JSON out, names */

int tool_rules_any(const struct sudoku_client_rules *r)
{
    return r && (r->flags || r->regions || r->cages_len);
}

struct sudoku_client_rules *tool_rules_dup(const struct sudoku_client_rules *rules)
{
    size_t cells = 0, size;
    struct sudoku_client_rules *d;
    struct sudoku_client_cage *cages;
    uint16_t *cell;
    char *regions;

    if (!rules)
        return NULL;
    for (size_t i = 0; i < rules->cages_len; i++)
        cells += rules->cages[i].cells_len;
    size = sizeof(*d) + rules->cages_len * sizeof(*cages) + cells * sizeof(*cell) +
           rules->regions_len + 1;
    d = malloc(size);
    if (!d)
        return NULL;
    *d = *rules;
    cages = (struct sudoku_client_cage *)(d + 1);
    cell = (uint16_t *)(cages + rules->cages_len);
    regions = (char *)(cell + cells);
    for (size_t i = 0; i < rules->cages_len; i++) {
        cages[i] = rules->cages[i];
        cages[i].cells = cell;
        if (rules->cages[i].cells_len)
            memcpy(cell, rules->cages[i].cells, rules->cages[i].cells_len * sizeof(*cell));
        cell += rules->cages[i].cells_len;
    }
    d->cages = rules->cages_len ? cages : NULL;
    if (rules->regions) {
        memcpy(regions, rules->regions, rules->regions_len);
        regions[rules->regions_len] = '\0';
        d->regions = regions;
    }
    return d;
}

void tool_rules_put_json(FILE *out, const struct sudoku_client_rules *r)
{
    const char *sep = "";

    putc('{', out);
    for (size_t i = 0; r && i < BOOL_RULES; i++) {
        if (r->flags & rule_names[i].flag) {
            fprintf(out, "%s\"%s\":true", sep, rule_names[i].wire);
            sep = ",";
        }
    }
    if (r && r->regions) {
        char regions[SUDOKU_CLIENT_MAX_CELLS + 1];
        snprintf(regions, sizeof(regions), "%.*s", (int)r->regions_len, r->regions);
        fprintf(out, "%s\"regions\":", sep);
        json_put_string(out, regions);
        sep = ",";
    }
    if (r && r->cages_len) {
        fprintf(out, "%s\"cages\":[", sep);
        for (size_t i = 0; i < r->cages_len; i++) {
            fprintf(out, "%s[%u,[", i ? "," : "", r->cages[i].sum);
            for (size_t k = 0; k < r->cages[i].cells_len; k++)
                fprintf(out, k ? ",%u" : "%u", r->cages[i].cells[k]);
            fputs("]]", out);
        }
        putc(']', out);
    }
    putc('}', out);
}

const char *tool_rules_describe(const struct sudoku_client_rules *r, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; r && i < RULE_NAMES_LEN && used < size; i++) {
        int has = i < BOOL_RULES ? (r->flags & rule_names[i].flag) != 0
                  : rule_names[i].flag == SUDOKU_CLIENT_RULE_DRAW_REGIONS ? r->regions != NULL
                                                                          : r->cages_len > 0;
        if (has)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     rule_names[i].name);
    }
    return buf;
}

const char *tool_rules_flag_names(unsigned flags, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < RULE_NAMES_LEN && used < size; i++)
        if (flags & rule_names[i].flag)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     rule_names[i].name);
    return buf;
}

void tool_rules_put_flag_json(FILE *out, unsigned flags)
{
    const char *sep = "";

    putc('[', out);
    for (size_t i = 0; i < RULE_NAMES_LEN; i++) {
        if (flags & rule_names[i].flag) {
            fprintf(out, "%s\"%s\"", sep, rule_names[i].wire);
            sep = ",";
        }
    }
    putc(']', out);
}

int tool_rules_check_layout(const struct sudoku_client_rules *r, char *err, size_t err_size)
{
    struct rules_desc d = {.regions = r->regions, .regions_len = r->regions_len};
    struct rules *built = NULL;
    int rc;

    d.n = r->regions_len == 16 ? 4 : r->regions_len == 81 ? 9 : r->regions_len == 256 ? 16 : 25;
    rc = rules_new(&d, &built, err, err_size);
    rules_free(built);
    return rc;
}
