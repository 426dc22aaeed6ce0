/* vgrid.c -- a variant grid drawn for a terminal (vgrid.h).
 *
 * The drawing is a lattice of (2n+1) x (2n+1) places: cells at odd rows
 * and columns, edges between them, junctions at even ones.  An edge is
 * drawn when the cells on its two sides lie in different regions (or one
 * side is outside the grid); a junction takes the box-drawing character
 * of the edges that meet in it (a table indexed by up, right, down, left).
 *
 *   ┌───────┬─────     a cell is " " + cage letter + digit(s) + " "
 *   │ a5 a3 │ b4
 */
#include "tool/vgrid.h"

#include <stdlib.h>
#include <string.h>

#include "tool/rules.h"

#define LEGEND_WIDTH 72 /* columns of the legend's lines */

/* Junctions by the edges meeting there: bit 0 up, 1 right, 2 down, 3 left. */
static const char *const junction_utf8[16] = {" ", "│", "─", "└", "│", "│", "┌", "├",
                                              "─", "┘", "─", "┴", "┐", "┤", "┬", "┼"};
static const char *const junction_ascii[16] = {" ", "|", "-", "+", "|", "|", "+", "+",
                                               "-", "+", "-", "+", "+", "+", "+", "+"};

/* How one drawing goes. */
struct vgrid {
    FILE *out;
    unsigned n;
    const uint8_t *cells;
    int region[SUDOKU_CLIENT_MAX_CELLS]; /* each cell's region */
    int cage[SUDOKU_CLIENT_MAX_CELLS];   /* each cell's cage, -1: none */
    unsigned cages;                      /* cages drawn */
    unsigned label_w;                    /* characters of a cage's label: 0, 1 or 2 */
    unsigned value_w;                    /* characters of a value: 1, or 2 above 9 */
    const char *const *junction;         /* junction_utf8 or junction_ascii */
    const char *hline, *vline;           /* an edge's characters */
};

int vgrid_is_utf8(void)
{
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};

    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return strstr(v, "UTF-8") || strstr(v, "utf-8") || strstr(v, "UTF8") ||
                   strstr(v, "utf8");
    }
    return 0;
}

static unsigned box_side(unsigned n)
{
    unsigned b = 2;
    while (b * b < n)
        b++;
    return b;
}

static int symbol_region(char c)
{
    if (c >= '1' && c <= '9')
        return c - '1';
    if (c >= 'A' && c <= 'P')
        return c - 'A' + 9;
    if (c >= 'a' && c <= 'p')
        return c - 'a' + 9;
    return -1;
}

/* Each cell's region: the layout's, else the boxes. */
static void set_regions(struct vgrid *g, const struct sudoku_client_rules *r)
{
    unsigned n = g->n, b = box_side(n);
    int is_layout = r && r->regions && r->regions_len == (size_t)n * n;

    for (unsigned i = 0; i < n * n; i++) {
        g->region[i] = (int)((i / n / b) * b + (i % n) / b);
        if (is_layout && symbol_region(r->regions[i]) >= 0)
            g->region[i] = symbol_region(r->regions[i]);
    }
}

static void set_cages(struct vgrid *g, const struct sudoku_client_rules *r)
{
    for (unsigned i = 0; i < g->n * g->n; i++)
        g->cage[i] = -1;
    g->cages = r ? (unsigned)r->cages_len : 0;
    for (unsigned c = 0; c < g->cages; c++)
        for (size_t k = 0; k < r->cages[c].cells_len; k++)
            if (r->cages[c].cells[k] < g->n * g->n)
                g->cage[r->cages[c].cells[k]] = (int)c;
    g->label_w = g->cages == 0 ? 0 : g->cages <= 52 ? 1 : 2;
}

/* Cage c's label: a-z then A-Z; past 52 cages two letters. */
static void cage_label(const struct vgrid *g, int c, char *out)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    if (c < 0) {
        memset(out, ' ', g->label_w);
    } else if (g->label_w == 1) {
        out[0] = letters[c];
    } else {
        out[0] = letters[(c / 52) % 52];
        out[1] = letters[c % 52];
    }
    out[g->label_w] = '\0';
}

/* 1 when cells a and b (b may be outside: -1) are in different regions. */
static int is_wall(const struct vgrid *g, int a, int b)
{
    return a < 0 || b < 0 || g->region[a] != g->region[b];
}

static int cell_at(const struct vgrid *g, int row, int col)
{
    int n = (int)g->n;
    return row < 0 || col < 0 || row >= n || col >= n ? -1 : row * n + col;
}

static unsigned cell_width(const struct vgrid *g)
{
    return g->label_w + g->value_w + 2;
}

/* 1 when some edge runs along the line above row (0 < row < n). */
static int has_edge(const struct vgrid *g, int row)
{
    for (int col = 0; col < (int)g->n; col++)
        if (is_wall(g, cell_at(g, row - 1, col), cell_at(g, row, col)))
            return 1;
    return 0;
}

/* The rule line above row (0..n): junctions and horizontal edges; none
 * inside a region's run of rows, where it would only repeat the bars. */
static void print_rule(const struct vgrid *g, int row)
{
    if (row > 0 && row < (int)g->n && !has_edge(g, row))
        return;
    for (int col = 0; col <= (int)g->n; col++) {
        int ul = cell_at(g, row - 1, col - 1), ur = cell_at(g, row - 1, col);
        int dl = cell_at(g, row, col - 1), dr = cell_at(g, row, col);
        unsigned bits = 0;
        if ((ul >= 0 || ur >= 0) && is_wall(g, ul, ur))
            bits |= 1;
        if ((ur >= 0 || dr >= 0) && is_wall(g, ur, dr))
            bits |= 2;
        if ((dl >= 0 || dr >= 0) && is_wall(g, dl, dr))
            bits |= 4;
        if ((ul >= 0 || dl >= 0) && is_wall(g, ul, dl))
            bits |= 8;
        fputs(g->junction[bits], g->out);
        if (col == (int)g->n)
            break;
        for (unsigned k = 0; k < cell_width(g); k++)
            fputs(bits & 2 ? g->hline : " ", g->out);
    }
    putc('\n', g->out);
}

static void print_row(const struct vgrid *g, int row)
{
    char label[3];

    for (int col = 0; col < (int)g->n; col++) {
        int at = cell_at(g, row, col);
        unsigned v = g->cells[at];
        fputs(is_wall(g, cell_at(g, row, col - 1), at) ? g->vline : " ", g->out);
        cage_label(g, g->cage[at], label);
        if (v)
            fprintf(g->out, " %s%*u ", label, (int)g->value_w, v);
        else
            fprintf(g->out, " %s%*s ", label, (int)g->value_w, ".");
    }
    fputs(g->vline, g->out);
    putc('\n', g->out);
}

/* "a=17 b=9 ..." in lines of LEGEND_WIDTH columns. */
static void print_legend(const struct vgrid *g, const struct sudoku_client_rules *r)
{
    unsigned col = 0;
    char label[3];

    for (unsigned c = 0; c < g->cages; c++) {
        char item[32];
        int len;
        cage_label(g, (int)c, label);
        len = snprintf(item, sizeof(item), "%s=%u", label, r->cages[c].sum);
        if (col > 0 && col + 1 + (unsigned)len > LEGEND_WIDTH) {
            putc('\n', g->out);
            col = 0;
        }
        fprintf(g->out, "%s%s", col ? " " : "", item);
        col += (col ? 1 : 0) + (unsigned)len;
    }
    if (col)
        putc('\n', g->out);
}

void vgrid_print(FILE *out, unsigned n, const uint8_t *cells,
                 const struct sudoku_client_rules *rules)
{
    static struct vgrid g; /* 5 KiB of tables: off the stack; not reentrant */
    int utf8 = vgrid_is_utf8();

    memset(&g, 0, sizeof(g));
    g.out = out;
    g.n = n;
    g.cells = cells;
    g.value_w = n > 9 ? 2 : 1;
    g.junction = utf8 ? junction_utf8 : junction_ascii;
    g.hline = utf8 ? "─" : "-";
    g.vline = utf8 ? "│" : "|";
    set_regions(&g, rules);
    set_cages(&g, rules);
    if (tool_rules_any(rules)) {
        char names[128];
        fprintf(out, "rules: %s\n", tool_rules_describe(rules, names, sizeof(names)));
    }
    for (int row = 0; row < (int)n; row++) {
        print_rule(&g, row);
        print_row(&g, row);
    }
    print_rule(&g, (int)n);
    if (g.cages)
        print_legend(&g, rules);
}
