/* render.c -- the layout of a printable page of grids, drawn on a canvas.
 *
 * Everything a picture shows is decided here, once, in page coordinates;
 * the formats (render_svg.c, render_cairo.c) only turn the calls of struct
 * render_canvas into their own.  Cell sizes are whole pixels and thin
 * strokes sit on half pixels, so a PNG's lines are crisp and measurable.
 *
 * One grid, drawn in this order (later on top):
 *
 *   shaded pattern cells -> thin cell lines -> thick region lines
 *   -> cage outlines and sums -> digits, pencil marks, strikes, circles
 *   -> the caption below
 *
 * What is not here: reading puzzles, the daemon, files (render_doc_write
 * only names them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/render.h"

/* Colours, 0xRRGGBB. */
#define INK_GIVEN   0x000000u /* givens: bold black */
#define INK_FILLED  0x1f5fbfu /* filled digits: blue, normal weight */
#define INK_CAND    0x5a5a5au /* pencil marks */
#define INK_STRUCK  0xd0302fu /* eliminated candidates and their strike */
#define INK_PLACED  0x14873au /* a placement's circle */
#define INK_LINE    0x404040u /* thin cell lines */
#define INK_REGION  0x000000u /* box, region and border lines */
#define INK_CAGE    0x303030u /* killer cage outline and sum */
#define INK_CAPTION 0x303030u /* captions */
#define FILL_SHADE  0xffdf80u /* a step's pattern cells */
#define FILL_PLACED 0xd4f0d8u /* a placement's cell */
#define FILL_PAPER  0xffffffu /* behind a cage's sum */

/* Where one grid goes on its page. */
struct layout {
    double x, y;      /* top left corner of the grid */
    unsigned cell;    /* a cell's side, whole pixels */
    unsigned n;       /* side */
    double thin;      /* cell line width */
    double thick;     /* region line width */
    double caption_h; /* room under the grid for its caption, 0: none */
    double cap_size;  /* a caption's letter size */
};

/* ------------------------------------------------------------------------ */
/* Grids */

void render_grid_init(struct render_grid *g, unsigned n)
{
    memset(g, 0, sizeof(*g));
    g->n = n;
}

char render_symbol(unsigned v)
{
    if (v >= 1 && v <= 9)
        return (char)('0' + v);
    return v >= 10 && v <= RENDER_MAX_SIDE ? (char)('A' + (v - 10)) : '?';
}

unsigned render_box_side(unsigned n)
{
    for (unsigned b = 2; b <= 5; b++)
        if (b * b == n)
            return b;
    return 0;
}

/* The digit shown in cell i: given, filled, else placed; 0 none. */
static unsigned shown_digit(const struct render_grid *g, unsigned i)
{
    return g->givens[i] ? g->givens[i] : g->filled[i] ? g->filled[i] : g->placed[i];
}

/* Region of cell i: the jigsaw's, else its box. */
static unsigned region_of(const struct render_grid *g, unsigned i)
{
    unsigned b = render_box_side(g->n);
    unsigned r = i / g->n, c = i % g->n;
    if (g->has_regions || b == 0)
        return g->has_regions ? g->regions[i] : 0;
    return (r / b) * b + c / b;
}

void render_grid_candidates(struct render_grid *g)
{
    unsigned n = g->n, cells = n * n;
    uint32_t all = n >= 32 ? 0xffffffffu : (1u << n) - 1;

    for (unsigned i = 0; i < cells; i++) {
        if (shown_digit(g, i)) {
            g->cands[i] = 0;
            continue;
        }
        uint32_t seen = 0;
        for (unsigned j = 0; j < cells; j++) {
            unsigned d = shown_digit(g, j);
            if (d && (j / n == i / n || j % n == i % n || region_of(g, j) == region_of(g, i)))
                seen |= 1u << (d - 1);
        }
        g->cands[i] = all & ~seen;
    }
    g->has_cands = 1;
}

int render_format_parse(const char *s, enum render_format *out)
{
    static const char *const names[] = {"svg", "png", "pdf"};
    for (unsigned i = 0; i < 3; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (enum render_format)i;
            return 0;
        }
    }
    return -EINVAL;
}

const char *render_format_ext(enum render_format f)
{
    return f == RENDER_PNG ? "png" : f == RENDER_PDF ? "pdf" : "svg";
}

/* ------------------------------------------------------------------------ */
/* Documents */

void render_doc_init(struct render_doc *d, enum render_format f)
{
    memset(d, 0, sizeof(*d));
    d->format = f;
    d->per_page = 1;
}

void render_doc_close(struct render_doc *d)
{
    free(d->grids);
    d->grids = NULL;
    d->len = d->cap = 0;
}

struct render_grid *render_doc_add(struct render_doc *d, unsigned n)
{
    if (d->len == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 4;
        struct render_grid *g = realloc(d->grids, cap * sizeof(*g));
        if (!g)
            return NULL;
        d->grids = g;
        d->cap = cap;
    }
    render_grid_init(&d->grids[d->len], n);
    return &d->grids[d->len++];
}

static unsigned per_page(const struct render_doc *d)
{
    return d->per_page ? d->per_page : 1;
}

size_t render_doc_pages(const struct render_doc *d)
{
    return (d->len + per_page(d) - 1) / per_page(d);
}

/* ------------------------------------------------------------------------ */
/* Layout */

/* A grid's side by default: cells big enough to read, and with pencil
 * marks (is_cands) big enough to read those too. */
static unsigned default_px(unsigned n, int is_cands)
{
    if (is_cands)
        return n <= 4 ? 240 : n <= 9 ? 504 : n <= 16 ? 960 : 1600;
    return n <= 4 ? 240 : n <= 9 ? 432 : n <= 16 ? 576 : 750;
}

/* Columns of a page of k grids: as many as fit a portrait page. */
static unsigned page_cols(unsigned k)
{
    unsigned c = 1;
    while ((c + 1) * (c + 1) <= k)
        c++;
    return c;
}

/* About how wide a sans-serif character is, for its size. */
#define CHAR_WIDTH 0.58

/* Lines the captions of d need at letter size cap_size under a grid of
 * width side: 0 (none has one), 1, or 2 (some is too long for one line;
 * every slot gets room for the longest). */
static int caption_lines(const struct render_doc *d, double side, double cap_size)
{
    int lines = 0;
    for (size_t k = 0; k < d->len && lines < 2; k++) {
        size_t len = strlen(d->grids[k].caption);
        if (len)
            lines = (double)len * CHAR_WIDTH * cap_size > side ? 2 : 1;
    }
    return lines;
}

/* 1 when some grid of d shows pencil marks. */
static int has_cands(const struct render_doc *d)
{
    for (size_t k = 0; k < d->len; k++)
        if (d->grids[k].has_cands)
            return 1;
    return 0;
}

/* The layout of grid slot k of a page whose grids are all side n. */
static void layout_slot(const struct render_doc *d, unsigned n, unsigned k, struct layout *l)
{
    unsigned px = d->size_px ? d->size_px : default_px(n, has_cands(d));
    unsigned cols = page_cols(per_page(d));
    double margin, side;

    l->n = n;
    l->cell = (px / n > 0) ? px / n : 1;
    side = (double)(l->cell * n);
    margin = (double)(px / 12 > 8 ? px / 12 : 8);
    l->thin = l->cell >= 64 ? 2 : 1;
    l->thick = l->cell >= 24 ? 3 * l->thin : 2 * l->thin + 1;
    l->cap_size = side / 26 + 4;
    switch (caption_lines(d, side, l->cap_size)) {
    case 0:
        l->caption_h = 0;
        break;
    case 1:
        l->caption_h = l->cap_size * 1.7;
        break;
    default:
        l->caption_h = l->cap_size * 2.9;
    }
    l->x = margin + (double)(k % cols) * (side + margin);
    l->y = margin + (double)(k / cols) * (side + l->caption_h + margin);
}

/* The page's size for grids of side n. */
static void page_size(const struct render_doc *d, unsigned n, double *w, double *h)
{
    struct layout l;
    unsigned k = per_page(d), cols = page_cols(k), rows = (k + cols - 1) / cols;
    layout_slot(d, n, 0, &l);
    *w = l.x * (cols + 1) + (double)(l.cell * n) * cols;
    *h = l.y * (rows + 1) + ((double)(l.cell * n) + l.caption_h) * rows;
}

/* The coordinate of grid line i (0..n) along one axis from origin o, moved
 * half a pixel when the stroke is odd so that it covers whole pixels. */
static double line_at(const struct layout *l, double o, unsigned i, double width)
{
    double x = o + (double)(i * l->cell);
    return ((int)width % 2) ? x + 0.5 : x;
}

/* ------------------------------------------------------------------------ */
/* Drawing one grid */

static void draw_shading(const struct render_grid *g, const struct layout *l,
                         const struct render_canvas *cv)
{
    for (unsigned i = 0; i < g->n * g->n; i++) {
        uint32_t fill = g->placed[i] ? FILL_PLACED : g->shaded[i] ? FILL_SHADE : 0;
        if (fill)
            cv->rect(cv->ctx, l->x + (double)((i % g->n) * l->cell),
                     l->y + (double)((i / g->n) * l->cell), l->cell, l->cell, fill);
    }
}

/* 1 when the edge after cell (r, c) going right (is_right) or down
 * separates two regions. */
static int is_region_edge(const struct render_grid *g, unsigned r, unsigned c, int is_right)
{
    unsigned i = r * g->n + c, j = is_right ? i + 1 : i + g->n;
    return region_of(g, i) != region_of(g, j);
}

/* The lines between cells: thin ones, then runs of thick ones where
 * regions meet, then the border. */
static void draw_lines(const struct render_grid *g, const struct layout *l,
                       const struct render_canvas *cv)
{
    unsigned n = g->n;
    double side = (double)(l->cell * n);

    for (unsigned i = 1; i < n; i++) {
        double x = line_at(l, l->x, i, l->thin), y = line_at(l, l->y, i, l->thin);
        cv->line(cv->ctx, x, l->y, x, l->y + side, l->thin, INK_LINE, 0);
        cv->line(cv->ctx, l->x, y, l->x + side, y, l->thin, INK_LINE, 0);
    }
    for (unsigned a = 0; a + 1 < n; a++) {
        for (int is_right = 0; is_right <= 1; is_right++) {
            unsigned b = 0;
            while (b < n) {
                unsigned r = is_right ? b : a, c = is_right ? a : b, e = b;
                if (!is_region_edge(g, r, c, is_right)) {
                    b++;
                    continue;
                }
                while (e < n && is_region_edge(g, is_right ? e : a, is_right ? a : e, is_right))
                    e++;
                double at = line_at(l, is_right ? l->x : l->y, a + 1, l->thick);
                double from = (is_right ? l->y : l->x) + (double)(b * l->cell);
                double to = (is_right ? l->y : l->x) + (double)(e * l->cell);
                if (is_right)
                    cv->line(cv->ctx, at, from, at, to, l->thick, INK_REGION, 0);
                else
                    cv->line(cv->ctx, from, at, to, at, l->thick, INK_REGION, 0);
                b = e;
            }
        }
    }
    double top = line_at(l, l->y, 0, l->thick), bottom = line_at(l, l->y, n, l->thick);
    double left = line_at(l, l->x, 0, l->thick), right = line_at(l, l->x, n, l->thick);
    cv->line(cv->ctx, left, top, right, top, l->thick, INK_REGION, 0);
    cv->line(cv->ctx, left, bottom, right, bottom, l->thick, INK_REGION, 0);
    cv->line(cv->ctx, left, top, left, bottom, l->thick, INK_REGION, 0);
    cv->line(cv->ctx, right, top, right, bottom, l->thick, INK_REGION, 0);
}

/* 1 when cell (r + dr, c + dc) is inside the grid and in cage id. */
static int in_cage(const struct render_grid *g, int r, int c, unsigned id)
{
    int n = (int)g->n;
    return r >= 0 && c >= 0 && r < n && c < n && g->cage[r * n + c] == id;
}

/* One cell's share of its cage's dashed outline, inset from the cell's
 * edges: a side where the neighbour is not in the cage. */
static void draw_cage_cell(const struct render_grid *g, const struct layout *l, unsigned i,
                           const struct render_canvas *cv)
{
    int r = (int)(i / g->n), c = (int)(i % g->n);
    unsigned id = g->cage[i];
    double in = l->cell * 0.1, x = l->x + c * (double)l->cell, y = l->y + r * (double)l->cell;
    double x0 = x + (in_cage(g, r, c - 1, id) ? 0 : in);
    double x1 = x + l->cell - (in_cage(g, r, c + 1, id) ? 0 : in);
    double y0 = y + (in_cage(g, r - 1, c, id) ? 0 : in);
    double y1 = y + l->cell - (in_cage(g, r + 1, c, id) ? 0 : in);
    double w = l->thin;

    if (!in_cage(g, r - 1, c, id))
        cv->line(cv->ctx, x0, y + in, x1, y + in, w, INK_CAGE, 1);
    if (!in_cage(g, r + 1, c, id))
        cv->line(cv->ctx, x0, y + l->cell - in, x1, y + l->cell - in, w, INK_CAGE, 1);
    if (!in_cage(g, r, c - 1, id))
        cv->line(cv->ctx, x + in, y0, x + in, y1, w, INK_CAGE, 1);
    if (!in_cage(g, r, c + 1, id))
        cv->line(cv->ctx, x + l->cell - in, y0, x + l->cell - in, y1, w, INK_CAGE, 1);
}

/* Killer cages: outlines, then each sum in its first cell's corner on a
 * patch of paper that breaks the outline. */
static void draw_cages(const struct render_grid *g, const struct layout *l,
                       const struct render_canvas *cv)
{
    unsigned cells = g->n * g->n;
    uint8_t seen[RENDER_MAX_CELLS + 1] = {0};

    for (unsigned i = 0; i < cells; i++)
        if (g->cage[i])
            draw_cage_cell(g, l, i, cv);
    for (unsigned i = 0; i < cells; i++) {
        unsigned id = g->cage[i];
        if (!id || id > RENDER_MAX_CELLS || seen[id])
            continue;
        char sum[8];
        double size = l->cell * 0.24, x = l->x + (double)((i % g->n) * l->cell) + l->cell * 0.06;
        double y = l->y + (double)((i / g->n) * l->cell) + l->cell * 0.05;
        seen[id] = 1;
        snprintf(sum, sizeof(sum), "%u", (unsigned)g->cage_sum[id]);
        cv->rect(cv->ctx, x, y, size * 0.62 * (double)strlen(sum) + 2, size * 1.05, FILL_PAPER);
        cv->text(cv->ctx, x + 1, y, size, 0, INK_CAGE, RENDER_TOP_LEFT, sum);
    }
}

/* Pencil marks of cell i (and its struck candidates, marks or not): value
 * v in sub-cell v-1 of a box-sized sub-grid. */
static void draw_marks(const struct render_grid *g, const struct layout *l, unsigned i,
                       const struct render_canvas *cv)
{
    unsigned b = render_box_side(g->n);
    uint32_t shown = (g->has_cands ? g->cands[i] : 0) | g->struck[i];
    double sub, x = l->x + (double)((i % g->n) * l->cell),
                y = l->y + (double)((i / g->n) * l->cell);

    if (!b || !shown)
        return;
    sub = (double)l->cell / b;
    for (unsigned v = 1; v <= g->n; v++) {
        if (!(shown & (1u << (v - 1))))
            continue;
        char s[2] = {render_symbol(v), '\0'};
        double cx = x + sub * ((v - 1) % b + 0.5), cy = y + sub * ((v - 1) / b + 0.5);
        int is_struck = (g->struck[i] >> (v - 1)) & 1;
        cv->text(cv->ctx, cx, cy, sub * 0.72, is_struck, is_struck ? INK_STRUCK : INK_CAND,
                 RENDER_CENTER, s);
        if (is_struck)
            cv->line(cv->ctx, cx - sub * 0.4, cy + sub * 0.3, cx + sub * 0.4, cy - sub * 0.3,
                     sub > 12 ? 2 : 1, INK_STRUCK, 0);
    }
}

/* Digits and marks: a given bold and black, a filled digit lighter and
 * blue, a placement blue in a circle, else the cell's pencil marks. */
static void draw_cells(const struct render_grid *g, const struct layout *l,
                       const struct render_canvas *cv)
{
    double size = l->cell * 0.62;
    for (unsigned i = 0; i < g->n * g->n; i++) {
        double cx = l->x + ((double)(i % g->n) + 0.5) * l->cell;
        double cy = l->y + ((double)(i / g->n) + 0.5) * l->cell;
        unsigned v = shown_digit(g, i);
        char s[2] = {render_symbol(v), '\0'};
        if (!v) {
            draw_marks(g, l, i, cv);
            continue;
        }
        cv->text(cv->ctx, cx, cy, size, g->givens[i] != 0, g->givens[i] ? INK_GIVEN : INK_FILLED,
                 RENDER_CENTER, s);
        if (g->placed[i] && !g->givens[i] && !g->filled[i])
            cv->circle(cv->ctx, cx, cy, l->cell * 0.38, l->thin + 1, INK_PLACED);
    }
}

/* The caption under the grid: one line when it fits, else two split at
 * the space nearest the middle; smaller only when a line still cannot fit. */
static void draw_caption(const struct render_grid *g, const struct layout *l,
                         const struct render_canvas *cv)
{
    double side = (double)(l->cell * g->n), size = l->cap_size, y = l->y + side + size * 0.35;
    size_t len = strlen(g->caption), cut = 0;
    char first[RENDER_CAPTION_SIZE];

    if ((double)len * CHAR_WIDTH * size > side && l->caption_h > size * 2)
        for (size_t i = 1; i < len; i++)
            if (g->caption[i] == ' ' &&
                (!cut || (i > len / 2 ? i - len / 2 : len / 2 - i) <
                             (cut > len / 2 ? cut - len / 2 : len / 2 - cut)))
                cut = i;
    size_t longest = cut ? (cut > len - cut - 1 ? cut : len - cut - 1) : len;
    if ((double)longest * CHAR_WIDTH * size > side)
        size = side / (CHAR_WIDTH * (double)longest);
    if (!cut) {
        cv->text(cv->ctx, l->x, y, size, 0, INK_CAPTION, RENDER_TOP_LEFT, g->caption);
        return;
    }
    snprintf(first, sizeof(first), "%.*s", (int)cut, g->caption);
    cv->text(cv->ctx, l->x, y, size, 0, INK_CAPTION, RENDER_TOP_LEFT, first);
    cv->text(cv->ctx, l->x, y + size * 1.2, size, 0, INK_CAPTION, RENDER_TOP_LEFT,
             g->caption + cut + 1);
}

static void draw_grid(const struct render_grid *g, const struct layout *l,
                      const struct render_canvas *cv)
{
    draw_shading(g, l, cv);
    draw_lines(g, l, cv);
    draw_cages(g, l, cv);
    draw_cells(g, l, cv);
    if (g->caption[0] && l->caption_h > 0)
        draw_caption(g, l, cv);
}

/* The largest side among the grids of page (the page is laid out for it). */
static unsigned page_side(const struct render_doc *d, size_t page)
{
    size_t first = page * per_page(d), last = first + per_page(d);
    unsigned n = 0;
    for (size_t k = first; k < last && k < d->len; k++)
        n = d->grids[k].n > n ? d->grids[k].n : n;
    return n;
}

/* The layout of grid k of d, on a page laid out for side n. */
static void layout_grid(const struct render_doc *d, size_t k, unsigned n, struct layout *l)
{
    layout_slot(d, n, (unsigned)(k % per_page(d)), l);
    l->n = d->grids[k].n;
    l->cell = (l->cell * n) / l->n; /* a smaller grid takes the same room */
}

int render_doc_grid_at(const struct render_doc *d, size_t k, double *x, double *y, unsigned *cell)
{
    struct layout l;
    if (k >= d->len)
        return -EINVAL;
    layout_grid(d, k, page_side(d, k / per_page(d)), &l);
    *x = l.x;
    *y = l.y;
    *cell = l.cell;
    return 0;
}

int render_doc_draw_page(const struct render_doc *d, size_t page, const struct render_canvas *cv)
{
    size_t first = page * per_page(d), last = first + per_page(d);
    unsigned n = page_side(d, page);
    double w, h;
    int rc;

    if (first >= d->len)
        return -EINVAL;
    if (last > d->len)
        last = d->len;
    page_size(d, n, &w, &h);
    rc = cv->begin_page(cv->ctx, w, h);
    if (rc < 0)
        return rc;
    for (size_t k = first; k < last; k++) {
        struct layout l;
        layout_grid(d, k, n, &l);
        draw_grid(&d->grids[k], &l, cv);
    }
    return cv->end_page(cv->ctx);
}

/* ------------------------------------------------------------------------ */
/* Files */

/* Write pages first..last of d to one file (NULL: stdout). */
static int write_file(const struct render_doc *d, const char *path, size_t first, size_t last,
                      char *err, size_t err_size)
{
    FILE *f = path ? fopen(path, "wb") : stdout;
    int rc;

    if (!f) {
        rc = -errno;
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(-rc));
        return rc;
    }
    rc = d->format == RENDER_SVG ? render_svg_write(d, first, f)
                                 : render_cairo_write(d, first, last, f);
    if (fflush(f) != 0 && rc == 0)
        rc = -EIO;
    if (path && fclose(f) != 0 && rc == 0)
        rc = -EIO;
    if (rc < 0)
        snprintf(err, err_size, "cannot write %s: %s", path ? path : "<stdout>", strerror(-rc));
    return rc;
}

/* path with "-K" before its extension (or at its end when it has none). */
static int numbered(const char *path, size_t k, char *out, size_t size)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    int len;
    if (!dot || (slash && dot < slash))
        len = snprintf(out, size, "%s-%zu", path, k);
    else
        len = snprintf(out, size, "%.*s-%zu%s", (int)(dot - path), path, k, dot);
    return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

/* One file a page: path-1.ext, path-2.ext, ... */
static int write_numbered(const struct render_doc *d, const char *path, size_t pages, char *err,
                          size_t err_size)
{
    char name[4096];
    for (size_t p = 0; p < pages; p++) {
        int rc = numbered(path, p + 1, name, sizeof(name));
        if (rc < 0) {
            snprintf(err, err_size, "%s: name too long", path);
            return rc;
        }
        rc = write_file(d, name, p, p, err, err_size);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int render_doc_write(const struct render_doc *d, const char *path, char *err, size_t err_size)
{
    size_t pages = render_doc_pages(d);
    int rc;

    if (pages == 0) {
        snprintf(err, err_size, "nothing to draw");
        return -EINVAL;
    }
    if (d->format != RENDER_SVG && !render_has_cairo()) {
        snprintf(err, err_size, "%s needs cairo, and this sudoku was built without it",
                 render_format_ext(d->format));
        return -ENOTSUP;
    }
    if (d->format == RENDER_PDF || pages == 1) {
        rc = write_file(d, path, 0, pages - 1, err, err_size);
    } else if (!path) {
        snprintf(err, err_size, "%zu pages of %s: name a file with -o (one file a page)", pages,
                 render_format_ext(d->format));
        rc = -EINVAL;
    } else {
        rc = write_numbered(d, path, pages, err, err_size);
    }
    if (d->format != RENDER_SVG)
        render_cairo_release();
    return rc;
}
