/* text.c -- the logic plugin's sentences, in r1c1 notation.
 *
 * Rows, columns and boxes count from 1 in text (cells are 0-based
 * everywhere else); boxes are numbered row-major.  Every writer here is
 * bounded by its buffer and always NUL-terminates; a sentence that does not
 * fit is cut, never overrun.
 */
#include <stdarg.h>
#include <stdio.h>

#include "lg.h"

/* Set s->text from fmt (a no-op without c->want_text). */
void lg_text(const struct lg_ctx *c, struct lg_step *s, const char *fmt, ...)
{
    va_list ap;
    int len;

    if (!c->want_text)
        return;
    va_start(ap, fmt);
    len = vsnprintf(s->text, sizeof(s->text), fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    if ((size_t)len >= sizeof(s->text))
        len = (int)sizeof(s->text) - 1;
    s->text_len = (uint32_t)len;
    /* Sentences open with the technique for people: "naked pair:", not
     * the wire name "naked_pair:". */
    for (char *p = s->text; *p && *p != ':'; p++)
        if (*p == '_')
            *p = ' ';
}

/* "r3c5" for cell; returns buf. */
const char *lg_cell_name(const struct lg_geom *geo, uint32_t cell, char *buf, size_t size)
{
    snprintf(buf, size, "r%uc%u", geo->row[cell] + 1u, geo->col[cell] + 1u);
    return buf;
}

/* "row 3", "column 5" or "box 2" for unit; returns buf. */
const char *lg_unit_name(const struct lg_geom *geo, uint32_t unit, char *buf, size_t size)
{
    static const char *const kinds[3] = {"row", "column", "box"};

    if (geo->rules && (unit >= 3 * geo->n || (geo->rules->kinds & SDK_RULE_REGIONS)))
        return lg_var_unit_name(geo, unit, buf, size);
    snprintf(buf, size, "%s %u", kinds[unit / geo->n], unit % geo->n + 1u);
    return buf;
}

/* "{3,7}" for a value mask; returns buf. */
const char *lg_values_name(uint32_t mask, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (uint32_t m = mask; m && used + 1 < size; m &= m - 1) {
        int len = snprintf(buf + used, size - used, "%s%u", used ? "," : "{", lg_lowest(m) + 1);
        if (len < 0)
            break;
        used += (size_t)len;
    }
    if (used + 1 < size)
        snprintf(buf + used, size - used, "}");
    return buf;
}

/* "r1c2,r1c7,r4c2" for a list of cells; returns buf. */
const char *lg_cells_name(const struct lg_geom *geo, const uint16_t *cells, uint32_t len, char *buf,
                          size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < len && used + 1 < size; i++) {
        int k = snprintf(buf + used, size - used, "%sr%uc%u", i ? "," : "", geo->row[cells[i]] + 1u,
                         geo->col[cells[i]] + 1u);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}
